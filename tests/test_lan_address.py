"""The LAN address when the laptop is itself the offline hotspot: from the interface list (issue 23).

A laptop sharing its own Wi-Fi (NetworkManager's hotspot) has one interface 10.42.0.1/24 and no
default route: the route probe finds nothing, and the QR codes pointed to 127.0.0.1. The interface
list is injected here (records shaped as psutil's), as is the missing route; the QR base, the
printed banner, the allowed hosts and the print run's worker all get 10.42.0.1.
"""

from __future__ import annotations

import socket
from collections import namedtuple

import pytest

import launcher
from events import public_url
from helpers import addresses

# psutil.net_if_addrs() and net_if_stats() records, field for field.
snicaddr = namedtuple("snicaddr", "family address netmask broadcast ptp")
snicstats = namedtuple("snicstats", "isup duplex speed mtu flags")

HOTSPOT = (
    {
        "lo": [snicaddr(socket.AF_INET, "127.0.0.1", "255.0.0.0", None, None)],
        "wlp2s0": [
            snicaddr(socket.AF_INET, "10.42.0.1", "255.255.255.0", "10.42.0.255", None),
            snicaddr(socket.AF_INET6, "fe80::1c2:3ff:fe04:506%wlp2s0", "ffff:ffff:ffff:ffff::", None, None),
        ],
        "docker0": [snicaddr(socket.AF_INET, "172.17.0.1", "255.255.0.0", None, None)],
        "enp0s31f6": [snicaddr(socket.AF_INET, "192.168.5.9", "255.255.255.0", None, None)],  # cable out
    },
    {
        "lo": snicstats(True, 0, 0, 65536, ""),
        "wlp2s0": snicstats(True, 0, 0, 1500, ""),
        "docker0": snicstats(True, 0, 0, 1500, ""),
        "enp0s31f6": snicstats(False, 0, 0, 1500, ""),
    },
)


def no_route() -> list[str]:
    return []


def test_the_interface_list_gives_the_hotspot_address_first():
    """Up interfaces only, real ones before a container bridge, never loopback or link-local."""
    assert launcher.interface_addresses(*HOTSPOT) == ["10.42.0.1", "172.17.0.1"]
    assert launcher.lan_addresses(route=no_route, interfaces=lambda: HOTSPOT, named=list) == [
        "10.42.0.1",
        "172.17.0.1",
    ]


def test_the_default_routes_address_still_comes_first_when_there_is_one():
    found = launcher.lan_addresses(route=lambda: ["192.168.1.20"], interfaces=lambda: HOTSPOT, named=list)
    assert found == ["192.168.1.20", "10.42.0.1", "172.17.0.1"]


@pytest.mark.parametrize(
    "listing",
    [
        HOTSPOT,
        ({"eth0": [snicaddr(socket.AF_INET6, "fd00::5", "ffff::", None, None)]}, {}),
        ({"tun0": [snicaddr(socket.AF_INET, "10.8.0.2", "", None, None)]}, {}),
        ({"lo": [snicaddr(socket.AF_INET, "127.0.0.1", "255.0.0.0", None, None)]}, {}),
    ],
)
def test_the_launcher_and_the_qr_fallback_read_the_interface_list_alike(listing):
    """launcher.py imports no project package, so it keeps its own copy of the ranking."""
    assert launcher.interface_addresses(*listing) == addresses.interface_addresses(*listing)


def test_the_launchers_qr_base_banner_and_hosts_use_the_hotspot_address(tmp_path, monkeypatch):
    monkeypatch.setattr(launcher, "_route_address", no_route)
    monkeypatch.setattr(launcher, "_read_interfaces", lambda: HOTSPOT)
    monkeypatch.setattr(launcher, "_named_addresses", list)
    options = launcher.Options(lan=True, var_dir=tmp_path)
    env, found = launcher.environment(options, {})
    assert env["SUMRAK_PUBLIC_URL"] == "http://10.42.0.1:8000"
    assert "10.42.0.1" in env["ALLOWED_HOSTS"].split(",")
    shown = launcher.banner(options, found, False, env["SUMRAK_PUBLIC_URL"])
    assert "For tablets and phones: http://10.42.0.1:8000/" in shown
    assert "Printed QR codes point to http://10.42.0.1:8000" in shown
    assert "no LAN address found" not in shown
    # The print run is the worker's: it builds its QR codes on the same base.
    (worker,) = [p for p in launcher.programs(options, env) if p.name == "worker"]
    assert worker.env["SUMRAK_PUBLIC_URL"] == "http://10.42.0.1:8000"


def test_the_qr_base_without_the_launcher_uses_the_hotspot_address(settings, monkeypatch, db, character):
    """No SUMRAK_PUBLIC_URL (a server started by hand): the QR codes' own fallback finds it too."""
    settings.SUMRAK_PUBLIC_URL = ""
    monkeypatch.setattr(addresses, "route_address", lambda: None)
    monkeypatch.setattr(addresses, "read_interfaces", lambda: HOTSPOT)
    public_url._lan_address.cache_clear()
    try:
        assert public_url.public_base() == "http://10.42.0.1:8000"
        assert public_url.secret_link(character).startswith("http://10.42.0.1:8000/c/")
        assert not public_url.address_note()["qr_base_loopback"]
    finally:
        public_url._lan_address.cache_clear()


def test_with_no_address_at_all_the_qr_base_is_loopback_and_said_so(settings, monkeypatch):
    settings.SUMRAK_PUBLIC_URL = ""
    monkeypatch.setattr(addresses, "route_address", lambda: None)
    monkeypatch.setattr(addresses, "read_interfaces", lambda: ({}, {}))
    public_url._lan_address.cache_clear()
    try:
        assert public_url.address_note() == {"qr_base": "http://127.0.0.1:8000", "qr_base_loopback": True}
    finally:
        public_url._lan_address.cache_clear()


def test_psutils_real_interface_list_reads_the_same_way():
    """The injected records above have psutil's shape: this machine's own list goes through too."""
    found = launcher.interface_addresses(*launcher._read_interfaces())
    assert found == addresses.interface_addresses(*addresses.read_interfaces())
    assert all(isinstance(a, str) for a in found) and "127.0.0.1" not in found and "::1" not in found

"""This machine's address on the game site's network, for the QR codes' fallback base (issue 23).

The address of the default route is the one phones reach, when there is a default route. A laptop
that is itself the offline hotspot (NetworkManager's "shared" Wi-Fi: one interface 10.42.0.1/24
and no default route) has none, and the QR codes fell back to 127.0.0.1; the interface list
(psutil) still has 10.42.0.1. launcher.py finds the addresses the same way for its banner and
for ``SUMRAK_PUBLIC_URL`` (it imports no project package, so it keeps its own copy of
``interface_addresses``; tests/test_lan_address.py checks the two agree).
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Mapping, Sequence
from typing import Any

# Interfaces phones do not reach: containers' and VMs' bridges, VPN tunnels.
VIRTUAL = ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "lxc", "lxdbr", "cni", "flannel", "podman")
TUNNELS = ("tun", "tap", "wg", "tailscale", "zt", "utun", "ppp")


def route_address() -> str | None:
    """The address of the default route; a UDP "connect" sends nothing."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
    except OSError:
        return None


def read_interfaces() -> tuple[Mapping[str, Sequence[Any]], Mapping[str, Any]]:
    """psutil's interface list and their states ({} if psutil cannot tell)."""
    try:
        import psutil

        return psutil.net_if_addrs(), psutil.net_if_stats()
    except (ImportError, OSError):
        return {}, {}


def interface_addresses(addrs: Mapping[str, Sequence[Any]], stats: Mapping[str, Any]) -> list[str]:
    """The usable addresses of the interfaces that are up: IPv4 of real interfaces first, then
    their IPv6, then tunnels and virtual bridges; never loopback, link-local or multicast."""
    ranked: list[tuple[int, int, str]] = []
    for name, entries in addrs.items():
        state = stats.get(name)
        if state is not None and not state.isup:
            continue
        lowered = name.lower()
        kind = 2 if lowered.startswith(VIRTUAL) else 1 if lowered.startswith(TUNNELS) else 0
        for entry in entries:
            if entry.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            text = str(entry.address).split("%")[0]
            try:
                ip = ipaddress.ip_address(text)
            except ValueError:
                continue
            if ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified:
                continue
            ranked.append((kind * 2 + (ip.version == 6), len(ranked), text))
    return [text for _, _, text in sorted(ranked)]


def lan_address(
    route: Callable[[], str | None] | None = None,
    interfaces: Callable[[], tuple[Mapping[str, Sequence[Any]], Mapping[str, Any]]] | None = None,
) -> str:
    """The default route's address, else the interface list's first, else 127.0.0.1 (IPv6 bracketed)."""
    route, interfaces = route or route_address, interfaces or read_interfaces
    found = route()
    if not found or found.startswith("127."):
        listed = interface_addresses(*interfaces())
        found = listed[0] if listed else "127.0.0.1"
    return f"[{found}]" if ":" in found else found

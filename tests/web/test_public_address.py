"""QR codes point to the public base address, never to the host the organizer's browser used (issue 10).

The address is the event's override, else ``SUMRAK_PUBLIC_URL``; every QR page says
where its codes point and warns when that is a loopback address phones cannot open.
"""

import subprocess

import pytest
import segno
from django.urls import reverse

from config.env import EnvError, env_base_url
from events.public_url import is_loopback, public_base, secret_link


def _link(character) -> str:
    return reverse("events:character-link", args=[character.link_token])


@pytest.fixture
def lan(settings):
    settings.SUMRAK_PUBLIC_URL = "http://192.168.7.2:8000"
    settings.ALLOWED_HOSTS = ["localhost", "testserver", "127.0.0.1"]


QR_PAGES = ["events:character-edit", "events:character-qr"]


@pytest.mark.parametrize("page_name", QR_PAGES)
def test_character_qr_pages_use_the_public_address_not_the_request_host(page_name, lan, as_user, organizer, character):
    page = as_user(organizer).get(reverse(page_name, args=[character.pk]), HTTP_HOST="localhost")
    assert page.status_code == 200
    assert "http://192.168.7.2:8000" + _link(character) in page.text
    assert "http://localhost" not in page.text
    assert 'id="qr-address"' in page.text and 'id="qr-address-loopback"' not in page.text


def test_qr_sheet_says_where_its_codes_point(lan, as_user, organizer, event, character):
    page = as_user(organizer).get(reverse("events:qr-sheet", args=[event.pk]), HTTP_HOST="127.0.0.1")
    assert "The QR codes point to <strong" in page.text and "http://192.168.7.2:8000" in page.text
    assert 'id="qr-address-loopback"' not in page.text


@pytest.mark.parametrize("address", ["http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"])
def test_a_loopback_address_is_warned_about_on_every_qr_page(address, settings, as_user, organizer, event, character):
    settings.SUMRAK_PUBLIC_URL = address
    client = as_user(organizer)
    for url in (
        reverse("events:qr-sheet", args=[event.pk]),
        reverse("events:character-qr", args=[character.pk]),
        reverse("events:character-edit", args=[character.pk]),
        reverse("events:event-settings", args=[event.pk]),
    ):
        page = client.get(url)
        assert 'id="qr-address-loopback"' in page.text, url
        assert "phones and tablets cannot" in page.text


def test_the_event_override_wins_over_the_deployment_setting(lan, as_user, organizer, event, character):
    event.public_url = "https://watch.example.org"
    event.save()
    character.refresh_from_db()
    assert secret_link(character) == "https://watch.example.org" + _link(character)
    page = as_user(organizer).get(reverse("events:character-qr", args=[character.pk]))
    assert "https://watch.example.org" + _link(character) in page.text


def test_the_printed_secret_link_qr_decodes_to_the_public_address(lan, character, tmp_path):
    """The QR image itself, not only the text under it, carries the public address."""
    zbarimg = pytest.importorskip("shutil").which("zbarimg")
    if zbarimg is None:
        pytest.skip("zbarimg is not installed (apt-get install zbar-tools)")
    target = tmp_path / "link.png"
    segno.make(secret_link(character), error="m").save(target, scale=6)
    decoded = subprocess.run([zbarimg, "-q", "--raw", str(target)], capture_output=True, text=True, check=True)
    assert decoded.stdout.strip() == "http://192.168.7.2:8000" + _link(character)


def test_event_settings_refuse_an_address_with_a_path(as_user, organizer, event):
    data = {
        "name": event.name,
        "starts_on": event.starts_on.isoformat(),
        "ends_on": event.ends_on.isoformat(),
        "catalogue": event.catalogue_id,
        "answer_window_s": "15",
        "situation_gap_s": "180",
        "instant_attack_distance_m": "2",
        "reactions_from_round": "2",
        "public_url": "http://192.168.1.10:8000/some/page",
    }
    page = as_user(organizer).post(reverse("events:event-settings", args=[event.pk]), data)
    assert page.status_code == 200 and "no path" in page.text
    event.refresh_from_db()
    assert event.public_url == ""
    data["public_url"] = "http://192.168.1.10:8000/"
    assert as_user(organizer).post(reverse("events:event-settings", args=[event.pk]), data).status_code == 302
    event.refresh_from_db()
    assert event.public_url == "http://192.168.1.10:8000"
    assert public_base(event) == "http://192.168.1.10:8000"


def test_is_loopback():
    assert is_loopback("http://127.0.0.1:8000") and is_loopback("http://localhost") and is_loopback("http://[::1]:80")
    assert not is_loopback("http://192.168.1.10:8000") and not is_loopback("https://game.example.org")


@pytest.mark.parametrize("value", ["192.168.1.10:8000", "ftp://host", "http://host/path", "http://host:99999"])
def test_a_bad_SUMRAK_PUBLIC_URL_stops_the_start_up(value, monkeypatch):
    monkeypatch.setenv("SUMRAK_PUBLIC_URL", value)
    with pytest.raises(EnvError):
        env_base_url("SUMRAK_PUBLIC_URL")


def test_a_good_SUMRAK_PUBLIC_URL_is_kept_without_its_slash(monkeypatch):
    monkeypatch.setenv("SUMRAK_PUBLIC_URL", "http://10.0.0.5:8000/")
    assert env_base_url("SUMRAK_PUBLIC_URL") == "http://10.0.0.5:8000"

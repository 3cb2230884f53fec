"""The QR pages in a browser say where their codes point, and the code itself says the same (issue 10).

The organizer opens the pages through 127.0.0.1 (the live server); the codes must
still carry the public address, and a loopback public address is warned about.
"""

import shutil
import subprocess

import pytest

pytestmark = pytest.mark.browser

PUBLIC = "http://192.168.7.2:8000"


def _decode(png_path) -> list[str]:
    zbarimg = shutil.which("zbarimg")
    if zbarimg is None:
        pytest.skip("zbarimg is not installed (apt-get install zbar-tools)")
    out = subprocess.run([zbarimg, "-q", "--raw", str(png_path)], capture_output=True, text=True)
    return [line for line in out.stdout.splitlines() if line.strip()]


def test_the_qr_sheet_points_to_the_public_address_not_the_browsers_host(
    tablet, log_in_as, url, screenshot, settings, organizer, event, character, tmp_path
):
    settings.SUMRAK_PUBLIC_URL = PUBLIC
    page = tablet()
    log_in_as(page, organizer)
    page.goto(url("events:character-qr", character.pk))
    assert page.url.startswith("http://localhost") or page.url.startswith("http://127.0.0.1")
    note = page.locator("#qr-address")
    assert note.is_visible() and PUBLIC in note.inner_text()
    assert page.locator("#qr-address-loopback").count() == 0
    qr = tmp_path / "qr.png"
    page.locator("#qr-card svg.segno").screenshot(path=str(qr))
    link = PUBLIC + f"/c/{character.link_token}/"
    assert _decode(qr) == [link]
    screenshot(page, "character")

    page.goto(url("events:qr-sheet", event.pk))
    assert PUBLIC in page.locator("#qr-address").inner_text()
    sheet = tmp_path / "sheet.png"
    page.locator("#qr-sheet svg.segno").first.screenshot(path=str(sheet))
    assert _decode(sheet) == [link]
    screenshot(page, "sheet")


def test_a_loopback_address_is_warned_about_in_russian(
    tablet, log_in_as, url, screenshot, settings, organizer, event, character
):
    settings.SUMRAK_PUBLIC_URL = "http://127.0.0.1:8000"
    page = tablet(locale="ru-RU")
    log_in_as(page, organizer)
    page.goto(url("events:qr-sheet", event.pk))
    warning = page.locator("#qr-address-loopback")
    assert warning.is_visible()
    assert "телефоны и планшеты — нет" in warning.inner_text()
    assert page.locator("#qr-address").get_attribute("role") == "alert"
    screenshot(page)

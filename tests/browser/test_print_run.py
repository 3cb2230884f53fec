"""Printing the game in a browser (issue 14): the demo's whole run is one click, a large run shows its progress."""

import pytest

import demo
from cards.models import PoolEntry
from cards.printing import render, runs
from cards.printing.models import PrintRun

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def pdf_ready(settings):
    settings.SUMRAK_PUBLIC_URL = "http://192.168.7.2:8000"
    if not render.pdf_available():
        pytest.skip("WeasyPrint's libraries (Pango) are not installed")


def test_the_demo_events_print_run_is_one_click(tablet, log_in_as, url, screenshot, tmp_path):
    event = demo.load()
    page = tablet()
    log_in_as(page, event.staff.get(role="organizer").user)
    page.goto(url("events:organizer-home", event.pk))
    page.locator("#print-game-link").click()
    screenshot(page, "form")
    with page.expect_download(timeout=120_000) as download_info:
        page.locator("#print-start").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".pdf")
    target = tmp_path / "demo.pdf"
    download.save_as(target)
    assert target.read_bytes().startswith(b"%PDF")
    assert PrintRun.objects.get().status == PrintRun.Status.DONE


def test_a_background_run_polls_its_progress_until_the_download_appears(
    tablet, log_in_as, url, screenshot, monkeypatch, organizer, event, character, rival, attack_card
):
    monkeypatch.setattr("cards.printing.views.INLINE_LIMIT", 1)
    monkeypatch.setattr("cards.printing.views.print_run.delay", lambda run_id: None)  # the worker is this test
    PoolEntry.objects.create(character=character, card=attack_card)
    page = tablet()
    log_in_as(page, organizer)
    page.goto(url("cards:print-event", event.pk))
    page.locator("#print-start").click()
    page.wait_for_selector("#run-bar")
    assert page.locator("#run-bar").get_attribute("value") == "0"
    assert page.locator("#run-download").count() == 0
    screenshot(page, "waiting")
    runs.execute(PrintRun.objects.get().pk)
    # The page polls every 2 s: the finished bar and the download link come without a reload.
    page.wait_for_selector("#run-download", timeout=15_000)
    assert page.locator("#run-bar").get_attribute("value") == "100"
    screenshot(page, "done")
    with page.expect_download() as download_info:
        page.locator("#run-download").click()
    assert download_info.value.suggested_filename.endswith(".pdf")


def test_the_html_version_of_the_cards_shows_under_the_sites_csp(
    tablet, log_in_as, url, screenshot, organizer, character, attack_card, defence_card
):
    """The web-page print (used where WeasyPrint is missing) breaks no CSP rule: styles from our file, QR images."""
    PoolEntry.objects.create(character=character, card=attack_card, copies=2)
    PoolEntry.objects.create(character=character, card=defence_card)
    page = tablet()
    violations = []
    # (The browser's own /favicon.ico request is a 404 here: not a CSP matter.)
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    log_in_as(page, organizer)
    page.goto(url("cards:print-cards", character.pk) + "?format=html")
    fronts = page.locator(".print-card.front")
    assert fronts.count() == 3
    # The print CSS positioned the cards (absolute, 63 mm wide = 238 px at 96 dpi) and the QR images loaded.
    box = fronts.first.bounding_box()
    assert box is not None and abs(box["width"] - 63 / 25.4 * 96) < 2
    assert page.evaluate("Array.from(document.querySelectorAll('img.qr')).every(i => i.naturalWidth > 0)")
    assert violations == []
    screenshot(page)

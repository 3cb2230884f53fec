"""axe-core (vendored in static/vendor, no CDN) finds no serious or critical accessibility violation on
the referee's fight screen, the player's pages and the spectator page, in the light and the dark theme
(issue 10: night games; contrast >= 4.5:1 is one of axe's WCAG AA checks)."""

import pytest
from playwright.sync_api import expect

from tests.browser.axe_kit import axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]


@pytest.fixture
def answer_window(running):
    """The fight of browser/conftest.py's ``running``: its answer window is open (D8)."""
    return running


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_referees_fight_screen_has_no_serious_violation(
    tablet, log_in_as, url, live_server, screenshot, referee, answer_window, scheme
):
    page = tablet(color_scheme=scheme)
    log_in_as(page, referee)
    page.goto(url("duels:situation", answer_window.pk))
    expect(page.locator("html")).to_have_attribute("data-bs-theme", scheme)
    # Folded parts too: the take-back and end-of-duel forms, the hands (contrast of "Take back", issue 10).
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    screenshot(page, scheme)
    assert axe_violations(page, live_server) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_players_pages_have_no_serious_violation(
    phone, log_in_as, url, live_server, screenshot, player, armed, answer_window, scheme
):
    anton, _zavulon = armed
    page = phone(color_scheme=scheme)
    log_in_as(page, player)
    page.goto(url("duels:player-live", anton.pk))
    expect(page.locator(".my-condition")).to_be_visible()
    screenshot(page, f"live-{scheme}")
    assert axe_violations(page, live_server) == []
    page.goto(url("events:my-character", anton.pk))
    expect(page.locator("#player-live .my-condition")).to_be_visible()
    screenshot(page, f"character-{scheme}")
    assert axe_violations(page, live_server) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_spectator_page_has_no_serious_violation(phone, url, live_server, screenshot, answer_window, scheme):
    page = phone(color_scheme=scheme)
    page.goto(url("duels:watch", answer_window.pk))
    expect(page.locator("#duel-0")).to_be_visible()
    screenshot(page, scheme)
    assert axe_violations(page, live_server) == []

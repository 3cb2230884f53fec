"""axe-core (vendored in static/vendor, no CDN) finds no serious or critical accessibility violation on
the referee's fight screen, the player's pages and the spectator page, in the light and the dark theme
(issue 10: night games; contrast >= 4.5:1 is one of axe's WCAG AA checks)."""

import pytest
from django.templatetags.static import static
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]
SERIOUS = ("serious", "critical")


def axe_violations(page, live_server) -> list[dict]:
    # Loaded from our own static files: the pages' CSP allows scripts from the site only.
    page.add_script_tag(url=live_server.url + static("vendor/axe.min.js"))
    result = page.evaluate(
        """async () => {
            const r = await axe.run(document, {runOnly: {type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"]}});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                            nodes: v.nodes.map(n => n.target.join(" ")).slice(0, 5)}));
        }"""
    )
    return [v for v in result if v["impact"] in SERIOUS]


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

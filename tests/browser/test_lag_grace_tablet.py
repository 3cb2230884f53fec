"""D8 lag grace from the tablet (issue 23): a tap made in time, held by an injected network delay.

The window is 8 s: long enough that a loaded machine still draws the page and the button before
the tap is due (with 3 s, a slow page load once left the tap after the deadline, the button
hidden), short enough to stay quick. The referee taps the answer about half a
second before the deadline, the request is held 1.5 s on its way (Playwright's route), so it
arrives about a second late. With a grace of 2 s it is accepted and the log shows the lag;
with none it is refused (D8). The tablet's elapsed time is measured by sumrak.js itself.
"""

import re
import time

import pytest
from playwright.sync_api import expect

from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.models import Event
from rules import battle as B
from tests.services.battle_kit import begin, buid, party
from tests.services.kit import nonce

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]
WINDOW_S = 8
HELD_S = 1.5


@pytest.mark.parametrize(("grace_ms", "accepted"), [(2000, True), (0, False)])
def test_D8_lag_grace_a_late_arrival_of_a_tap_made_in_time(
    tablet, log_in_as, url, screenshot, referee, armed, event, attack_card, defence_card, grace_ms, accepted
):
    anton, zavulon = armed
    Event.objects.filter(pk=event.pk).update(answer_window_s=WINDOW_S, lag_grace_ms=grace_ms)
    event.refresh_from_db()
    page = tablet()
    log_in_as(page, referee)
    page.goto(url("duels:referee-home", event.pk))  # signed in before the window opens
    situation = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation
    deadline = services.state_of(situation).duels[0].step.answer_deadline
    page.goto(url("duels:situation", situation.pk))
    st = services.state_of(Situation.objects.get(pk=situation.pk))
    card = next(u for u in st.fighters[zavulon.pk].hand if st.cards[u].card_id == defence_card.pk)
    button = page.locator(f'#duel-0 button[name=card][value="{card}"]')
    expect(button).to_be_enabled()

    def held(route):
        time.sleep(HELD_S)  # a Wi-Fi retry
        route.continue_()

    page.route(re.compile(r"/fights/\d+/act/$"), held)
    # Tap about half a second before the server's deadline, on this machine's clock.
    wait = (deadline.timestamp() - 0.5) - time.time()
    assert wait > 0, f"the page took longer than the {WINDOW_S} s window to draw"
    page.wait_for_timeout(wait * 1000)
    button.click()
    duel = page.locator("#duel-0")
    if accepted:
        expect(duel).to_have_attribute("data-phase", "await_result", timeout=10_000)
        expect(page.locator(".fight-log")).to_contain_text("lag grace")
        entry = LogEntry.objects.get(situation=situation, command__type="answer")
        grace = next(e for e in entry.events if e["type"] == "lag_grace_used")
        assert 0 < grace["late_ms"] <= grace_ms and grace["tapped_ms"] <= WINDOW_S * 1000
    else:
        expect(page.locator("#fight-alert")).to_contain_text("D8", timeout=10_000)
        assert not LogEntry.objects.filter(situation=situation, command__type="answer").exists()
    screenshot(page, "accepted" if accepted else "refused")


def test_D8_lag_grace_a_battles_answer_carries_the_tablets_time_too(tablet, log_in_as, url, referee, event):
    """The battle tablet's answer form sends lag_ms for its own window (sumrak.js finds the nearest one)."""
    Event.objects.filter(pk=event.pk).update(answer_window_s=30, lag_grace_ms=2000)
    event.refresh_from_db()
    people = party(event)
    anna, vera = people[0], people[2]
    situation = begin(event, people, referee)
    blade = buid(situation, anna, "Blade")
    situation.refresh_from_db()
    command = B.Act(actor=anna.pk, act=B.ATTACK, cards=(blade,), targets=(vera.pk,))
    services.perform(situation.pk, command, user=referee, seen_version=situation.version, nonce=nonce())
    page = tablet()
    log_in_as(page, referee)
    page.goto(url("duels:battle", situation.pk))
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.post_data or "") if r.method == "POST" else None)
    page.locator(f".answer-window[data-defender='{vera.pk}'] button.answer-card").first.click()
    page.wait_for_load_state("networkidle")
    assert any("lag_ms=" in body and "action=answer" in body for body in sent), sent

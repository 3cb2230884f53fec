"""Two referees' tablets act on the same step: one wins, the other is told and sees the fresh state (DESIGN.md §4)."""

import pytest
from playwright.sync_api import expect

from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry
from tests.services.kit import nonce

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]


def test_two_referees_answer_the_same_step_and_only_one_applies(
    tablet, log_in_as, url, screenshot, referee, organizer, armed, event, attack_card, defence_card
):
    anton, zavulon = armed
    situation = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation
    st = services.state_of(situation)
    shield = next(u for u in st.fighters[zavulon.pk].hand if st.cards[u].card_id == defence_card.pk)

    first, second = tablet(), tablet()
    log_in_as(first, referee)
    log_in_as(second, organizer)
    for page in (first, second):
        page.goto(url("duels:situation", situation.pk))
        expect(page.locator("#duel-0")).to_have_attribute("data-phase", "await_answer")
    # The second tablet misses its polls (a weak network): its page still shows the open step.
    second.route("**/fights/*/", lambda route: route.abort() if route.request.method == "GET" else route.continue_())

    first.locator(f'#duel-0 button[name=card][value="{shield}"]').click()
    expect(first.locator("#duel-0")).to_have_attribute("data-phase", "await_result")

    second.locator('#duel-0 button[name=card][value=""]').click()  # "no answer", on the stale page
    expect(second.locator("#fight-alert")).to_be_visible()
    expect(second.locator("#fight-alert")).to_contain_text("Another referee acted first")
    # The fresh state: Mage Shield's answer waiting for the referee's decision.
    expect(second.locator("#duel-0")).to_have_attribute("data-phase", "await_result")
    expect(second.locator(".proposed")).to_have_attribute("data-outcome", "parried")
    screenshot(second, "conflict")

    answers = [e for e in LogEntry.objects.filter(situation=situation) if e.command_type == "answer"]
    assert len(answers) == 1 and answers[0].actor == referee

"""Instant attacks from the tablet.

A focused victim parries and strikes back (IA3, F1, IA5); without surprise the blow is aggression (IA1).
"""

import re

import pytest
from playwright.sync_api import expect

from duels import services
from duels.models import Situation
from events.models import Character

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]


def _open_start(page, url, event, attacker, victim):
    page.goto(url("duels:start", event.pk) + f"?a={attacker.pk}&b={victim.pk}")


def _strike(page, card, *, out_of_sight: bool, within_reach: bool) -> int:
    form = page.locator("#instant-form")
    form.locator(f"label[for=sight-{'yes' if out_of_sight else 'no'}]").click()
    form.locator(f"label[for=reach-{'yes' if within_reach else 'no'}]").click()
    form.locator(f"label[for=ia-card-{card.pk}]").click()
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/fights/\d+/$"))
    found = re.search(r"/fights/(\d+)/", page.url)
    assert found is not None
    return int(found.group(1))


def test_IA3_F1_IA5_a_focused_victim_parries_and_attacks_next(
    tablet, log_in_as, url, screenshot, referee, armed, event, attack_card, defence_card
):
    anton, zavulon = armed
    Character.objects.filter(pk=zavulon.pk).update(focus_card=defence_card)
    page = tablet()
    log_in_as(page, referee)
    _open_start(page, url, event, anton, zavulon)
    # The victim's focus is shown before the strike (F1).
    expect(page.locator(".victim-focus")).to_contain_text(defence_card.name_en)
    screenshot(page, "start")
    situation_id = _strike(page, attack_card, out_of_sight=True, within_reach=True)

    # IA3/F1: the focused card answers instead of a blind draw; CR2 proposes "parried".
    duel = page.locator("#duel-0")
    expect(duel).to_have_attribute("data-phase", "await_result")
    expect(duel.locator(".proposed")).to_have_attribute("data-outcome", "parried")
    expect(duel).to_contain_text(defence_card.name_en)
    page.locator("form.action-form:has(input[value=confirm]) button").click()

    # IA5: the duel goes on and the victim attacks next.
    expect(duel).to_have_attribute("data-phase", "await_attack")
    expect(duel.locator(".duel-action h2")).to_contain_text(zavulon.name)
    screenshot(page, "victim-attacks")
    st = services.state_of(Situation.objects.get(pk=situation_id))
    assert st.instant_attack_used and st.duels[0].opened_by == "instant_attack"
    assert st.duels[0].attacker == zavulon.pk


def test_IA1_a_failed_checklist_becomes_aggression(
    tablet, log_in_as, url, screenshot, referee, armed, event, attack_card
):
    anton, zavulon = armed
    page = tablet()
    log_in_as(page, referee)
    _open_start(page, url, event, anton, zavulon)
    situation_id = _strike(page, attack_card, out_of_sight=True, within_reach=False)

    # No surprise: an ordinary open attack; Zavulon must answer within the window (AG1, D8).
    duel = page.locator("#duel-0")
    expect(duel).to_have_attribute("data-phase", "await_answer")
    expect(page.locator(".countdown-answer")).to_be_visible()
    expect(page.locator(".fight-log")).to_contain_text("IA1")
    screenshot(page)
    st = services.state_of(Situation.objects.get(pk=situation_id))
    assert st.duels[0].opened_by == "aggression" and not st.instant_attack_used

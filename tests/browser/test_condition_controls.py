"""A referee records a paralysis for a battle combatant from the tablet (CR1, D11; issue 20).

The include (templates/duels/_condition_controls.html) posts through htmx into the live part:
the change is in the log, the combatant is out of the turn order, and the screenshot shows it.
"""

import pytest
from playwright.sync_api import expect

from duels import services
from duels.models import Situation
from tests.services.battle_kit import begin, party

pytestmark = pytest.mark.browser


def test_CR1_D11_a_paralysis_from_the_battle_tablet(tablet, log_in_as, url, screenshot, referee, event):
    people = party(event)
    vera = people[2]
    situation = begin(event, people, referee)
    ref = tablet()
    log_in_as(ref, referee)
    ref.goto(url("duels:battle", situation.pk))
    battle = ref.locator("#battle")
    version = battle.get_attribute("data-version")
    ref.locator("#condition-controls summary").click()
    form = ref.locator("#condition-form")
    form.locator("select[name=character]").select_option(str(vera.pk))
    form.locator("select[name=condition]").select_option("paralysed")
    form.locator("input[name=reason]").fill("a Sleep from the bushes")
    form.locator("button[type=submit]").click()
    expect(battle).not_to_have_attribute("data-version", version or "")
    state = services.state_of(Situation.objects.get(pk=situation.pk))
    assert state.combatants[vera.pk].condition == "paralysed" and vera.pk not in state.order
    ref.locator("#battle-log summary").click()
    expect(ref.locator("#battle-log")).to_contain_text("a Sleep from the bushes")
    screenshot(ref)

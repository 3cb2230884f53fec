"""A referee runs a whole duel on a tablet while the player follows it on a phone (D6-D12, D8, CR2)."""

import re

import pytest
from playwright.sync_api import expect

from cards.models import PreparedArsenal, PreparedArsenalCard
from duels import services
from duels.models import LogEntry, Situation
from events.models import Character, Event

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]
WINDOW_S = 3


def fight_state(situation_id: int):
    return services.state_of(Situation.objects.get(pk=situation_id))


def uid(situation_id: int, fighter_id: int, card_id: int) -> str:
    st = fight_state(situation_id)
    return next(u for u in st.fighters[fighter_id].hand if st.cards[u].card_id == card_id)


def phase(page, duel: int = 0):
    return expect(page.locator(f"#duel-{duel}"))


def click_card(page, situation_id: int, fighter_id: int, card_id: int) -> None:
    page.locator(f'#duel-0 button[name=card][value="{uid(situation_id, fighter_id, card_id)}"]').click()


def test_D8_CR2_D12_a_referee_runs_a_two_round_duel_while_the_player_watches(
    tablet,
    phone,
    log_in_as,
    url,
    screenshot,
    referee,
    player,
    armed,
    event,
    attack_card,
    defence_card,
    spark,
):
    anton, zavulon = armed
    Event.objects.filter(pk=event.pk).update(answer_window_s=WINDOW_S)
    fire_set = PreparedArsenal.objects.create(character=anton, name="Fire set")
    PreparedArsenalCard.objects.create(arsenal=fire_set, card=attack_card, copies=1)

    ref = tablet()
    log_in_as(ref, referee)
    ref.goto(url("duels:start", event.pk) + f"?a={anton.pk}&b={zavulon.pk}")
    ref.locator("#aggression-form button[type=submit]").click()
    ref.wait_for_url(re.compile(r"/fights/\d+/$"))
    found = re.search(r"/fights/(\d+)/", ref.url)
    assert found is not None
    situation_id = int(found.group(1))
    phase(ref).to_have_attribute("data-phase", "await_attack")

    me = phone()
    log_in_as(me, player)
    me.goto(url("duels:player-live", anton.pk))
    condition = me.locator(".my-condition")
    expect(condition).to_have_attribute("data-condition", "fit")
    before = condition.inner_text()

    # Round 1, step 1: Anton's Fireball, Zavulon's Mage Shield parries (CR2); the referee confirms.
    click_card(ref, situation_id, anton.pk, attack_card.pk)
    phase(ref).to_have_attribute("data-phase", "await_answer")
    expect(ref.locator(".countdown-answer")).to_be_visible()
    click_card(ref, situation_id, zavulon.pk, defence_card.pk)
    phase(ref).to_have_attribute("data-phase", "await_result")
    expect(ref.locator(".proposed")).to_have_attribute("data-outcome", "parried")
    ref.locator("form.action-form:has(input[value=confirm]) button").click()
    phase(ref).to_have_attribute("data-phase", "await_attack")

    # Step 2: Zavulon's Spark; nobody answers, the window closes (D8) with no click at all.
    click_card(ref, situation_id, zavulon.pk, spark.pk)
    phase(ref).to_have_attribute("data-phase", "await_answer")
    screenshot(ref, "answer-window")
    phase(ref).to_have_attribute("data-phase", "await_attack", timeout=(WINDOW_S + 6) * 1000)
    expect(ref.locator(".fight-log")).to_contain_text("did not answer in time")
    # The player's page, never reloaded, shows the new condition.
    expect(condition).not_to_have_text(before, timeout=6000)
    expect(condition).to_have_attribute("data-condition", "lightly_wounded")
    screenshot(me, "player-wounded")

    # Step 3: Anton's second Fireball, no answer, and the referee overrides "not parried" with a reason.
    click_card(ref, situation_id, anton.pk, attack_card.pk)
    ref.locator('#duel-0 button[name=card][value=""]').click()
    phase(ref).to_have_attribute("data-phase", "await_result")
    override = ref.locator("form.override-form")
    override.locator("label[for=outcome-0-softened]").click()
    override.locator("input[name=reason]").fill("he dodged half of it")
    override.locator("button.reason-submit").click()
    # D11: both hold only defence cards - the round ends, each chooses for the next (D12, D3).
    phase(ref).to_have_attribute("data-phase", "between_rounds")
    expect(ref.locator(".steps-table")).to_contain_text("he dodged half of it")
    screenshot(ref, "between-rounds")
    anton_choice = ref.locator(f"#choice-0-{anton.pk}")
    anton_choice.locator(f"label[for=ars-0-{anton.pk}-p{fire_set.pk}]").click()
    anton_choice.locator("button[type=submit]").click()
    expect(ref.locator(f"#choice-0-{anton.pk} legend .badge")).to_be_visible()
    ref.locator(f"#choice-0-{zavulon.pk} button[type=submit]").click()

    # Round 2: Anton attacks first again (D10 reading: Zavulon had no attack card)... and the duel ends.
    expect(ref.locator("#duel-0 .duel-round")).to_contain_text("2")
    phase(ref).to_have_attribute("data-phase", "await_attack")
    click_card(ref, situation_id, anton.pk, attack_card.pk)
    ref.locator('#duel-0 button[name=card][value=""]').click()
    phase(ref).to_have_attribute("data-phase", "await_result")
    ref.locator("form.action-form:has(input[value=confirm]) button").click()
    phase(ref).to_have_attribute("data-phase", "ended")
    expect(ref.locator(".duel-result")).to_be_visible()
    screenshot(ref, "ended")

    duel = fight_state(situation_id).duels[0]
    assert (duel.round, duel.result) == (2, "fighter_out")
    assert [r.timed_out for r in duel.steps_done] == [False, True, False, False]
    assert duel.steps_done[2].override_reason == "he dodged half of it"
    assert Character.objects.get(pk=zavulon.pk).condition == "heavily_wounded"
    assert LogEntry.objects.filter(situation_id=situation_id, kind="expire").exists()

"""Aggression and the duel: AG1, AG2, D1-D12, and the referee's confirmation (CR2)."""

import pytest

from rules import (
    DEAD,
    HEAVILY_WOUNDED,
    HELPLESS,
    LIGHTLY_WOUNDED,
    NOT_PARRIED,
    PARALYSED,
    PARRIED,
    SOFTENED,
    CardFace,
    CounterRule,
    can_fight,
)
from rules.duel import (
    AWAIT_ANSWER,
    AWAIT_ATTACK,
    AWAIT_RESULT,
    BETWEEN_ROUNDS,
    ENDED,
    Answer,
    Attack,
    ChangeCondition,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    EndSituation,
    InstantAttack,
    RoundChoice,
    Settings,
    attack_cards,
    next_deadline,
)
from rules.duel.events import (
    FighterOut,
    Passed,
    ResultApplied,
    ResultProposed,
    RoundStarted,
)
from rules.events import ConditionChanged
from tests.rules.duel.kit import (
    ANTON,
    DART,
    FIRE,
    HEAL,
    OLGA,
    SHIELD,
    SLEEP,
    WARD,
    ZAVULON,
    Fight,
    at,
    draw_index,
    first,
    replays,
    setup,
    strike,
    the,
    types,
)


def step(f, attacker, attack_id, answer_id, t, outcome=None, reason=""):
    """One full step: attack, answer (card id or None), referee confirms."""
    defender = f.duel.other(attacker)
    f.do(Attack(f.duel.number, attacker, f.uid(attacker, attack_id)), t)
    answer = None if answer_id is None else f.uid(defender, answer_id)
    f.do(Answer(f.duel.number, defender, answer), t + 1)
    return f.do(ConfirmResult(f.duel.number, outcome, reason), t + 2)


def test_AG1_an_open_attack_card_starts_the_duel_with_that_attack_shown():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD))
    fire = f.uid(ANTON, 1)
    events = f.do(DeclareAggression(ANTON, ZAVULON, fire), 5)
    assert types(events) == ["duel_opened", "round_started", "attack_shown"]
    assert f.duel.phase == AWAIT_ANSWER and f.duel.step.attack_card == fire
    assert fire not in f.fighter(ANTON).hand


def test_AG1_D5_a_spoken_declaration_gives_the_declarer_the_first_attack():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, FIRE))
    f.do(DeclareAggression(ZAVULON, ANTON), 5)
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON
    assert f.refused(Attack(0, ANTON, f.uid(ANTON, 1)), 6).rule_id == "D10"


def test_AG1_the_open_card_must_be_an_attack_card_in_hand():
    f = Fight(setup(ANTON, FIRE, SHIELD), setup(ZAVULON, FIRE))
    assert f.refused(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 10)), 1).rule_id == "AG1"
    assert f.refused(DeclareAggression(ANTON, ZAVULON, f.uid(ZAVULON, 1)), 1).rule_id == "AG1"


def test_AG2_no_arsenal_change_before_the_first_round_ends():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD, FIRE))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    for t in (2, 3):
        err = f.refused(RoundChoice(0, ANTON, True, (SLEEP,)), t)
        assert err.rule_id == "AG2"
        f.do(Attack(0, f.duel.attacker, attack_cards(f.state, f.duel.attacker)[0]), t)
        f.do(Answer(0, f.duel.step.defender, None), t)
        assert f.refused(RoundChoice(0, ANTON, True, None), t).rule_id == "AG2"
        f.do(ConfirmResult(0, PARRIED, "missed"), t)


def test_D1_a_duel_is_one_against_one_other():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, FIRE), setup(OLGA, FIRE))
    assert f.refused(DeclareAggression(ANTON, ANTON), 1).rule_id == "D1"
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    assert f.refused(DeclareAggression(OLGA, ANTON), 2).rule_id == "D1"
    assert f.refused(DeclareAggression(ZAVULON, OLGA), 2).rule_id == "D1"
    assert f.refused(DeclareAggression(OLGA, 99), 2).rule_id == "INPUT"


def test_D2_the_duels_own_terms_limit_the_rounds():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, max_rounds=1), 1)
    events = step(f, ANTON, 2, 10, 2)
    assert types(events)[-2:] == ["round_ended", "duel_ended"]
    assert f.duel.result == "max_rounds"
    assert f.refused(DeclareAggression(ANTON, ZAVULON, max_rounds=0), 9).rule_id == "D2"


def test_D2_the_referee_ends_a_duel_with_a_reason_and_shown_cards_go_back():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD))
    fire, shield = f.uid(ANTON, 1), f.uid(ZAVULON, 10)
    f.do(DeclareAggression(ANTON, ZAVULON, fire), 1)
    f.do(Answer(0, ZAVULON, shield), 2)
    assert f.refused(EndDuel(0, "  "), 3).rule_id == "D2"
    events = f.do(EndDuel(0, "they parted ways"), 3)
    assert types(events) == ["step_cancelled", "duel_ended"]
    assert f.duel.result == "ended_by_referee" and f.duel.end_reason == "they parted ways"
    assert fire in f.fighter(ANTON).hand and shield in f.fighter(ZAVULON).hand
    assert f.refused(EndDuel(0, "again"), 4).rule_id == "D12"


def reach_round_two(**kw):
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, DART, SHIELD), **kw)
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    step(f, ANTON, 2, 10, 2)  # parried
    step(f, ZAVULON, 2, 10, 5)  # parried: only defence left
    assert f.duel.phase == BETWEEN_ROUNDS
    return f


def test_D3_a_new_arsenal_between_rounds_sets_the_old_hand_aside():
    f = reach_round_two()
    old_hand = list(f.fighter(ANTON).hand)
    f.do(RoundChoice(0, ANTON, True, (FIRE, FIRE, HEAL), "fire set"), 10)
    assert f.fighter(ANTON).hand == old_hand  # applied when both have chosen
    events = f.do(RoundChoice(0, ZAVULON, True, None), 11)
    changed = next(e for e in events if e.type == "arsenal_changed")
    assert changed.label == "fire set" and changed.count == 3
    assert f.fighter(ANTON).set_aside == old_hand
    assert [f.state.cards[u].card_id for u in f.fighter(ANTON).hand] == [1, 1, 11]
    assert len(set(f.fighter(ANTON).hand)) == 3
    assert f.duel.round == 2


def test_D3_no_arsenal_change_in_the_middle_of_a_later_round():
    f = reach_round_two()
    f.do(RoundChoice(0, ANTON, True, (FIRE,)), 10)
    f.do(RoundChoice(0, ZAVULON, True, (DART,)), 11)
    assert f.refused(RoundChoice(0, ANTON, True, (FIRE,)), 12).rule_id == "D3"


def test_D4_events_never_name_an_unplayed_card():
    f = Fight(setup(ANTON, DART, FIRE, SHIELD), setup(ZAVULON, DART, SHIELD, HEAL))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    step(f, ANTON, 2, 10, 2)
    step(f, ZAVULON, 2, 10, 5)
    f.do(Attack(0, ANTON, f.uid(ANTON, 1)), 9)
    f.tick(30)
    shown = set()
    for event in f.events:
        data = event.to_dict()
        if data.get("card") is not None:
            shown.add(data["card"])
    played = {u for fighter in f.state.fighters.values() for u in fighter.discards}
    assert shown == played
    assert all("cards" not in e.to_dict() for e in f.events)


def test_D6_only_the_attacker_attacks_and_only_with_an_attack_card():
    f = Fight(setup(ANTON, FIRE, SHIELD), setup(ZAVULON, FIRE))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    assert f.refused(Attack(0, ANTON, f.uid(ANTON, 10)), 2).rule_id == "D6"
    assert f.refused(Attack(0, ZAVULON, f.uid(ZAVULON, 1)), 2).rule_id == "D10"
    f.do(Attack(0, ANTON, f.uid(ANTON, 1)), 2)
    assert f.refused(Attack(0, ANTON, f.uid(ANTON, 10)), 3).rule_id == "D6"


def test_D7_the_defender_answers_with_any_one_card_or_none():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, DART, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 1)
    assert f.refused(Answer(0, ANTON, None), 2).rule_id == "D7"
    assert f.refused(Answer(0, ZAVULON, f.uid(ANTON, 2)), 2).rule_id == "D7"
    events = f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 2)), 2)  # an attack card as an answer
    assert types(events) == ["answered", "result_proposed"] and the(ResultProposed, events[-1]).outcome == NOT_PARRIED
    assert f.duel.phase == AWAIT_RESULT
    assert f.refused(Answer(0, ZAVULON, None), 3).rule_id == "D7"


def test_D7_no_answer_is_decided_at_once():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 1)
    f.do(Answer(0, ZAVULON, None), 2)
    assert f.duel.phase == AWAIT_RESULT and f.duel.step.proposed == NOT_PARRIED


def test_D9_played_cards_are_discarded_when_the_result_is_decided():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD, HEAL))
    fire, shield = f.uid(ANTON, 1), f.uid(ZAVULON, 10)
    f.do(DeclareAggression(ANTON, ZAVULON, fire), 1)
    f.do(Answer(0, ZAVULON, shield), 2)
    assert fire not in f.fighter(ANTON).discards
    f.do(ConfirmResult(0), 3)
    assert f.fighter(ANTON).discards == [fire] and f.fighter(ZAVULON).discards == [shield]
    assert f.duel.step is None


def test_D10_roles_swap_at_every_step():
    f = Fight(setup(ANTON, DART, DART, SHIELD), setup(ZAVULON, DART, DART, SHIELD, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    attackers = []
    for t in (2, 5, 8):
        attackers.append(f.duel.attacker)
        step(f, f.duel.attacker, 2, 10, t)
    assert attackers == [ANTON, ZAVULON, ANTON]


def test_D10_a_fighter_with_no_attack_card_passes_and_the_other_attacks_again():
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    events = step(f, ANTON, 2, 10, 2)
    assert Passed(duel=0, round=1, fighter=ZAVULON) in events
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ANTON


def test_D10_next_round_opens_with_who_defended_first():
    f = reach_round_two()
    assert f.duel.first_attacker_this_round == ANTON
    f.do(RoundChoice(0, ANTON, True, (DART,)), 10)
    events = f.do(RoundChoice(0, ZAVULON, True, (DART,)), 11)
    assert RoundStarted(duel=0, round=2, attacker=ZAVULON) in events
    assert f.duel.attacker == ZAVULON


def test_D10_after_a_pass_the_first_defender_is_who_really_defended_first():
    f = reach_round_two()
    # Round 2: Zavulon should open but holds no attack card, so he passes.
    f.do(RoundChoice(0, ANTON, True, (DART,)), 10)
    events = f.do(RoundChoice(0, ZAVULON, True, (SHIELD,)), 11)
    assert "passed" in types(events) and f.duel.attacker == ANTON
    step(f, ANTON, 2, 10, 12)  # parried, round over
    f.do(RoundChoice(0, ANTON, True, (DART,)), 20)
    f.do(RoundChoice(0, ZAVULON, True, (DART,)), 21)
    assert f.duel.round == 3 and f.duel.attacker == ZAVULON  # he defended first in round 2


def test_D11_round_ends_when_both_hold_only_defence_cards():
    f = Fight(setup(ANTON, DART, HEAL), setup(ZAVULON, SHIELD, WARD))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    events = step(f, ANTON, 2, 10, 2)
    assert "round_ended" in types(events)
    assert f.duel.phase == BETWEEN_ROUNDS and f.duel.round == 1


def test_D11_a_fighter_who_can_no_longer_fight_ends_the_duel():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, FIRE, HEAL))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    events = step(f, ANTON, 1, None, 2)
    assert f.fighter(ZAVULON).condition == HEAVILY_WOUNDED
    assert FighterOut(duel=0, fighter=ZAVULON, condition=HEAVILY_WOUNDED) in events
    assert types(events)[-1] == "duel_ended" and f.duel.result == "fighter_out"
    assert events[-1].conditions == {"1": "fit", "2": HEAVILY_WOUNDED}
    # ...and such a fighter cannot be drawn into a new duel.
    assert f.refused(DeclareAggression(ANTON, ZAVULON), 9).rule_id == "D11"


def test_D11_a_lightly_wounded_fighter_fights_on():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, FIRE, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    step(f, ANTON, 1, 10, 2)  # softened: light wound
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON


def test_D12_both_ready_start_a_new_round_under_the_same_rules():
    f = reach_round_two()
    f.do(RoundChoice(0, ANTON, True), 10)
    f.do(RoundChoice(0, ZAVULON, True, (FIRE,)), 11)
    assert f.duel.round == 2 and f.duel.phase == AWAIT_ATTACK and f.duel.round_choices == {}
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, 1)), 12)
    assert f.duel.step.answer_deadline == at(27)


@pytest.mark.parametrize("who_stops", [ANTON, ZAVULON])
def test_D12_if_either_will_not_go_on_the_duel_ends(who_stops):
    f = reach_round_two()
    f.do(RoundChoice(0, who_stops, False), 10)
    events = f.do(RoundChoice(0, ZAVULON if who_stops == ANTON else ANTON, True, (FIRE,)), 11)
    assert f.duel.phase == ENDED and f.duel.result == "stopped"
    assert "arsenal_changed" not in types(events)


def test_D12_a_choice_can_be_changed_until_both_have_chosen():
    f = reach_round_two()
    f.do(RoundChoice(0, ANTON, False), 10)
    f.do(RoundChoice(0, ANTON, True, (FIRE,)), 11)
    f.do(RoundChoice(0, ZAVULON, True), 12)
    assert f.duel.round == 2


def test_D12_ready_to_go_on_but_no_attack_card_anywhere_ends_the_duel():
    f = reach_round_two()
    f.do(RoundChoice(0, ANTON, True), 10)
    events = f.do(RoundChoice(0, ZAVULON, True, (HEAL,)), 11)
    assert f.duel.result == "no_attacks_left" and types(events)[-1] == "duel_ended"


def test_CR2_the_referee_confirms_the_proposal():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, DART))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 1)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 2)
    assert f.duel.step.proposed == SOFTENED
    events = f.do(ConfirmResult(0, SOFTENED), 3)
    applied = first(ResultApplied, events)
    assert applied.overridden is False and f.duel.steps_done[0].override_reason == ""
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED


def test_CR2_an_override_needs_a_reason_and_is_recorded():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, DART))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 1)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 2)
    assert f.refused(ConfirmResult(0, NOT_PARRIED), 3).rule_id == "CR2"
    assert f.refused(ConfirmResult(0, NOT_PARRIED, "   "), 3).rule_id == "CR2"
    assert f.refused(ConfirmResult(0, "blocked", "x"), 3).rule_id == "INPUT"
    events = f.do(ConfirmResult(0, NOT_PARRIED, "shield raised too late"), 3)
    record = f.duel.steps_done[0]
    assert record.outcome == NOT_PARRIED and record.proposed == SOFTENED
    assert record.override_reason == "shield raised too late"
    assert first(ResultApplied, events).overridden is True
    assert f.fighter(ZAVULON).condition == HEAVILY_WOUNDED
    assert f.refused(ConfirmResult(0), 4).rule_id == "D12"


def test_CR2_nothing_to_confirm_while_waiting_for_the_answer():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 1)
    assert f.refused(ConfirmResult(0), 2).rule_id == "CR2"


def test_D11_no_duel_when_neither_holds_an_attack_card():
    f = Fight(setup(ANTON, SHIELD), setup(ZAVULON, HEAL))
    assert f.refused(DeclareAggression(ANTON, ZAVULON), 1).rule_id == "D11"


def test_D10_D5_a_declarer_without_attack_cards_passes_the_first_attack():
    f = Fight(setup(ANTON, SHIELD), setup(ZAVULON, FIRE))
    events = f.do(DeclareAggression(ANTON, ZAVULON), 1)
    assert "passed" in types(events) and f.duel.attacker == ZAVULON
    assert f.duel.first_attacker_this_round == ZAVULON


def test_D2_end_situation_closes_every_open_duel_and_the_situation_at_once():
    """EndSituation (a duel growing into a battle): a shown card goes back, the situation ends now (S2's end)."""
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, SHIELD, DART))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    dart = f.uid(ANTON, DART.card_id)
    f.do(Attack(0, ANTON, dart), 1)
    assert f.refused(EndSituation(" "), 2).rule_id == "D2"
    events = f.do(EndSituation("a third Other joins"), 2)
    assert f.state.ended and f.duel.phase == "ended"
    assert dart in f.fighter(ANTON).hand
    assert types(events)[-1] == "situation_ended"


def test_AG1_a_spoken_declaration_with_no_attack_card_for_the_declarer_lets_the_target_strike_first():
    """AG1/D5/D10: the declarer acts first, but holding no attack card passes to the target."""
    f = Fight(setup(ANTON, SHIELD), setup(ZAVULON, DART))
    events = f.do(DeclareAggression(ANTON, ZAVULON), 0)
    assert first(Passed, events).fighter == ANTON
    assert f.duel.attacker == ZAVULON
    # D10 reading: the declarer defended first, so opens round 2.
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, DART.card_id)), 1)
    f.do(Answer(0, ANTON, None), 2)
    f.do(ConfirmResult(0), 3)
    assert f.duel.phase == BETWEEN_ROUNDS
    f.do(RoundChoice(0, ANTON, True, (DART,)), 4)
    events = f.do(RoundChoice(0, ZAVULON, True, (SHIELD,)), 5)
    assert first(RoundStarted, events).attacker == ANTON
    replays(f)


def test_AG1_an_open_attack_with_a_defence_card_is_refused():
    """AG1: aggression opens with an attack card, not a defence card."""
    f = Fight(setup(ANTON, SHIELD, DART), setup(ZAVULON, WARD))
    assert f.refused(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, SHIELD.card_id)), 0).rule_id == "AG1"


def test_AG2_no_arsenal_change_during_round_1_at_any_phase():
    """AG2: a round choice is refused while round 1 waits for an attack, an answer or a result."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    assert f.refused(RoundChoice(0, ANTON, True, (FIRE,)), 1).rule_id == "AG2"
    f.do(Attack(0, ANTON, f.uid(ANTON, DART.card_id)), 2)
    assert f.refused(RoundChoice(0, ZAVULON, True, (WARD,)), 3).rule_id == "AG2"
    f.do(Answer(0, ZAVULON, None), 4)
    assert f.refused(RoundChoice(0, ZAVULON, True, (WARD,)), 5).rule_id == "AG2"


def test_D1_a_fighter_in_an_open_duel_cannot_be_struck_into_a_second_one():
    """D1: one Other on each side; nobody is in two duels at once (an instant attack included)."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD), setup(OLGA, FIRE))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    err = f.refused(InstantAttack(OLGA, ZAVULON, f.uid(OLGA, FIRE.card_id), True, True), 1, draw=0)
    assert err.rule_id == "D1"


def test_D2_the_duels_own_round_limit_ends_it_at_the_round_end():
    """D2: max_rounds=1 - the first round end ends the duel with its result."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id), max_rounds=1), 0)
    f.do(Answer(0, ZAVULON, None), 1)
    f.do(ConfirmResult(0), 2)
    assert f.duel.phase == ENDED and f.duel.result == "max_rounds"
    replays(f)


def test_D3_round_2_after_an_instant_attack_allows_a_new_arsenal_and_drops_the_focus():
    """D3: after IA5's first round, round 2 may take a new arsenal; the old hand is set aside."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD, WARD, focus=WARD.card_id))
    strike(f, 0, card=DART, focus_held=False, draw=draw_index(f, ZAVULON, SHIELD))
    f.do(ConfirmResult(0), 3)  # parried; nobody holds an attack card: the round ends
    assert f.duel.phase == BETWEEN_ROUNDS
    old = list(f.fighter(ZAVULON).hand)
    f.do(RoundChoice(0, ZAVULON, True, (FIRE,)), 4)
    f.do(RoundChoice(0, ANTON, True), 5)
    assert f.duel.round == 2 and f.fighter(ZAVULON).set_aside == old and f.fighter(ZAVULON).focus is None
    # S2 reading: the arsenal taken at the break is the one last composed ("restore" puts it back).
    assert f.fighter(ZAVULON).composed == [FIRE.card_id] and f.fighter(ANTON).composed is None
    # D10 reading / D5: the victim defended first in round 1, so opens round 2.
    assert f.duel.attacker == ZAVULON
    replays(f)


def test_D4_D6_an_attack_out_of_turn_or_with_a_card_not_held_is_refused():
    """D6/D10: only the attacker of the turn shows a card, and only one they hold."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, FIRE))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    assert f.refused(Attack(0, ZAVULON, f.uid(ZAVULON, FIRE.card_id)), 1).rule_id == "D10"
    assert f.refused(Attack(0, ANTON, f.uid(ZAVULON, FIRE.card_id)), 1).rule_id == "D6"


def test_D7_the_answer_may_be_an_attack_card_and_it_is_discarded():
    """D7/D9: any one card may answer; with no counter rule it does nothing and is discarded all the same."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, FIRE, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    fire = f.uid(ZAVULON, FIRE.card_id)
    f.do(Answer(0, ZAVULON, fire), 2)
    assert f.duel.step.proposed == NOT_PARRIED
    f.do(ConfirmResult(0), 3)
    assert fire in f.fighter(ZAVULON).discards
    replays(f)


def test_D8_an_answer_at_exactly_15_s_counts_and_a_tenth_later_is_refused():
    """D8: the window is "at most 15 s": at the deadline in time, after it late (full effect)."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    g = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    g.do(DeclareAggression(ANTON, ZAVULON, g.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, SHIELD.card_id)), 15)
    assert f.duel.step.proposed == PARRIED
    err = g.refused(Answer(0, ZAVULON, g.uid(ZAVULON, SHIELD.card_id)), 15.1, expire_first=False)
    assert err.rule_id == "D8"
    g.tick(15.1)
    assert g.fighter(ZAVULON).condition == LIGHTLY_WOUNDED and g.duel.steps_done[-1].timed_out
    assert g.refused(Answer(0, ZAVULON, g.uid(ZAVULON, SHIELD.card_id)), 15.2).rule_id == "D8"
    replays(g)


def test_D8_the_window_is_the_events_setting():
    """D8: an event with a 30 s window accepts an answer at 29 s."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD), settings=Settings(answer_window_s=30))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, None), 29)
    assert f.duel.phase == AWAIT_RESULT


def test_D9_both_played_cards_are_discarded_and_stay_out_of_play():
    """D9: after the result both cards are discarded; neither can be played again."""
    f = Fight(setup(ANTON, DART, FIRE), setup(ZAVULON, SHIELD, DART))
    dart = f.uid(ANTON, DART.card_id)
    shield = f.uid(ZAVULON, SHIELD.card_id)
    f.do(DeclareAggression(ANTON, ZAVULON, dart), 0)
    f.do(Answer(0, ZAVULON, shield), 1)
    f.do(ConfirmResult(0), 2)
    assert f.fighter(ANTON).discards == [dart] and f.fighter(ZAVULON).discards == [shield]
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, DART.card_id)), 3)
    assert f.refused(Answer(0, ANTON, shield), 4).rule_id == "D7"
    replays(f)


def test_D10_the_defender_attacks_next_after_an_unanswered_step():
    """D10: after A attacks B, B attacks A."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, DART, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, None), 1)
    f.do(ConfirmResult(0), 2)
    assert f.duel.attacker == ZAVULON
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, DART.card_id)), 3)
    f.do(Answer(0, ANTON, None), 4)
    f.do(ConfirmResult(0), 5)
    assert f.duel.attacker == ANTON
    replays(f)


def test_D11_CR1_paralysed_and_lightly_wounded_is_out_lightly_wounded_alone_is_not():
    """D11/CR1: the accumulated set decides: a light wound on a paralysed fighter keeps both, out."""
    sleeper = CardFace(4, "Numbing", "attack", PARALYSED, LIGHTLY_WOUNDED)
    f = Fight(setup(ANTON, DART, sleeper, DART), setup(ZAVULON, SHIELD, DART, DART))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, None), 1)
    f.do(ConfirmResult(0), 2)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED and f.duel.phase == AWAIT_ATTACK
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, DART.card_id)), 3)
    f.do(Answer(0, ANTON, None), 4)
    f.do(ConfirmResult(0), 5)
    f.do(Attack(0, ANTON, f.uid(ANTON, sleeper.card_id)), 6)
    f.do(Answer(0, ZAVULON, None), 7)
    f.do(ConfirmResult(0), 8)
    assert f.fighter(ZAVULON).condition == "lightly_wounded+paralysed"
    assert f.duel.phase == ENDED and f.duel.result == "fighter_out"
    replays(f)


def test_D11_a_round_ends_when_both_hold_only_defence_cards():
    """D11: the last attack card played - both hold only defence cards - the round ends (not the duel)."""
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, WARD, HEAL))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, WARD.card_id)), 1)
    f.do(ConfirmResult(0), 2)
    assert f.duel.phase == BETWEEN_ROUNDS
    replays(f)


def test_D11_a_fighter_put_out_between_rounds_ends_the_duel_and_cannot_go_on():
    """D11/D12: recorded as paralysed between rounds, the fighter is out and the duel ends."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, SHIELD.card_id)), 1)
    f.do(ConfirmResult(0), 2)
    f.do(RoundChoice(0, ANTON, True, (DART,)), 3)
    f.do(ChangeCondition(ZAVULON, add=PARALYSED, reason="a trap went off"), 4)
    assert f.duel.phase == ENDED and f.duel.result == "fighter_out"
    replays(f)


def test_D12_one_fighter_stopping_ends_the_duel_both_going_on_opens_round_2():
    """D12: a "no" ends the duel (stopped); a fighter may change their choice until the other chose."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, None), 1)
    f.do(ConfirmResult(0), 2)
    f.do(RoundChoice(0, ANTON, True, (DART,)), 3)
    f.do(RoundChoice(0, ANTON, False), 4)
    f.do(RoundChoice(0, ZAVULON, True), 5)
    assert f.duel.phase == ENDED and f.duel.result == "stopped"
    assert f.refused(Attack(0, ZAVULON, f.uid(ZAVULON, SHIELD.card_id)), 6).rule_id == "D12"
    replays(f)


def test_D12_both_go_on_keeping_hands_with_no_attack_card_ends_the_duel():
    """D12 reading: ready to go on, but nobody holds an attack card: "no attacks left"."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, None), 1)
    f.do(ConfirmResult(0), 2)
    f.do(RoundChoice(0, ANTON, True), 3)
    f.do(RoundChoice(0, ZAVULON, True), 4)
    assert f.duel.phase == ENDED and f.duel.result == "no_attacks_left"
    replays(f)


def test_CR2_an_exact_card_rule_beats_a_tag_rule_either_way():
    """CR2: a rule naming the attack card wins over a rule for its tag, weaker or stronger."""
    counters = [
        CounterRule(10, None, "fire", PARRIED),
        CounterRule(10, 1, None, NOT_PARRIED),
        CounterRule(11, None, "missile", NOT_PARRIED),
        CounterRule(11, 2, None, PARRIED),
    ]
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD, HEAL), counters=counters)
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, FIRE.card_id)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, SHIELD.card_id)), 1)
    assert f.duel.step.proposed == NOT_PARRIED
    g = Fight(setup(ANTON, DART), setup(ZAVULON, HEAL), counters=counters)
    g.do(DeclareAggression(ANTON, ZAVULON, g.uid(ANTON, DART.card_id)), 0)
    g.do(Answer(0, ZAVULON, g.uid(ZAVULON, HEAL.card_id)), 1)
    assert g.duel.step.proposed == PARRIED


def test_CR2_the_strongest_tag_rule_wins_and_an_override_needs_and_keeps_a_reason():
    """CR2: two tag rules (softens, parries) - parried proposed; overriding needs a reason, which is kept."""
    multi = CardFace(5, "Fire Dart", "attack", "heavily_wounded", LIGHTLY_WOUNDED, ("fire", "missile"))
    f = Fight(setup(ANTON, multi), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, multi.card_id)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, SHIELD.card_id)), 1)
    assert f.duel.step.proposed == PARRIED
    assert f.refused(ConfirmResult(0, SOFTENED), 2).rule_id == "CR2"
    assert f.refused(ConfirmResult(0, SOFTENED, "   "), 2).rule_id == "CR2"
    f.do(ConfirmResult(0, SOFTENED, "the shield was half-raised"), 2)
    record = f.duel.steps_done[-1]
    assert record.outcome == SOFTENED and record.proposed == PARRIED
    assert record.override_reason == "the shield was half-raised"
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED
    replays(f)


def test_CR2_an_instant_attack_override_to_parried_spends_the_drawn_card_and_goes_on():
    """CR2/IA4/IA5: the referee overrides "not parried" to parried with a reason: the card is spent, IA5 goes on."""
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, WARD, DART))
    strike(f, 0, draw=draw_index(f, ZAVULON, WARD))
    assert f.duel.step.proposed == NOT_PARRIED
    ward = f.duel.step.answer_card
    f.do(ConfirmResult(0, PARRIED, "ward also stops fire at this event"), 2)
    assert ward in f.fighter(ZAVULON).discards and f.fighter(ZAVULON).condition == "fit"
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON
    replays(f)


def test_CR1_D11_a_wounded_fighter_who_is_paralysed_is_both():
    f = Fight(setup(ANTON, SLEEP, DART), setup(ZAVULON, WARD, HEAL, condition=LIGHTLY_WOUNDED))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 3)), 1)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 11)), 2)  # Healing does nothing to Sleep
    events = f.do(ConfirmResult(0, SOFTENED, "half asleep"), 3)
    assert f.fighter(ZAVULON).condition == "lightly_wounded+paralysed"
    changed = first(ConditionChanged, events)
    assert (changed.old, changed.new) == (LIGHTLY_WOUNDED, "lightly_wounded+paralysed")
    assert not can_fight(f.fighter(ZAVULON).condition) and f.duel.result == "fighter_out"


def test_CR1_the_referee_clears_one_condition_with_a_reason():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD, condition="lightly_wounded+paralysed"))
    assert f.refused(ChangeCondition(ZAVULON, clear=PARALYSED), 1).rule_id == "CR1"  # no reason
    assert f.refused(ChangeCondition(ZAVULON, clear=HELPLESS, reason="x"), 1).rule_id == "CR1"  # not helpless
    events = f.do(ChangeCondition(ZAVULON, clear=PARALYSED, reason="the paralysis wore off"), 1)
    changed = the(ConditionChanged, events[0])
    assert changed.reason == "the paralysis wore off" and changed.new == LIGHTLY_WOUNDED
    assert can_fight(f.fighter(ZAVULON).condition)
    assert next_deadline(f.state) is None  # bookkeeping: no combat action, no clock


def test_D11_a_finishing_blow_outside_a_step_is_recorded_with_its_reason():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD, condition=HELPLESS))
    events = f.do(ChangeCondition(ZAVULON, add=DEAD, reason="finishing blow"), 5)
    assert f.fighter(ZAVULON).condition == DEAD
    assert the(ConditionChanged, events[0]).reason == "finishing blow"


def test_D11_a_blow_recorded_during_a_duel_puts_the_fighter_out_and_ends_it():
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, DART))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    # Mid-step the step decides first (D9).
    f.do(Attack(0, ANTON, f.uid(ANTON, 2)), 2)
    assert f.refused(ChangeCondition(ZAVULON, add=PARALYSED, reason="a spell from the side"), 3).rule_id == "D9"
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 3)
    f.do(ConfirmResult(0), 4)
    events = f.do(ChangeCondition(ZAVULON, add=PARALYSED, reason="a spell from the side"), 5)
    assert types(events) == ["condition_changed", "fighter_out", "duel_ended"]
    assert f.duel.result == "fighter_out"

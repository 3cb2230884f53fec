"""Aggression and the duel: AG1, AG2, D1-D12, and the referee's confirmation (CR2)."""

import pytest

from rules import HEAVILY_WOUNDED, LIGHTLY_WOUNDED, NOT_PARRIED, PARRIED, SOFTENED
from rules.duel import (
    AWAIT_ANSWER,
    AWAIT_ATTACK,
    AWAIT_RESULT,
    BETWEEN_ROUNDS,
    ENDED,
    Answer,
    Attack,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    EndSituation,
    RoundChoice,
    attack_cards,
)
from rules.duel.events import FighterOut, Passed, ResultApplied, ResultProposed, RoundStarted

from .kit import ANTON, DART, FIRE, HEAL, OLGA, SHIELD, SLEEP, WARD, ZAVULON, Fight, at, first, setup, the, types


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

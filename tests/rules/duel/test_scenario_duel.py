"""Whole duels started by aggression, walked step by step as a referee meets them (AG, D, CR, S2).

Every test checks the log replays to the same state at the end (DESIGN.md §4).
"""

import pytest

from rules import (
    ATTACK,
    DEAD,
    DEFENCE,
    FIT,
    HEAVILY_WOUNDED,
    HELPLESS,
    LIGHTLY_WOUNDED,
    NOT_PARRIED,
    PARALYSED,
    PARRIED,
    SOFTENED,
    SUBDUED,
    CardFace,
    CounterRule,
)
from rules.duel import (
    AWAIT_ATTACK,
    AWAIT_RESULT,
    BETWEEN_ROUNDS,
    ENDED,
    Answer,
    Attack,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    RoundChoice,
    Settings,
    attack_cards,
    next_deadline,
    replay,
    to_dict,
)
from rules.duel.events import Passed, ResultApplied, ResultProposed, RoundStarted, SituationEnded
from tests.rules.duel.kit import (
    ANTON,
    COUNTERS,
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
    first,
    setup,
    the,
    types,
)


def replays(f):
    assert to_dict(replay(f.opening, f.log)) == to_dict(f.state)


def step(f, attacker, attack_id, answer_id, t, outcome=None, reason=""):
    """Attack at t, answer (card id or None) at t+1, the referee decides at t+2."""
    duel = f.duel.number
    defender = f.duel.other(attacker)
    f.do(Attack(duel, attacker, f.uid(attacker, attack_id)), t)
    f.do(Answer(duel, defender, None if answer_id is None else f.uid(defender, answer_id)), t + 1)
    return f.do(ConfirmResult(duel, outcome, reason), t + 2)


def hand_ids(f, fighter):
    return sorted(f.state.cards[u].card_id for u in f.fighter(fighter).hand)


# --- D5, D6, D7 ------------------------------------------------------------------------------------


def test_AG1_D5_D10_the_declarer_acts_first_then_roles_swap_at_every_step():
    """D5: the first action belongs to whoever declared, even the one who joined second."""
    f = Fight(setup(ANTON, DART, DART, SHIELD, SHIELD), setup(ZAVULON, DART, DART, SHIELD, SHIELD, SHIELD))
    events = f.do(DeclareAggression(ZAVULON, ANTON), 1)
    assert RoundStarted(duel=0, round=1, attacker=ZAVULON) in events
    assert f.refused(Attack(0, ANTON, f.uid(ANTON, 2)), 2).rule_id == "D10"
    attackers = []
    for t in (2, 6, 10, 14):
        attackers.append(f.duel.attacker)
        step(f, f.duel.attacker, 2, 10, t)
    assert attackers == [ZAVULON, ANTON, ZAVULON, ANTON]
    assert f.duel.phase == BETWEEN_ROUNDS  # four darts parried, only Zavulon's last shield is left
    assert f.fighter(ANTON).hand == [] and hand_ids(f, ZAVULON) == [10]
    replays(f)


def test_D6_the_attacker_shows_only_an_attack_card_of_their_own_hand():
    f = Fight(setup(ANTON, FIRE, SHIELD, DART), setup(ZAVULON, FIRE, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    shield, theirs = f.uid(ANTON, 10), f.uid(ZAVULON, 1)
    assert f.refused(Attack(0, ANTON, shield), 2).rule_id == "D6"  # a defence card
    assert f.refused(Attack(0, ANTON, theirs), 2).rule_id == "D6"  # not in his hand
    assert f.refused(Attack(0, ANTON, "1:1:99"), 2).rule_id == "D6"  # no such card
    assert f.refused(Attack(0, ZAVULON, theirs), 2).rule_id == "D10"  # not his turn
    dart = f.uid(ANTON, 2)
    step(f, ANTON, 2, None, 3, NOT_PARRIED)
    # A played card is gone: it cannot attack again.
    f.do(Attack(0, ZAVULON, theirs), 10)
    f.do(Answer(0, ANTON, shield), 11)
    f.do(ConfirmResult(0), 12)
    assert f.fighter(ANTON).condition == LIGHTLY_WOUNDED and f.duel.attacker == ANTON
    assert f.refused(Attack(0, ANTON, dart), 13).rule_id == "D6"
    replays(f)


def test_D6_no_second_attack_while_a_step_is_open():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 1)
    assert f.refused(Attack(0, ANTON, f.uid(ANTON, 2)), 2).rule_id == "D6"
    f.do(Answer(0, ZAVULON, None), 3)
    assert f.refused(Attack(0, ANTON, f.uid(ANTON, 2)), 4).rule_id == "D6"


def test_D7_CR2_an_attack_card_as_the_answer_is_allowed_spent_and_proposed_from_the_table():
    """D7: any one card answers. With no counter rule for it the proposal is "not parried";
    a catalogue rule naming that card is followed like any other."""
    ice = CardFace(6, "Ice Lance", ATTACK, HEAVILY_WOUNDED, LIGHTLY_WOUNDED, ("ice",))
    counters = [*COUNTERS, CounterRule(1, None, "ice", PARRIED)]  # fire melts ice
    f = Fight(setup(ANTON, ice, DART), setup(ZAVULON, FIRE, DART, SHIELD), counters=counters)
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 6)), 1)
    fire = f.uid(ZAVULON, 1)
    events = f.do(Answer(0, ZAVULON, fire), 2)
    assert events[-1] == ResultProposed(duel=0, outcome=PARRIED)
    f.do(ConfirmResult(0), 3)
    assert fire in f.fighter(ZAVULON).discards and f.fighter(ZAVULON).condition == FIT  # D9: spent
    # Zavulon's Dart answers Anton's Dart: no rule at all -> not parried.
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, 2)), 4)
    f.do(Answer(0, ANTON, None), 5)
    f.do(ConfirmResult(0), 6)
    f.do(Attack(0, ANTON, f.uid(ANTON, 2)), 7)
    assert attack_cards(f.state, ZAVULON) == []
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 8)
    assert f.duel.step.proposed == PARRIED
    replays(f)


def test_D7_CR2_an_attack_card_with_no_rule_is_proposed_not_parried():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, DART, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 1)
    events = f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 2)), 2)
    assert the(ResultProposed, events[-1]).outcome == NOT_PARRIED


def test_D7_only_the_defender_answers_once_with_a_card_of_their_hand():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD, HEAL), setup(OLGA, SHIELD))
    fire = f.uid(ANTON, 1)
    f.do(DeclareAggression(ANTON, ZAVULON, fire), 1)
    assert f.refused(Answer(0, ANTON, f.uid(ANTON, 2)), 2).rule_id == "D7"
    assert f.refused(Answer(0, OLGA, f.uid(OLGA, 10)), 2).rule_id == "D7"
    assert f.refused(Answer(0, ZAVULON, f.uid(OLGA, 10)), 2).rule_id == "D7"
    assert f.refused(Answer(0, ZAVULON, fire), 2).rule_id == "D7"
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 3)
    assert f.refused(Answer(0, ZAVULON, f.uid(ZAVULON, 11)), 4).rule_id == "D7"


# --- D8 --------------------------------------------------------------------------------------------


def test_D8_an_answer_at_the_deadline_counts_one_after_it_is_refused():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD, HEAL))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    late = f.refused(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 15.1, expire_first=False)
    assert late.rule_id == "D8" and late.params == {"seconds": 0.1}
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 15)
    assert f.duel.phase == AWAIT_RESULT


def test_D8_D11_no_answer_in_time_the_attack_takes_full_effect_and_a_late_answer_is_refused():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD, DART))
    fire, shield = f.uid(ANTON, 1), f.uid(ZAVULON, 10)
    f.do(DeclareAggression(ANTON, ZAVULON, fire), 0)
    events = f.tick(15.2)
    assert types(events)[:2] == ["answer_timed_out", "result_applied"]
    applied = the(ResultApplied, events[1])
    assert applied.timed_out and applied.outcome == NOT_PARRIED and not applied.overridden
    assert f.fighter(ZAVULON).condition == HEAVILY_WOUNDED  # full effect, no referee needed
    assert f.duel.result == "fighter_out"
    assert fire in f.fighter(ANTON).discards and shield in f.fighter(ZAVULON).hand
    err = f.refused(Answer(0, ZAVULON, shield), 16)
    assert err.rule_id == "D8"
    replays(f)


def test_D8_D10_a_timed_out_defender_still_standing_attacks_next_and_a_late_answer_says_why():
    f = Fight(setup(ANTON, DART, FIRE), setup(ZAVULON, SHIELD, DART))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 0)
    f.tick(20)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON
    err = f.refused(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 21)
    assert err.rule_id == "D8"
    record = f.duel.steps_done[0]
    assert record.timed_out and record.answer_card is None and record.outcome == NOT_PARRIED
    # The gap clock counts the timed-out step at its deadline (S2).
    assert f.state.last_action_at == at(15) and next_deadline(f.state) == at(195)
    replays(f)


def test_D8_the_window_is_the_event_setting():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD), settings=Settings(answer_window_s=7))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    assert f.duel.step.answer_deadline == at(7) and next_deadline(f.state) == at(7)
    assert types(f.tick(7.01))[0] == "answer_timed_out"


# --- D9, D10, D11 ----------------------------------------------------------------------------------


def test_D9_played_cards_are_discarded_both_in_a_decided_and_a_timed_out_step():
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, DART, HEAL))
    d1, d2, shield = f.uid(ANTON, 2, 0), f.uid(ANTON, 2, 1), f.uid(ZAVULON, 10)
    f.do(DeclareAggression(ANTON, ZAVULON, d1), 0)
    f.do(Answer(0, ZAVULON, shield), 1)
    assert f.fighter(ANTON).discards == [] and f.fighter(ZAVULON).discards == []  # not yet decided
    f.do(ConfirmResult(0), 2)
    assert f.fighter(ANTON).discards == [d1] and f.fighter(ZAVULON).discards == [shield]
    zd = f.uid(ZAVULON, 2)
    f.do(Attack(0, ZAVULON, zd), 3)
    f.tick(30)
    assert f.fighter(ZAVULON).discards == [shield, zd] and f.fighter(ANTON).discards == [d1]
    f.do(Attack(0, ANTON, d2), 31)
    assert hand_ids(f, ANTON) == [] and hand_ids(f, ZAVULON) == [11]
    replays(f)


def test_D10_passing_goes_both_ways_across_rounds():
    """D10 reading: whoever holds no attack card passes; round 2 opens with the first defender of round 1."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    events = step(f, ANTON, 2, 10, 1)
    assert "passed" in types(events) and f.duel.attacker == ANTON
    events = step(f, ANTON, 2, 10, 5)
    assert types(events)[-1] == "round_ended" and f.duel.phase == BETWEEN_ROUNDS
    # Round 2: the roles of the arsenals turn round.
    f.do(RoundChoice(0, ANTON, True, (SHIELD, HEAL)), 10)
    events = f.do(RoundChoice(0, ZAVULON, True, (DART, FIRE)), 11)
    assert RoundStarted(duel=0, round=2, attacker=ZAVULON) in events
    assert "passed" not in types(events)
    events = step(f, ZAVULON, 2, 10, 12)  # Anton holds no attack card: he passes
    assert Passed(duel=0, round=2, fighter=ANTON) in events
    assert f.duel.attacker == ZAVULON
    step(f, ZAVULON, 1, 11, 16)  # Healing softens the Fireball
    assert f.fighter(ANTON).condition == LIGHTLY_WOUNDED and f.duel.phase == BETWEEN_ROUNDS
    replays(f)


def test_D10_D5_a_round_opens_with_a_pass_when_its_first_attacker_holds_no_attack_card():
    f = Fight(setup(ANTON, SHIELD, HEAL), setup(ZAVULON, DART))
    events = f.do(DeclareAggression(ANTON, ZAVULON), 0)
    assert types(events) == ["duel_opened", "passed", "round_started"]
    assert f.duel.attacker == ZAVULON
    step(f, ZAVULON, 2, 10, 1)
    assert f.duel.phase == BETWEEN_ROUNDS
    # Round 2: Zavulon attacked first in round 1, so Anton opens round 2 - if he can.
    f.do(RoundChoice(0, ANTON, True, (DART,)), 10)
    events = f.do(RoundChoice(0, ZAVULON, True, (DART,)), 11)
    assert f.duel.attacker == ANTON and "passed" not in types(events)


@pytest.mark.parametrize("condition", [HEAVILY_WOUNDED, PARALYSED, SUBDUED, HELPLESS, DEAD])
def test_D11_a_fighter_who_can_no_longer_fight_ends_round_and_duel(condition):
    blow = CardFace(7, "Blow", ATTACK, condition, LIGHTLY_WOUNDED, ("blow",))
    f = Fight(setup(ANTON, blow, DART), setup(ZAVULON, DART, HEAL))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    events = step(f, ANTON, 7, 11, 1)  # Healing has no rule against a Blow
    assert types(events)[-4:] == ["condition_changed", "round_ended", "fighter_out", "duel_ended"]
    assert events[-1].result == "fighter_out" and events[-1].conditions == {"1": FIT, "2": condition}
    assert f.duel.phase == ENDED
    # The duel has ended: nothing more in it.
    assert f.refused(Attack(0, ZAVULON, f.uid(ZAVULON, 2)), 5).rule_id == "D12"
    assert f.refused(RoundChoice(0, ANTON, True), 5).rule_id == "D12"
    replays(f)


def test_D11_a_lightly_wounded_fighter_fights_on_and_a_second_light_wound_does_not_stack():
    f = Fight(setup(ANTON, DART, DART, DART), setup(ZAVULON, SHIELD, FIRE))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    step(f, ANTON, 2, None, 1)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED and f.duel.attacker == ZAVULON
    step(f, ZAVULON, 1, None, 5, SOFTENED, "he ducked")
    assert f.fighter(ANTON).condition == LIGHTLY_WOUNDED
    step(f, ANTON, 2, None, 9)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED and f.duel.phase == AWAIT_ATTACK
    replays(f)


def test_D11_D12_empty_hands_end_the_round_and_then_the_duel():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 1)
    events = f.do(ConfirmResult(0), 2)
    assert f.fighter(ANTON).hand == [] and f.fighter(ZAVULON).hand == []
    assert types(events)[-1] == "round_ended" and f.duel.phase == BETWEEN_ROUNDS
    f.do(RoundChoice(0, ZAVULON, True), 3)
    events = f.do(RoundChoice(0, ANTON, True), 4)
    assert f.duel.result == "no_attacks_left" and types(events)[-1] == "duel_ended"
    replays(f)


def test_D11_one_side_with_only_defence_does_not_end_the_round():
    f = Fight(setup(ANTON, DART, FIRE), setup(ZAVULON, SHIELD, HEAL, WARD))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    step(f, ANTON, 2, 10, 1)
    assert f.duel.phase == AWAIT_ATTACK and f.duel.round == 1 and f.duel.attacker == ANTON
    step(f, ANTON, 1, 11, 5)
    assert f.duel.phase == BETWEEN_ROUNDS and hand_ids(f, ZAVULON) == [12]


# --- D12, D3, AG2, D2 ------------------------------------------------------------------------------


def test_AG2_no_arsenal_change_at_any_phase_of_round_one():
    f = Fight(setup(ANTON, DART, DART, SHIELD), setup(ZAVULON, DART, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 0)
    for who in (ANTON, ZAVULON):
        assert f.refused(RoundChoice(0, who, True, (FIRE,)), 1).rule_id == "AG2"  # waiting for the answer
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 2)
    assert f.refused(RoundChoice(0, ANTON, False), 3).rule_id == "AG2"  # waiting for the result
    f.do(ConfirmResult(0), 4)
    assert f.refused(RoundChoice(0, ZAVULON, True, (FIRE,)), 5).rule_id == "AG2"  # waiting for the attack
    f.do(EndDuel(0, "parted"), 6)
    assert f.refused(RoundChoice(0, ZAVULON, True, (FIRE,)), 7).rule_id == "D12"


def reach_between_rounds(f, t=0):
    f.do(DeclareAggression(ANTON, ZAVULON), t)
    step(f, ANTON, 2, 10, t + 1)
    step(f, ZAVULON, 2, 10, t + 5)
    assert f.duel.phase == BETWEEN_ROUNDS


def test_D3_D12_each_fighter_keeps_takes_a_prepared_or_builds_a_new_arsenal():
    f = Fight(setup(ANTON, DART, SHIELD, HEAL), setup(ZAVULON, DART, SHIELD, WARD))
    reach_between_rounds(f)
    anton_left = list(f.fighter(ANTON).hand)
    f.do(RoundChoice(0, ANTON, True, (FIRE, SHIELD, SHIELD), "prepared: fire"), 10)
    f.do(RoundChoice(0, ZAVULON, True), 11)  # keeps what he holds: only Ward
    assert f.fighter(ANTON).set_aside == anton_left
    assert hand_ids(f, ANTON) == [1, 10, 10] and hand_ids(f, ZAVULON) == [12]
    # D10 reading: Zavulon defended first in round 1, so he opens round 2 - but he has no attack: pass.
    assert f.duel.round == 2 and f.duel.attacker == ANTON
    step(f, ANTON, 1, 12, 12)  # Ward does nothing against fire
    assert f.fighter(ZAVULON).condition == HEAVILY_WOUNDED and f.duel.result == "fighter_out"
    replays(f)


def test_D12_either_fighter_stopping_ends_the_duel_and_no_arsenal_changes():
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, DART, SHIELD))
    reach_between_rounds(f)
    before = list(f.fighter(ANTON).hand)
    f.do(RoundChoice(0, ANTON, True, (FIRE,)), 10)
    events = f.do(RoundChoice(0, ZAVULON, False), 11)
    assert f.duel.result == "stopped" and "arsenal_changed" not in types(events)
    assert f.fighter(ANTON).hand == before
    replays(f)


def test_D12_a_fighter_changes_their_choice_until_both_have_chosen():
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, DART, SHIELD))
    reach_between_rounds(f)
    f.do(RoundChoice(0, ZAVULON, False), 10)
    f.do(RoundChoice(0, ZAVULON, True, (SLEEP,), "sleep"), 11)
    assert f.duel.phase == BETWEEN_ROUNDS
    f.do(RoundChoice(0, ANTON, True, (WARD,)), 12)
    assert f.duel.round == 2 and hand_ids(f, ZAVULON) == [3]
    assert f.refused(RoundChoice(0, ANTON, True), 13).rule_id == "D3"


@pytest.mark.parametrize("limit", [1, 2])
def test_D2_the_duels_own_round_limit_ends_it_after_that_round(limit):
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, DART, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, max_rounds=limit), 0)
    step(f, ANTON, 2, 10, 1)
    events = step(f, ZAVULON, 2, 10, 5)
    if limit == 1:
        assert types(events)[-2:] == ["round_ended", "duel_ended"] and f.duel.result == "max_rounds"
        return
    assert f.duel.phase == BETWEEN_ROUNDS
    f.do(RoundChoice(0, ANTON, True, (DART, SHIELD)), 10)
    f.do(RoundChoice(0, ZAVULON, True, (DART, SHIELD)), 11)
    step(f, ZAVULON, 2, 10, 12)
    events = step(f, ANTON, 2, 10, 16)
    assert f.duel.round == 2 and f.duel.result == "max_rounds"
    assert events[-1].conditions == {"1": FIT, "2": FIT}
    replays(f)


def test_D2_the_referee_ends_a_duel_between_rounds_with_a_reason():
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, DART, SHIELD))
    reach_between_rounds(f)
    f.do(RoundChoice(0, ANTON, True, (FIRE,)), 10)
    events = f.do(EndDuel(0, "the bell rang"), 11)
    assert types(events) == ["duel_ended"] and f.duel.result == "ended_by_referee"
    assert f.duel.round_choices == {} and hand_ids(f, ANTON) == []


# --- S2 around a duel --------------------------------------------------------------------------------


def test_S2_a_round_break_holds_the_situation_open_and_the_next_round_restarts_the_gap():
    """S2 reading: a fight waiting between rounds is not ended by the gap; the next round is the same fight."""
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, DART, SHIELD))
    reach_between_rounds(f)  # last combat action at 6
    assert next_deadline(f.state) is None
    assert f.tick(1000) == [] and not f.state.ended
    f.do(RoundChoice(0, ANTON, True, (FIRE,)), 1000)
    assert next_deadline(f.state) is None  # still waiting for Zavulon
    f.do(RoundChoice(0, ZAVULON, True, (DART,)), 1100)
    # The break is over: round 2 runs and the gap counts from its start.
    assert f.duel.round == 2 and next_deadline(f.state) == at(1280)
    events = f.tick(1281)
    assert types(events) == ["duel_ended", "situation_ended"]
    assert f.duel.result == "situation_ended" and f.state.ended_at == at(1280)
    assert the(SituationEnded, events[-1]).conditions == {"1": FIT, "2": FIT}
    replays(f)


def test_S2_D8_an_open_step_holds_the_situation_and_its_timeout_restarts_the_gap():
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, DART, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    f.do(Attack(0, ANTON, f.uid(ANTON, 2)), 170)  # 2:50 of thinking, then the attack
    events = f.tick(500)
    # The answer timed out at 185; the gap runs from there and ends at 365.
    assert types(events)[0] == "answer_timed_out" and types(events)[-1] == "situation_ended"
    assert f.state.ended_at == at(365)
    replays(f)


def test_S2_a_duel_ending_does_not_end_the_situation_another_duel_keeps_it_going():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, WARD), setup(OLGA, DART, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    f.do(Answer(0, ZAVULON, None), 1)
    f.do(ConfirmResult(0), 2)  # Zavulon out
    assert f.duel.phase == ENDED and not f.state.ended
    f.do(DeclareAggression(OLGA, ANTON, f.uid(OLGA, 2)), 150)
    f.do(Answer(1, ANTON, None), 160)
    f.do(ConfirmResult(1), 170)
    assert types(f.tick(340)) == []
    assert types(f.tick(351))[-1] == "situation_ended"
    assert f.state.fighters[ZAVULON].condition == HEAVILY_WOUNDED
    replays(f)


# --- CR ---------------------------------------------------------------------------------------------


def test_CR2_a_card_rule_beats_a_tag_rule_even_when_it_is_weaker():
    counters = [CounterRule(10, None, "fire", PARRIED), CounterRule(10, 1, None, NOT_PARRIED)]
    flame = CardFace(8, "Flame Whip", ATTACK, LIGHTLY_WOUNDED, "", ("fire",))
    f = Fight(setup(ANTON, FIRE, flame), setup(ZAVULON, SHIELD, SHIELD), counters=counters)
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 1)
    assert f.duel.step.proposed == NOT_PARRIED  # the card rule for Fireball
    f.do(ConfirmResult(0), 2)
    assert f.fighter(ZAVULON).condition == HEAVILY_WOUNDED and f.duel.result == "fighter_out"
    g = Fight(setup(ANTON, flame), setup(ZAVULON, SHIELD), counters=counters)
    g.do(DeclareAggression(ANTON, ZAVULON, g.uid(ANTON, 8)), 0)
    g.do(Answer(0, ZAVULON, g.uid(ZAVULON, 10)), 1)
    assert g.duel.step.proposed == PARRIED  # only the tag rule applies to the whip


def test_CR2_among_several_tag_rules_the_strongest_wins():
    storm = CardFace(9, "Fire Storm", ATTACK, DEAD, HEAVILY_WOUNDED, ("fire", "mind", "missile"))
    counters = [
        CounterRule(12, None, "fire", NOT_PARRIED),
        CounterRule(12, None, "missile", SOFTENED),
        CounterRule(11, None, "fire", SOFTENED),
        CounterRule(11, None, "mind", PARRIED),
    ]
    f = Fight(setup(ANTON, storm, storm), setup(ZAVULON, WARD, HEAL), counters=counters)
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 9)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 12)), 1)
    assert f.duel.step.proposed == SOFTENED
    f.do(ConfirmResult(0), 2)
    assert f.fighter(ZAVULON).condition == HEAVILY_WOUNDED  # CR1: the softened effect
    assert f.duel.result == "fighter_out"


@pytest.mark.parametrize(
    ("outcome", "reason", "condition"),
    [
        (None, "", LIGHTLY_WOUNDED),  # confirm the proposal (softened)
        (SOFTENED, "", LIGHTLY_WOUNDED),  # confirm it by name, no reason needed
        (PARRIED, "the shield held fully", FIT),
        (NOT_PARRIED, "raised too late", HEAVILY_WOUNDED),
    ],
)
def test_CR1_CR2_confirm_or_override_with_a_reason_decides_the_effect(outcome, reason, condition):
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD, DART))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 1)
    assert f.duel.step.proposed == SOFTENED
    if outcome not in (None, SOFTENED):
        err = f.refused(ConfirmResult(0, outcome, "  "), 2)
        assert err.rule_id == "CR2"
    events = f.do(ConfirmResult(0, outcome, reason), 2)
    applied = first(ResultApplied, events)
    assert applied.overridden is bool(reason) and applied.reason == reason
    record = f.duel.steps_done[-1]
    assert record.proposed == SOFTENED and record.outcome == (outcome or SOFTENED)
    assert record.override_reason == reason
    assert f.fighter(ZAVULON).condition == condition
    replays(f)


def test_CR2_the_counter_rules_are_the_situations_snapshot():
    """A catalogue change made after the situation opened does not reach it (the engine keeps its copy)."""
    counters = list(COUNTERS)
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD), counters=counters)
    counters.append(CounterRule(10, 1, None, PARRIED))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 1)
    assert f.duel.step.proposed == SOFTENED


def test_D1_two_duels_run_side_by_side_in_one_situation_without_mixing():
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, FIRE, WARD), setup(OLGA, SLEEP, HEAL), setup(4, DART, WARD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 0)
    f.do(DeclareAggression(OLGA, 4, f.uid(OLGA, 3)), 1)
    assert f.refused(Answer(0, 4, f.uid(4, 12)), 2).rule_id == "D7"
    f.do(Answer(1, 4, f.uid(4, 12)), 2)
    f.do(Answer(0, ZAVULON, None), 3)
    f.do(ConfirmResult(1), 4)  # Mind Ward parries Sleep
    f.do(ConfirmResult(0), 5)
    assert f.state.duels[0].attacker == ZAVULON and f.state.duels[1].attacker == 4
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED and f.fighter(4).condition == FIT
    replays(f)


def test_DEFENCE_constant_is_a_kind():
    assert SHIELD.kind == DEFENCE and HEAL.is_defence


def test_D8_a_few_milliseconds_late_is_late_and_never_reported_as_zero_seconds():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    err = f.refused(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 15.004, expire_first=False)
    assert err.rule_id == "D8" and err.params == {"seconds": 0.1}
    assert err.text() == "The answer window closed 0.1 s ago."

"""Edges of the battle engine that a sampled mutation run found untested (issue 25, docs/testing.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from rules import HEAVILY_WOUNDED
from rules import battle as B
from rules.battle import events as E
from rules.battle.reactions import MOVEMENT, RESPONSE, BattleRound, Trigger, immediate_action
from rules.errors import INPUT, RuleError
from tests.rules.battle.kit import (
    ANNA,
    BLADE,
    BOLT,
    BORIS,
    FIRE,
    GLEB,
    NOVA,
    SHIELD,
    SNAP,
    VERA,
    ZAP,
    Fight,
    at,
    part_of,
)


def _everyone_spends_their_one_attack() -> Fight:
    fight = Fight(hand=(BOLT, SHIELD)).begin()  # order: Anna, Vera, Boris, Gleb
    for attacker, defender in [(ANNA, VERA), (VERA, ANNA), (BORIS, GLEB), (GLEB, BORIS)]:
        assert fight.state.turn_of == attacker
        fight.attack(attacker, BOLT, defender)
        fight.answer(defender)
        if fight.state.phase == B.TURNS:
            fight.next_turn()
    return fight


def test_D11_D12_a_new_bout_with_no_attack_card_left_ends_the_battle_and_starts_no_round():
    fight = _everyone_spends_their_one_attack()
    assert (fight.state.phase, fight.state.round, fight.state.bout) == (B.BETWEEN_ROUNDS, 1, 1)
    events = fight.do(B.StartRound())
    assert fight.state.phase == B.ENDED and fight.state.result == B.state.NO_ATTACKS_LEFT
    # Nothing of a new round: its number, the bout, the order and the events stay as they were.
    assert (fight.state.round, fight.state.bout) == (1, 1)
    assert [type(e) for e in events] == [E.Ended]


def test_D11_a_defender_put_out_by_the_result_is_announced_out_of_the_fight():
    fight = Fight().begin()
    fight.attack(ANNA, FIRE, VERA)
    fight.answer(VERA)  # no answer: the Fireball's full effect, a heavy wound
    assert fight.state.combatants[VERA].condition == HEAVILY_WOUNDED
    out = [e for e in fight.events if isinstance(e, E.CombatantOut)]
    assert [(e.combatant, e.condition) for e in out] == [(VERA, HEAVILY_WOUNDED)]


def test_D3_a_new_arsenal_for_someone_not_in_the_battle_is_refused():
    fight = _everyone_spends_their_one_attack()
    err = fight.refused("INPUT", B.NewArsenal(combatant=99, arsenal=(BOLT,)))
    assert err.params == {"who": 99}


def test_D6_BP2_a_double_attack_shows_two_cards_not_one_card_twice():
    fight = Fight().begin()
    blade = fight.uid(ANNA, BLADE)
    err = fight.refused("D6", B.Act(actor=ANNA, act=B.ATTACK, cards=(blade, blade), targets=(VERA,)))
    assert "once" in err.message
    two = (blade, fight.uid(ANNA, BLADE, 1))
    fight.do(B.Act(actor=ANNA, act=B.ATTACK, cards=two, targets=(VERA,)))  # two Blades: BP2's double attack
    assert [p.card for p in fight.top().parts] == list(two)


def test_R6_an_interrupt_cannot_cut_into_an_action_that_waits_under_another_reaction():
    """The bolt waits for Vera's opportunity attack (R3); only the top of the stack can be interrupted."""
    fight = Fight().begin().to_round(2)
    bolt = fight.attack(ANNA, BOLT, VERA, engaged=(VERA,))
    fight.do(B.Opportunity(reactor=VERA, frame=bolt.number, card=fight.uid(VERA, SNAP)))
    assert fight.top().number != bolt.number
    zap = fight.uid(GLEB, ZAP)
    fight.refused("R6", B.Immediate(reactor=GLEB, frame=bolt.number, mode=B.INTERRUPT, card=zap, target=ANNA))
    top = fight.top()
    fight.do(B.Immediate(reactor=GLEB, frame=top.number, mode=B.INTERRUPT, card=zap, target=VERA))


def test_S2_IA6_a_battle_opened_afresh_has_no_instant_attack_used_one_grown_from_a_duel_carries_it():
    assert not B.open_battle(B.BattleSettings(), [], at(0)).instant_attack_used
    grown = B.open_battle(B.BattleSettings(), [], at(5), last_action_at=at(3), instant_attack_used=True)
    assert grown.instant_attack_used and grown.last_action_at == at(3)


def test_D8_apply_itself_refuses_an_answer_1_ms_late_and_takes_one_exactly_at_the_deadline():
    """Without an ``expire`` first (a caller that forgets it): the engine's own D8 check, not the kit's order."""
    fight = Fight(window=15).begin()
    frame = fight.attack(ANNA, BLADE, VERA)
    assert frame is not None
    answer = B.AnswerAttack(frame=frame.number, defender=VERA, card=fight.uid(VERA, SHIELD))
    deadline = part_of(frame).windows[0].deadline
    assert deadline is not None
    new, _ = B.apply(fight.state, answer, deadline)
    top = B.top(new)
    assert top is not None and part_of(top).windows[0].answered
    before = B.to_dict(fight.state)
    with pytest.raises(RuleError) as caught:
        B.apply(fight.state, answer, deadline + timedelta(milliseconds=1))
    assert caught.value.rule_id == "D8" and caught.value.params == {"seconds": 0.1}
    assert B.to_dict(fight.state) == before


def test_no_next_turn_before_the_battle_begins_or_between_its_bouts():
    fight = Fight()
    fight.refused("INPUT", B.NextTurn())
    fight = _everyone_spends_their_one_attack()
    fight.refused("INPUT", B.NextTurn())


def test_an_attack_card_is_not_used_as_a_turn_s_card_action():
    fight = Fight().begin()
    err = fight.refused("INPUT", B.Act(actor=ANNA, act=B.USE, cards=(fight.uid(ANNA, BLADE),)))
    assert err.params == {"name": "Blade"}


def test_R7_a_response_to_a_move_whose_steps_are_not_given_waits_for_the_first_step():
    state = BattleRound(round=2, combatants=[ANNA, BORIS, VERA], turn_of=ANNA, turn_seq=1)
    with pytest.raises(RuleError) as caught:
        immediate_action(state, BORIS, RESPONSE, Trigger(ANNA, MOVEMENT), trigger_met=True)
    assert caught.value.rule_id == "R7"


@pytest.mark.parametrize("bad", [{"answer_window_s": 0}, {"gap_s": 0}, {"reactions_from_round": 0}])
def test_every_battle_setting_must_be_positive_on_its_own(bad):
    with pytest.raises(ValueError):
        B.BattleSettings(**bad)


def test_S2_a_closed_situation_says_a_new_one_must_be_opened_not_only_that_the_battle_ended():
    fight = Fight().begin()
    fight.do(B.EndBattle(reason="dusk"))
    err = fight.refused("S2", B.NextTurn())
    assert err.message == "This battle has ended."
    fight.tick(fight.state.settings.gap_s + 1)
    fight.expire()
    assert fight.state.closed
    err = fight.refused("S2", B.NextTurn())
    assert "a new one must be opened" in err.message


def test_D2_a_battle_s_maximum_of_rounds_is_at_least_one_and_a_battle_begins_once():
    fight = Fight()
    err = fight.refused("D2", B.BeginBattle(declarer=ANNA, max_rounds=0))
    assert "at least 1" in err.message
    fight.do(B.BeginBattle(declarer=ANNA, max_rounds=1))
    assert fight.state.max_rounds == 1
    fight.refused("INPUT", B.BeginBattle(declarer=VERA))
    assert fight.state.declarer == ANNA


def test_D8_an_answer_is_overtaken_only_for_the_defender_who_timed_out_in_that_frame_after_it_left_the_stack():
    fight = Fight().begin()
    frame = fight.attack(ANNA, NOVA, VERA, GLEB)
    fight.answer(VERA, SHIELD)
    fight.tick(16)
    fight.expire()  # Gleb never answered (D8)
    assert B.answer_overtaken(fight.state, frame.number, GLEB)  # still on the stack: its window says so
    fight.next_turn()
    assert not fight.state.stack  # from here on only the records know
    assert B.answer_overtaken(fight.state, frame.number, GLEB)
    assert not B.answer_overtaken(fight.state, frame.number, VERA)  # answered in time
    assert not B.answer_overtaken(fight.state, frame.number + 1, GLEB)  # another action


def test_D8_CR2_an_answer_given_in_time_waits_for_the_referee_past_the_deadline_without_timing_out():
    fight = Fight(window=15).begin()
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.tick(5)
    fight.do(B.AnswerAttack(frame=frame.number, defender=VERA, card=fight.uid(VERA, SHIELD)))
    fight.tick(20)  # the window's 15 s are long past; the referee has not confirmed yet
    assert fight.expire() == [] and B.running_windows(fight.state) == []
    fight.do(B.ConfirmAnswer(frame=frame.number, defender=VERA))
    record = fight.state.records[-1]
    assert not record.timed_out and record.answer_card is not None


def test_R3_an_action_not_on_the_stack_at_all_is_not_in_progress_rather_than_waiting():
    fight = Fight().begin()
    frame = fight.attack(ANNA, BLADE, VERA)
    err = fight.refused("INPUT", B.AnswerAttack(frame=frame.number + 50, defender=VERA, card=None))
    assert err.message == "That action is not in progress."


def test_an_act_of_an_unknown_kind_is_refused_not_a_crash():
    fight = Fight().begin()
    err = fight.refused("INPUT", B.Act(actor=ANNA, act="dance"))
    assert err.message == "Unknown action."


def test_D5_out_of_turn_the_refusal_names_whose_turn_it_is():
    fight = Fight().begin()  # Anna's turn
    err = fight.refused("D5", B.Act(actor=VERA, act=B.PASS))
    assert err.params == {"name": "Anna"}


# --- the survivors of the confirming run (seed 26, docs/testing.md) --------------------------------


def test_S2_a_quiet_battle_ended_by_the_gap_is_closed_with_one_end_and_no_second_close():
    """The gap ends a running battle and its situation at once: one ``battle_ended``, no separate
    ``battle_situation_closed`` (that one is for a battle already over when the gap passes)."""
    fight = Fight().begin()
    fight.attack(ANNA, BLADE, VERA)
    fight.answer(VERA)
    fight.tick(181)
    events = fight.expire()
    assert [e.type for e in events] == ["battle_ended"]
    assert fight.state.closed and fight.state.closed_at == at(180)


def test_INPUT_a_battle_begun_by_a_stranger_or_ended_before_it_began_is_refused():
    fight = Fight()
    fight.refused(INPUT, B.BeginBattle(declarer=99))
    fight.refused(INPUT, B.EndBattle(reason="the watch"))
    assert fight.state.phase == B.SETUP


def test_D12_who_leaves_at_a_bout_s_break_is_out_of_the_order_at_once():
    fight = Fight(every_round_a_bout=True).begin()
    for _ in range(4):
        fight.pass_turn()
    fight.do(B.Leave(combatant=BORIS))
    assert BORIS not in fight.state.order and len(fight.state.order) == 3

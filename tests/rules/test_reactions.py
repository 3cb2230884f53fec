"""Opportunity and immediate actions in battles: rules R0-R8."""

import pytest

from rules.battle import AnswerAttack as BattleAnswer
from rules.battle import Immediate as BattleImmediate
from rules.battle import Opportunity as BattleOpportunity
from rules.battle.reactions import (
    AREA_ATTACK,
    INTERRUPT,
    LEAVES_REACH,
    MOVEMENT,
    OTHER,
    RANGED_ATTACK,
    RESPONSE,
    BattleRound,
    Trigger,
    declare_action,
    end_turn,
    immediate_action,
    opportunity_action,
    resolve_part,
    start_turn,
)
from rules.errors import RuleError

from . import battle_kit as K
from .battle_kit import Fight

ANNA, BORIS, VERA = 1, 2, 3


def refused_in(fight: Fight, rule_id: str, command) -> None:
    fight.refused(rule_id, command)


def battle(round_: int = 2, reactions_from: int = 2) -> BattleRound:
    return BattleRound(round=round_, reactions_from_round=reactions_from, combatants=[ANNA, BORIS, VERA])


def turn_of(actor: int, kind: str = "melee", parts: int = 1, round_: int = 2) -> BattleRound:
    return declare_action(start_turn(battle(round_), actor), actor, kind, parts)


def refused(rule_id: str, fn, *args, **kwargs) -> RuleError:
    with pytest.raises(RuleError) as caught:
        fn(*args, **kwargs)
    assert caught.value.rule_id == rule_id
    return caught.value


def test_R0_no_reactions_in_the_first_round_by_default():
    state = declare_action(start_turn(battle(round_=1), ANNA), ANNA, "ranged")
    refused("R0", opportunity_action, state, BORIS, Trigger(ANNA, RANGED_ATTACK, adjacent=True))
    refused("R0", immediate_action, state, BORIS, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True)


def test_R0_the_first_reaction_round_is_an_event_setting():
    state = declare_action(start_turn(battle(round_=1, reactions_from=1), ANNA), ANNA, "ranged")
    new = opportunity_action(state, BORIS, Trigger(ANNA, RANGED_ATTACK, adjacent=True))
    assert new.opportunity_in_turn == {BORIS: new.turn_seq}


@pytest.mark.parametrize("kind", [LEAVES_REACH, RANGED_ATTACK, AREA_ATTACK])
def test_R1_opportunity_triggers_by_an_adjacent_enemy(kind):
    state = turn_of(ANNA, "move")
    new = opportunity_action(state, BORIS, Trigger(ANNA, kind, adjacent=True))
    assert new.opportunity_in_turn[BORIS] == new.turn_seq
    # R3: the action that provoked it waits for it.
    assert new.action is not None and new.action.interrupted_by == [BORIS]


def test_R1_no_opportunity_for_other_triggers_or_from_afar_or_against_an_ally():
    state = turn_of(ANNA, "melee")
    refused("R1", opportunity_action, state, BORIS, Trigger(ANNA, OTHER, adjacent=True))
    refused("R1", opportunity_action, state, BORIS, Trigger(ANNA, RANGED_ATTACK, adjacent=False))
    refused("R1", opportunity_action, state, BORIS, Trigger(ANNA, RANGED_ATTACK, adjacent=True, enemy=False))


def test_R1_every_combatant_may_make_opportunity_attacks():
    state = turn_of(ANNA, "area")
    state = opportunity_action(state, BORIS, Trigger(ANNA, AREA_ATTACK, adjacent=True))
    state = opportunity_action(state, VERA, Trigger(ANNA, AREA_ATTACK, adjacent=True))
    assert set(state.opportunity_in_turn) == {BORIS, VERA}


def test_R2_one_opportunity_action_per_other_combatants_turn():
    state = turn_of(ANNA, "move")
    state = opportunity_action(state, BORIS, Trigger(ANNA, LEAVES_REACH, adjacent=True))
    refused("R2", opportunity_action, state, BORIS, Trigger(ANNA, RANGED_ATTACK, adjacent=True))
    # A new turn of another combatant gives a new chance.
    state = declare_action(start_turn(end_turn(state, ANNA), VERA), VERA, "ranged")
    state = opportunity_action(state, BORIS, Trigger(VERA, RANGED_ATTACK, adjacent=True))
    assert state.opportunity_in_turn[BORIS] == state.turn_seq


def test_R2_never_during_your_own_turn():
    state = turn_of(ANNA, "ranged")
    refused("R2", opportunity_action, state, ANNA, Trigger(ANNA, RANGED_ATTACK, adjacent=True))


def test_R3_an_opportunity_action_interrupts_the_triggering_action():
    """The opportunity attack is resolved before the ranged attack that provoked it, which waits."""
    fight = Fight().begin().to_round(2)
    bolt = fight.attack(K.ANNA, K.BOLT, K.VERA, engaged=(K.VERA,))
    fight.do(BattleOpportunity(reactor=K.VERA, frame=bolt.number, card=fight.uid(K.VERA, K.SNAP)))
    refused_in(fight, "R3", BattleAnswer(frame=bolt.number, defender=K.VERA, card=None))  # the bolt waits
    fight.answer(K.ANNA)
    fight.go_on()
    fight.answer(K.VERA)
    assert [(r.attacker, r.defender) for r in fight.state.records] == [(K.VERA, K.ANNA), (K.ANNA, K.VERA)]


def test_R4_an_immediate_action_needs_its_own_trigger():
    state = turn_of(ANNA, "melee")
    refused("R4", immediate_action, state, BORIS, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=False)


def test_R4_any_combatant_may_ready_an_action_with_a_trigger_of_their_choice():
    state = turn_of(ANNA, "melee")
    state = immediate_action(state, VERA, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True)
    assert state.immediate_spent == {VERA}
    assert state.action is not None and state.action.interrupted_by == [VERA]


def test_R5_one_immediate_action_since_the_end_of_your_last_turn():
    state = turn_of(ANNA, "melee", parts=2)
    state = immediate_action(state, BORIS, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True)
    refused("R5", immediate_action, state, BORIS, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True)
    # Still spent in Vera's turn ...
    state = declare_action(start_turn(end_turn(state, ANNA), VERA), VERA, "melee")
    refused("R5", immediate_action, state, BORIS, INTERRUPT, Trigger(VERA, OTHER), trigger_met=True)
    # ... and back once Boris's own turn has ended.
    state = start_turn(end_turn(state, VERA), BORIS)
    state = declare_action(start_turn(end_turn(state, BORIS), ANNA), ANNA, "melee")
    state = immediate_action(state, BORIS, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True)
    assert BORIS in state.immediate_spent


def test_R5_never_during_your_own_turn():
    state = turn_of(ANNA, "melee")
    refused("R5", immediate_action, state, ANNA, RESPONSE, Trigger(ANNA, OTHER), trigger_met=True)


def test_R6_an_interrupt_that_negates_the_action_makes_it_lost():
    state = turn_of(ANNA, "melee")
    state = immediate_action(state, BORIS, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True, negates=True)
    assert state.action is not None and state.action.lost and state.action.interrupted_by == [BORIS]
    refused("R6", resolve_part, state, ANNA)


def test_R6_an_interrupt_that_does_not_negate_lets_the_action_go_on():
    state = turn_of(ANNA, "melee")
    state = immediate_action(state, BORIS, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True)
    state = resolve_part(state, ANNA)
    assert state.action is not None and state.action.finished and not state.action.lost


def test_R6_an_interrupt_comes_before_the_triggering_action_finishes():
    state = resolve_part(turn_of(ANNA, "melee"), ANNA)
    refused("R6", immediate_action, state, BORIS, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True)


def test_R7_a_response_acts_after_its_trigger():
    state = turn_of(ANNA, "melee")
    refused("R7", immediate_action, state, BORIS, RESPONSE, Trigger(ANNA, OTHER), trigger_met=True)
    state = resolve_part(state, ANNA)
    state = immediate_action(state, BORIS, RESPONSE, Trigger(ANNA, OTHER), trigger_met=True)
    assert state.immediate_spent == {BORIS}
    # The melee attack is over: the response comes after it, interrupting nothing.
    assert state.action is not None and state.action.finished and state.action.interrupted_by == []
    refused("R7", immediate_action, state, VERA, RESPONSE, Trigger(ANNA, OTHER), trigger_met=True, negates=True)


def test_R7_a_response_may_cut_into_movement_after_the_first_step():
    state = turn_of(ANNA, "move", parts=4)
    refused("R7", immediate_action, state, BORIS, RESPONSE, Trigger(ANNA, MOVEMENT, moved_steps=0), trigger_met=True)
    state = resolve_part(state, ANNA)
    state = immediate_action(state, BORIS, RESPONSE, Trigger(ANNA, MOVEMENT, moved_steps=1), trigger_met=True)
    assert state.action is not None and state.action.interrupted_by == [BORIS]
    assert state.action is not None and not state.action.finished


def test_R8_a_response_comes_between_the_two_attacks_of_a_double_attack():
    """Resolution order: first blade, the response, then the second blade."""
    fight = Fight().begin().to_round(2)
    double = fight.attack(K.ANNA, K.BLADE, K.VERA, second=K.BLADE)
    fight.answer(K.VERA)
    fight.do(BattleImmediate(reactor=K.VERA, frame=double.number, mode=RESPONSE, card=fight.uid(K.VERA, K.RIPOSTE)))
    fight.answer(K.ANNA)
    fight.go_on()
    fight.go_on()
    fight.answer(K.VERA)
    assert [(r.attacker, r.defender) for r in fight.state.records] == [
        (K.ANNA, K.VERA),
        (K.VERA, K.ANNA),
        (K.ANNA, K.VERA),
    ]


def test_a_refused_reaction_changes_nothing():
    state = turn_of(ANNA, "melee")
    before = repr(state)
    refused("R1", opportunity_action, state, BORIS, Trigger(ANNA, OTHER, adjacent=True))
    assert repr(state) == before

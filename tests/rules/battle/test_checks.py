"""Every input the reaction rules take is checked, refused with the engine's usual errors, and left as it was.

The reaction rules (``rules.battle.reactions``) answer the battle engine's
questions on a view of the battle; they also stand alone as the seed's model
of a round. A reactor or actor who is not a combatant, a turn that is not
theirs, an action that is not in progress, a part resolved by someone other
than the actor: each is a ``RuleError`` (INPUT or the rule's own id), never a
silent success, and the state handed in is unchanged (issue 25's gaps).
"""

from __future__ import annotations

import copy
import json

import pytest

from rules import FighterSetup
from rules import battle as B
from rules.battle.reactions import (
    INTERRUPT,
    OTHER,
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
from rules.battle.referee import ChangeCondition
from rules.errors import INPUT, RuleError
from tests.rules.battle.kit import ANNA, BLADE, BORIS, COUNTER, GLEB, SHIELD, VERA

STRANGER = 99


def round_(n: int = 2) -> BattleRound:
    return BattleRound(round=n, reactions_from_round=2, combatants=[ANNA, BORIS, VERA])


def refused(rule_id: str, fn, state: BattleRound, *args, **kwargs) -> RuleError:
    before = copy.deepcopy(state)
    with pytest.raises(RuleError) as caught:
        fn(state, *args, **kwargs)
    assert caught.value.rule_id == rule_id, caught.value
    assert state == before  # a refusal changes nothing
    return caught.value


def test_a_turn_is_started_only_for_a_combatant_and_only_when_none_is_on():
    refused(INPUT, start_turn, round_(), STRANGER)
    state = start_turn(round_(), ANNA)
    assert (state.turn_of, state.turn_seq, state.action) == (ANNA, 1, None)
    refused(INPUT, start_turn, state, BORIS)  # finish Anna's turn first


def test_a_turn_is_ended_only_by_whoever_holds_it():
    state = start_turn(round_(), ANNA)
    refused(INPUT, end_turn, state, BORIS)
    refused(INPUT, end_turn, round_(), ANNA)  # no turn is on
    ended = end_turn(state, ANNA)
    assert ended.turn_of is None and ended.action is None and ended.turn_seq == 1


def test_R5_ending_a_turn_gives_back_only_the_ender_s_immediate_allowance():
    state = start_turn(round_(), ANNA)
    state.immediate_spent = {ANNA, BORIS}
    assert end_turn(state, ANNA).immediate_spent == {BORIS}
    assert state.immediate_spent == {ANNA, BORIS}  # the input is untouched


def test_only_the_turn_s_holder_declares_an_action_of_at_least_one_part():
    state = start_turn(round_(), ANNA)
    refused(INPUT, declare_action, state, BORIS, "melee")
    refused(INPUT, declare_action, state, ANNA, "melee", parts=0)
    one = declare_action(state, ANNA, "melee", parts=1)
    assert one.action is not None and (one.action.actor, one.action.parts, one.action.parts_done) == (ANNA, 1, 0)
    assert state.action is None


def test_a_part_is_resolved_only_by_the_action_s_own_actor_and_only_while_it_runs():
    state = declare_action(start_turn(round_(), ANNA), ANNA, "melee", parts=2)
    refused(INPUT, resolve_part, state, BORIS)  # someone other than the actor
    refused(INPUT, resolve_part, start_turn(round_(), ANNA), ANNA)  # no action declared
    once = resolve_part(state, ANNA)
    assert once.action is not None and once.action.parts_done == 1 and not once.action.finished
    assert state.action is not None and state.action.parts_done == 0
    done = resolve_part(once, ANNA)
    assert done.action is not None and done.action.finished
    err = refused(INPUT, resolve_part, done, ANNA)  # finished, not lost: plain INPUT, not R6
    assert "finished" in err.message


def test_R0_R2_R5_a_reactor_must_be_a_combatant_and_a_turn_must_be_on():
    state = declare_action(start_turn(round_(), ANNA), ANNA, "ranged")
    trigger = Trigger(ANNA, "ranged_attack", adjacent=True)
    refused(INPUT, opportunity_action, state, STRANGER, trigger)
    refused(INPUT, immediate_action, state, GLEB, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True)
    refused("R2", opportunity_action, round_(), BORIS, trigger)  # no turn is on
    refused("R5", immediate_action, round_(), BORIS, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True)


def test_R0_the_first_reaction_round_itself_allows_reactions():
    state = declare_action(start_turn(round_(2), ANNA), ANNA, "ranged")
    assert opportunity_action(state, BORIS, Trigger(ANNA, "ranged_attack", adjacent=True)).opportunity_in_turn
    refused(
        "R0",
        opportunity_action,
        declare_action(start_turn(round_(1), ANNA), ANNA, "ranged"),
        BORIS,
        Trigger(ANNA, "ranged_attack", adjacent=True),
    )


def test_an_immediate_action_is_an_interrupt_or_a_response_and_nothing_else():
    state = declare_action(start_turn(round_(), ANNA), ANNA, "melee")
    refused(INPUT, immediate_action, state, BORIS, "standard", Trigger(ANNA, OTHER), trigger_met=True)


def test_R6_an_interrupt_reacts_to_the_running_action_of_its_trigger_s_actor():
    state = declare_action(start_turn(round_(), ANNA), ANNA, "melee")
    refused("R6", immediate_action, state, BORIS, INTERRUPT, Trigger(VERA, OTHER), trigger_met=True)
    refused(
        "R6", immediate_action, start_turn(round_(), ANNA), BORIS, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True
    )


def test_R3_an_opportunity_action_against_a_finished_action_interrupts_nothing():
    state = resolve_part(declare_action(start_turn(round_(), ANNA), ANNA, "move"), ANNA)
    new = opportunity_action(state, BORIS, Trigger(ANNA, "leaves_reach", adjacent=True))
    assert new.action is not None and new.action.interrupted_by == []
    assert new.opportunity_in_turn == {BORIS: 1}


def test_R8_a_response_waits_in_front_of_the_rest_of_a_move_and_none_is_recorded_without_an_action():
    move = resolve_part(declare_action(start_turn(round_(), ANNA), ANNA, "move", parts=3), ANNA)
    new = immediate_action(move, BORIS, RESPONSE, Trigger(ANNA, "movement", moved_steps=1), trigger_met=True)
    assert new.action is not None and new.action.interrupted_by == [BORIS] and not new.action.lost
    idle = start_turn(round_(), ANNA)  # a turn with no action declared yet
    after = immediate_action(idle, BORIS, RESPONSE, Trigger(ANNA, "movement", moved_steps=1), trigger_met=True)
    assert after.action is None and after.immediate_spent == {BORIS}


def test_R6_a_negating_interrupt_keeps_an_action_lost_and_a_plain_one_does_not_lose_it():
    state = declare_action(start_turn(round_(), ANNA), ANNA, "melee", parts=2)
    plain = immediate_action(state, BORIS, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True, negates=False)
    assert plain.action is not None and not plain.action.lost and plain.action.interrupted_by == [BORIS]
    lost = immediate_action(plain, VERA, INTERRUPT, Trigger(ANNA, OTHER), trigger_met=True, negates=True)
    assert lost.action is not None and lost.action.lost and lost.action.interrupted_by == [BORIS, VERA]


def test_every_battle_command_goes_through_json_and_back_unchanged():
    """DESIGN §4: the log stores commands as JSON; a replayed log must give back the very commands."""
    commands: list[B.BattleCommand] = [
        B.JoinBattle(FighterSetup(ANNA, "Anna", (BLADE.face, SHIELD.face)), "light", (BLADE, SHIELD), strike=True),
        B.NewArsenal(combatant=ANNA, arsenal=(BLADE, COUNTER), label="night"),
        B.BeginBattle(declarer=ANNA, order=(ANNA, VERA, BORIS), max_rounds=3),
        B.Act(actor=ANNA, act=B.ATTACK, cards=("1:1:0",), targets=(VERA,), engaged=(VERA,), trigger="t", mode="m"),
        B.Immediate(reactor=VERA, frame=2, mode=B.INTERRUPT, card="3:20:0", target=ANNA, negates=True),
        B.Opportunity(reactor=VERA, frame=2, card="3:1:0", adjacent=True),
        B.AnswerAttack(frame=2, defender=VERA, card=None),
        B.ConfirmAnswer(frame=2, defender=VERA, outcome="parried", reason="why"),
        B.StartRound(order=(VERA, ANNA)),
        B.Leave(combatant=BORIS),
        B.EndBattle(reason="dusk"),
        ChangeCondition(combatant=VERA, add="lightly_wounded", reason="blow"),
    ]
    for command in commands:
        text = json.dumps(B.command_to_dict(command))
        assert B.command_from_dict(json.loads(text)) == command, command

"""Opportunity and immediate actions in battles: rules R0-R8."""

import pytest

from rules import ATTACK, DEFENCE, HEAVILY_WOUNDED, LIGHTLY_WOUNDED, NO_EFFECT
from rules import battle as B
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
from tests.rules.battle import kit as K
from tests.rules.battle.kit import (
    ANNA,
    BLADE,
    BOLT,
    BORIS,
    COUNTER,
    FIRE,
    GLEB,
    NOVA,
    RIPOSTE,
    SHIELD,
    SNAP,
    VERA,
    ZAP,
    Fight,
    conserved,
    part_of,
    resolution,
)


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
    bolt = fight.attack(K.ANNA, BOLT, K.VERA, engaged=(K.VERA,))
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


def test_R0_with_the_event_setting_at_3_round_2_refuses_and_round_3_allows():
    fight = Fight(reactions_from=3).begin().to_round(2)
    assert not fight.state.reactions_on
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA,))
    fight.refused("R0", B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, SNAP)))
    fight.refused("R0", B.Immediate(reactor=GLEB, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(GLEB, ZAP)))
    fight.answer(VERA)
    fight.next_turn()
    fight.to_round(3)
    assert fight.state.reactions_on
    frame = fight.attack(ANNA, FIRE, VERA, engaged=(VERA,))
    fight.do(B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, SNAP)))
    assert fight.top().role == B.OPPORTUNITY
    conserved(fight)


def test_R0_round_1_refuses_and_round_2_allows_by_default():
    fight = Fight().begin()
    frame = fight.attack(ANNA, NOVA, VERA, GLEB, engaged=(VERA,))
    fight.refused("R0", B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, SNAP)))
    fight.answer(VERA)
    fight.answer(GLEB)
    fight.next_turn()
    fight.to_round(2)
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA,))
    fight.do(B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, SNAP)))
    conserved(fight)


def test_R1_an_area_attack_next_to_you_provokes_an_opportunity_attack():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, NOVA, VERA, GLEB, engaged=(GLEB,))
    fight.do(B.Opportunity(reactor=GLEB, frame=frame.number, card=fight.uid(GLEB, SNAP)))
    opp = fight.top()
    assert opp.role == B.OPPORTUNITY and opp.targets == [ANNA] and opp.reacts_to == frame.number
    conserved(fight)


def test_R1_an_ally_next_to_you_provokes_nothing_and_neither_does_a_reaction():
    fight = Fight().begin().to_round(2)
    # Boris is Anna's ally: "engaged" with him is no enemy leaving or shooting next to him.
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(BORIS, VERA))
    fight.refused("R1", B.Opportunity(reactor=BORIS, frame=frame.number, card=fight.uid(BORIS, SNAP)))
    # Vera's opportunity attack is a melee blow (Snap): it provokes nothing, even next to Boris (R1).
    fight.do(B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, SNAP)))
    opp = fight.top()
    fight.refused("R1", B.Opportunity(reactor=BORIS, frame=opp.number, card=fight.uid(BORIS, SNAP), adjacent=True))


def test_R1_leaving_reach_after_the_first_step_still_provokes_but_not_once_the_move_is_over():
    fight = Fight().begin().to_round(2)
    fight.do(B.Act(actor=ANNA, act=B.MOVE, engaged=(VERA, GLEB)))
    move = fight.top().number
    fight.go_on()  # first step
    fight.do(B.Opportunity(reactor=VERA, frame=move, card=fight.uid(VERA, SNAP)))
    fight.answer(ANNA)
    fight.go_on()  # the opportunity attack closes
    fight.go_on()  # the rest of the move
    assert fight.top().finished
    fight.refused("R3", B.Opportunity(reactor=GLEB, frame=move, card=fight.uid(GLEB, SNAP)))
    conserved(fight)


def test_R2_the_same_reactor_may_again_in_the_next_other_combatants_turn_of_the_round():
    fight = Fight().begin().to_round(2)  # order: Anna, Vera, Boris, Gleb
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(GLEB,))
    fight.do(B.Opportunity(reactor=GLEB, frame=frame.number, card=fight.uid(GLEB, SNAP)))
    fight.answer(ANNA)
    fight.go_on()
    fight.answer(VERA, SHIELD)
    fight.next_turn()
    fight.pass_turn()  # Vera
    frame = fight.attack(BORIS, BOLT, VERA, engaged=(GLEB,))  # Boris's turn: a new other combatant's turn
    fight.do(B.Opportunity(reactor=GLEB, frame=frame.number, card=fight.uid(GLEB, BLADE)))
    assert fight.top().actor == GLEB
    conserved(fight)


def test_R2_never_during_your_own_turn_even_against_a_reaction():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA,))
    fight.do(B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, SNAP)))
    opp = fight.top()
    fight.refused("R2", B.Opportunity(reactor=ANNA, frame=opp.number, card=fight.uid(ANNA, SNAP)))


def test_R3_an_opportunity_attack_that_takes_the_actor_out_loses_the_triggering_action():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA,))
    bolt = part_of(frame).card
    fight.do(B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, FIRE)))
    fight.answer(ANNA)  # the fireball is not parried: Anna is heavily wounded
    assert HEAVILY_WOUNDED in fight.state.combatants[ANNA].condition
    fight.go_on()
    main = fight.state.stack[0]
    assert main.lost and bolt in fight.state.combatants[ANNA].discards
    assert resolution(fight) == [(B.OPPORTUNITY, VERA, ANNA)]  # the bolt never lands
    conserved(fight)


def test_R5_the_allowance_spent_after_your_turn_stays_spent_into_the_next_round_until_your_turn_ends():
    fight = Fight().begin().to_round(2)  # order: Anna, Vera, Boris, Gleb
    fight.pass_turn()  # Anna
    fight.pass_turn()  # Vera
    fight.pass_turn()  # Boris: his turn is over
    frame = fight.attack(GLEB, BLADE, ANNA)
    fight.do(B.Immediate(reactor=BORIS, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(BORIS, ZAP), target=GLEB))
    fight.answer(GLEB)
    fight.go_on()
    fight.answer(ANNA)
    fight.next_turn()  # round 3 starts at once (the bout goes on); Boris has not had a turn since
    assert fight.state.round == 3
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.answer(VERA)
    fight.refused("R5", B.Immediate(reactor=BORIS, frame=frame.number, mode=B.RESPONSE, card=fight.uid(BORIS, RIPOSTE)))
    fight.next_turn()
    frame = fight.attack(VERA, BLADE, ANNA)  # Vera's turn, still before Boris's
    fight.answer(ANNA)
    fight.refused("R5", B.Immediate(reactor=BORIS, frame=frame.number, mode=B.RESPONSE, card=fight.uid(BORIS, RIPOSTE)))
    fight.next_turn()
    fight.pass_turn()  # Boris's own turn ends: the allowance is back
    frame = fight.attack(GLEB, BLADE, ANNA)
    fight.answer(ANNA)
    fight.do(B.Immediate(reactor=BORIS, frame=frame.number, mode=B.RESPONSE, card=fight.uid(BORIS, RIPOSTE)))
    assert fight.top().actor == BORIS
    conserved(fight)


def test_R5_one_immediate_action_also_counts_a_readied_one():
    fight = Fight().begin()
    fight.next_turn()  # Anna
    fight.do(B.Act(actor=VERA, act=B.READY, trigger="Anna attacks", mode=B.INTERRUPT))
    fight.next_turn()
    fight.to_round(2)
    frame = fight.attack(ANNA, BLADE, BORIS, second=BLADE)
    fight.do(B.Immediate(reactor=VERA, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(VERA, SHIELD)))
    fight.go_on()
    fight.answer(BORIS)
    fight.refused("R5", B.Immediate(reactor=VERA, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(VERA, ZAP)))


def test_R6_negating_an_area_attack_after_one_target_is_resolved_keeps_every_card_in_one_place():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, NOVA, VERA, GLEB)
    fight.answer(VERA, SHIELD)  # Vera's window is resolved: her shield is spent (D9)
    shield = fight.state.records[0].answer_card
    assert shield is not None and shield in fight.state.combatants[VERA].discards
    fight.do(B.AnswerAttack(frame=frame.number, defender=GLEB, card=fight.uid(GLEB, SHIELD)))
    fight.do(
        B.Immediate(reactor=BORIS, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(BORIS, COUNTER), negates=True)
    )
    vera = fight.state.combatants[VERA]
    assert shield not in vera.hand, "a spent answer must not come back to the hand"
    assert len([u for u in fight.state.combatants[GLEB].hand if fight.state.cards[u] == SHIELD]) == 1
    conserved(fight)


def test_R6_a_negated_action_is_lost_and_cannot_go_on():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA, second=BOLT)
    fight.answer(VERA)  # first blade lands
    second = fight.uid(ANNA, BOLT)
    fight.do(
        B.Immediate(reactor=GLEB, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(GLEB, COUNTER), negates=True)
    )
    fight.go_on()  # the interrupt is over
    fight.refused("INPUT", B.Proceed(frame=frame.number))  # the lost action's rest never begins
    assert second in fight.state.combatants[ANNA].hand  # never shown: it stays in hand
    assert resolution(fight) == [(B.MAIN, ANNA, VERA)]
    conserved(fight)


def test_R6_an_interrupt_that_negates_an_opportunity_attack_lets_the_turns_action_go_on():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(GLEB,))
    fight.do(B.Opportunity(reactor=GLEB, frame=frame.number, card=fight.uid(GLEB, SNAP)))
    opp = fight.top()
    fight.do(
        B.Immediate(reactor=BORIS, frame=opp.number, mode=B.INTERRUPT, card=fight.uid(BORIS, COUNTER), negates=True)
    )
    fight.go_on()  # Boris's counterspell closes
    assert fight.top().number == opp.number and opp.number == fight.top().number and fight.top().lost
    fight.go_on()  # the lost opportunity attack closes
    assert fight.top().number == frame.number and not fight.top().lost
    fight.answer(VERA)
    assert resolution(fight) == [(B.MAIN, ANNA, VERA)]
    conserved(fight)


def test_R8_a_response_called_after_go_on_comes_before_the_shown_part():
    """[R8] Issue 25 item 9: "go on" has shown the second blade; Gleb's response to the first hit,
    called before that part is resolved, cuts in; the second blade's window waits (suspended)."""
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA, second=BLADE)
    fight.answer(VERA)
    fight.go_on()  # the second blade is shown
    fight.do(B.Immediate(reactor=GLEB, frame=frame.number, mode=B.RESPONSE, card=fight.uid(GLEB, RIPOSTE)))
    assert fight.top().actor == GLEB
    assert all(w.deadline is None for w in part_of(fight.state.stack[0]).windows)  # suspended (R3)
    fight.answer(ANNA)
    fight.go_on()  # the response is over: the shown blade's window runs again
    assert fight.top().number == frame.number
    assert all(w.deadline is not None for w in part_of(fight.top()).windows)
    fight.answer(VERA)
    assert resolution(fight) == [(B.MAIN, ANNA, VERA), (B.RESPONSE, GLEB, ANNA), (B.MAIN, ANNA, VERA)]
    conserved(fight)


def test_R8_a_response_called_before_the_part_that_takes_the_responder_out_is_not_lost():
    """[R8] Issue 25 item 9: Vera's riposte, called after "go on" showed the fireball, is made before
    the fireball takes her out; it counts as her immediate action and is resolved, not lost."""
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA, second=FIRE)
    fight.answer(VERA)
    fight.go_on()  # the fireball is shown
    riposte = fight.uid(VERA, RIPOSTE)
    fight.do(B.Immediate(reactor=VERA, frame=frame.number, mode=B.RESPONSE, card=riposte))
    assert fight.top().actor == VERA and VERA in fight.state.immediate_spent
    fight.answer(ANNA)
    fight.go_on()
    fight.answer(VERA)  # not parried: Vera is heavily wounded and can no longer fight (D11)
    assert HEAVILY_WOUNDED in fight.state.combatants[VERA].condition
    assert [(r.attacker, r.defender) for r in fight.state.records] == [(ANNA, VERA), (VERA, ANNA), (ANNA, VERA)]
    assert riposte in fight.state.combatants[VERA].discards
    fight.next_turn()
    conserved(fight)


def test_R8_a_response_to_a_move_cuts_in_before_the_rest_of_the_move():
    fight = Fight().begin().to_round(2)
    fight.do(B.Act(actor=ANNA, act=B.MOVE))
    move = fight.top()
    fight.go_on()  # one step
    fight.do(B.Immediate(reactor=GLEB, frame=move.number, mode=B.RESPONSE, card=fight.uid(GLEB, RIPOSTE)))
    assert fight.top().actor == GLEB and fight.state.stack[0].parts_done == 1
    fight.refused("R3", B.Proceed(frame=move.number))
    conserved(fight)


DART = K.card(30, "Dart", ATTACK, LIGHTLY_WOUNDED, NO_EFFECT, ("ranged",), action=B.INTERRUPT, trigger="x")


def test_R1_an_enemy_s_immediate_ranged_attack_next_to_you_provokes_whoever_s_turn_it_is():
    """[R1] Issue 25 item 6: during Anna's turn Gleb shoots a Dart as an immediate interrupt; Boris,
    whom the referee records next to Gleb, may punish it; recorded as not next to him, he may not."""
    fight = Fight(hand=(*K.HAND, DART)).begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.do(B.Immediate(reactor=GLEB, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(GLEB, DART), target=ANNA))
    dart = fight.top()
    assert dart.actor == GLEB and fight.state.turn_of == ANNA
    fight.refused("R1", B.Opportunity(reactor=BORIS, frame=dart.number, card=fight.uid(BORIS, SNAP)))
    fight.do(B.Opportunity(reactor=BORIS, frame=dart.number, card=fight.uid(BORIS, SNAP), adjacent=True))
    opp = fight.top()
    assert opp.role == B.OPPORTUNITY and opp.targets == [GLEB] and opp.reacts_to == dart.number
    conserved(fight)
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)


TALENT = K.card(41, "Twin strike", DEFENCE, double=True)  # a talent card: it grants the double attack
GUARD = K.card(42, "Guard", DEFENCE, action=B.INTERRUPT, trigger="you are attacked", trigger_kind=B.ATTACKED)
AVENGE = K.card(
    43,
    "Avenge",
    ATTACK,
    LIGHTLY_WOUNDED,
    NO_EFFECT,
    action=B.RESPONSE,
    trigger="an ally is hit",
    trigger_kind=B.ALLY_ATTACKED,
)


def test_BP2_R8_two_attacks_in_one_action_only_when_a_card_or_talent_grants_it():
    """[BP2, R8] Issue 25 item 5: without a card that grants it, two attack cards are refused."""
    plain = Fight(hand=(BOLT, FIRE, SHIELD)).begin()
    plain.refused(
        "BP2",
        B.Act(actor=ANNA, act=B.ATTACK, cards=(plain.uid(ANNA, BOLT), plain.uid(ANNA, FIRE)), targets=(VERA,)),
    )
    talented = Fight(hand=(BOLT, FIRE, TALENT)).begin()
    frame = talented.attack(ANNA, BOLT, VERA, second=FIRE)
    assert len(frame.parts) == 2


def test_R4_an_immediate_card_is_refused_and_not_offered_when_its_trigger_does_not_fit():
    """[R4] Issue 25 item 10: Guard reacts to "you are attacked": not when Anna attacks Vera's ally Gleb."""
    fight = Fight(hand=(*K.HAND, GUARD, AVENGE)).begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, GLEB)
    assert not B.trigger_fits(fight.state, VERA, frame, GUARD)
    assert B.trigger_fits(fight.state, GLEB, frame, GUARD)
    assert B.trigger_fits(fight.state, VERA, frame, AVENGE) and not B.trigger_fits(fight.state, GLEB, frame, AVENGE)
    fight.refused("R4", B.Immediate(reactor=VERA, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(VERA, GUARD)))
    fight.do(B.Immediate(reactor=GLEB, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(GLEB, GUARD)))
    assert fight.top().actor == GLEB


def test_R4_trigger_kinds_of_moves_and_cards_used_fit_only_an_enemy_s():
    moves = K.card(44, "Trip", ATTACK, LIGHTLY_WOUNDED, NO_EFFECT, action=B.RESPONSE, trigger_kind=B.ENEMY_MOVES)
    fight = Fight(hand=(*K.HAND, moves)).begin().to_round(2)
    fight.do(B.Act(actor=ANNA, act=B.MOVE))
    frame = fight.top()
    assert B.trigger_fits(fight.state, VERA, frame, moves) and not B.trigger_fits(fight.state, BORIS, frame, moves)
    used = K.card(45, "Echo", DEFENCE, action=B.RESPONSE, trigger_kind=B.ENEMY_USES_CARD)
    assert not B.trigger_fits(fight.state, VERA, frame, used)
    attacks = K.card(46, "Spite", DEFENCE, action=B.INTERRUPT, trigger_kind=B.ENEMY_ATTACKS)
    assert not B.trigger_fits(fight.state, VERA, frame, attacks)


def test_R4_a_battle_card_with_an_unknown_trigger_kind_or_action_kind_is_refused():
    with pytest.raises(RuleError) as caught:
        K.card(47, "Odd", DEFENCE, trigger_kind="whenever")
    assert caught.value.rule_id == "R4" and caught.value.params == {"kind": "whenever"}
    with pytest.raises(RuleError) as caught:
        K.card(48, "Odd", DEFENCE, action="sometimes")
    assert caught.value.rule_id == "INPUT" and caught.value.params == {"kind": "sometimes"}

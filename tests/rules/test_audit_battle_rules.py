"""Audit of R0-R8 in the battle engine: the edge cases a referee hits that other tests leave out."""

from __future__ import annotations

from collections import Counter

from rules import HEAVILY_WOUNDED
from rules import battle as B

from .battle_kit import (
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
    part_of,
    places,
    resolution,
)


def conserved(fight: Fight) -> None:
    """Every card is in exactly one place, and the log replays to the same state."""
    assert places(fight.state) == Counter(set(fight.state.cards)), "a card is lost or in two places"
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)


# --- R0 ------------------------------------------------------------------------------------------


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


# --- R1 ------------------------------------------------------------------------------------------


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
    # Vera's opportunity attack is not Anna's turn's action: only the turn's combatant provokes (R1).
    fight.do(B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, SNAP)))
    opp = fight.top()
    fight.refused("R1", B.Opportunity(reactor=BORIS, frame=opp.number, card=fight.uid(BORIS, SNAP)))


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


# --- R2 ------------------------------------------------------------------------------------------


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


# --- R3 ------------------------------------------------------------------------------------------


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


# --- R5 ------------------------------------------------------------------------------------------


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
    fight.next_turn()
    fight.do(B.StartRound())  # round 3: Boris has not had a turn since
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


# --- R6 ------------------------------------------------------------------------------------------


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


# --- R7 / R8 -------------------------------------------------------------------------------------


def test_R7_a_response_waiting_for_the_part_under_way_comes_after_it():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA, second=BLADE)
    fight.answer(VERA)
    fight.go_on()  # the second blade is shown
    fight.do(B.Immediate(reactor=GLEB, frame=frame.number, mode=B.RESPONSE, card=fight.uid(GLEB, RIPOSTE)))
    assert fight.top().number == frame.number  # it waits
    fight.answer(VERA)
    assert fight.top().actor == GLEB
    fight.answer(ANNA)
    assert resolution(fight) == [(B.MAIN, ANNA, VERA), (B.MAIN, ANNA, VERA), (B.RESPONSE, GLEB, ANNA)]
    conserved(fight)


def test_R7_R8_a_waiting_response_of_a_combatant_taken_out_by_the_part_is_lost_with_them():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA, second=FIRE)
    fight.answer(VERA)
    fight.go_on()  # the fireball is shown
    riposte = fight.uid(VERA, RIPOSTE)
    fight.do(B.Immediate(reactor=VERA, frame=frame.number, mode=B.RESPONSE, card=riposte))
    fight.answer(VERA)  # not parried: Vera is heavily wounded and can no longer fight (D11)
    assert HEAVILY_WOUNDED in fight.state.combatants[VERA].condition
    assert all(f.actor != VERA or f.lost for f in fight.state.stack)
    assert riposte in fight.state.combatants[VERA].hand  # never shown
    assert [r.attacker for r in fight.state.records] == [ANNA, ANNA]
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

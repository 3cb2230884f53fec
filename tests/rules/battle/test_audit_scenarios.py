"""Scenarios no other battle test walks: rule interactions and edge cases (S2, R5-R8, BP3, BP4, D11).

Each test is a short fight through the engine as the services run it (``kit.Fight``:
expire first, then the command, the log kept for replay).
"""

from __future__ import annotations

from rules import ATTACK, HEAVILY_WOUNDED, LIGHTLY_WOUNDED, PARALYSED, FighterSetup
from rules import battle as B
from rules.battle.events import ActionLost, WindowLost
from rules.battle.referee import ChangeCondition
from tests.rules.battle.kit import (
    ANNA,
    BLADE,
    BORIS,
    COUNTER,
    FIRE,
    GLEB,
    HAND,
    NOVA,
    RIPOSTE,
    SHIELD,
    VERA,
    ZAP,
    Fight,
    at,
    card,
    conserved,
)

# --- S2: the end of a hold starts the gap --------------------------------------------------------


def _bout_over(fight: Fight) -> None:
    """Anna, Vera and Gleb each spend their only attack card: the first bout ends (D11) at 0 s."""
    fight.begin(order=(ANNA, VERA, GLEB))
    for who, target in ((ANNA, VERA), (VERA, ANNA), (GLEB, ANNA)):
        fight.attack(who, BLADE, target)
        fight.answer(target)
        fight.next_turn()
    assert fight.state.phase == B.BETWEEN_ROUNDS


def test_S2_a_long_bout_break_does_not_end_the_battle_as_soon_as_the_next_bout_starts():
    """[S2] A break between bouts holds the situation open: five minutes choosing arsenals, then the next
    bout starts. The gap runs from the end of the break, not from the last blow before it (as a duel's)."""
    fight = Fight(hand=(BLADE, SHIELD), who=(ANNA, VERA, GLEB))
    _bout_over(fight)
    fight.tick(300)
    fight.do(B.NewArsenal(combatant=ANNA, arsenal=(BLADE, SHIELD)))
    fight.do(B.NewArsenal(combatant=VERA, arsenal=(BLADE, SHIELD)))
    fight.do(B.StartRound())
    assert fight.state.phase == B.TURNS and fight.state.bout == 2
    fight.tick(1)
    fight.expire()
    assert not fight.state.ended, f"the battle ended at {fight.state.ended_at} ({fight.state.result})"
    assert B.gap_deadline(fight.state) == at(300 + 180)
    fight.tick(180)
    fight.expire()
    assert fight.state.ended and fight.state.result == B.state.SITUATION_ENDED
    assert fight.state.ended_at == at(480)
    conserved(fight)


def test_S2_a_result_confirmed_long_after_the_answer_starts_the_gap_at_the_confirm():
    """[S2, CR2] An attack waiting for its result holds the situation: the referee confirms three and a
    half minutes after the answer; the battle goes on for the gap after that, not ending back-dated."""
    fight = Fight().begin()
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.tick(5)
    fight.do(B.AnswerAttack(frame=frame.number, defender=VERA, card=None))
    fight.tick(200)
    fight.do(B.ConfirmAnswer(frame=frame.number, defender=VERA))
    fight.tick(1)
    fight.expire()
    assert not fight.state.ended, f"the battle ended at {fight.state.ended_at}"
    assert B.gap_deadline(fight.state) == at(205 + 180)
    conserved(fight)


def test_S2_R6_a_negated_attack_does_not_hold_the_situation_open():
    """[S2, R6] Vera's counterspell negates Anna's attack: nothing waits for an answer or a result any
    more, so three quiet minutes after it end the situation even if nobody taps "next turn"."""
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.do(
        B.Immediate(reactor=VERA, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(VERA, COUNTER), negates=True)
    )
    fight.go_on()  # the counterspell is over; Anna's attack is lost
    assert fight.top().lost
    assert B.gap_deadline(fight.state) == at(0 + 180)
    fight.tick(181)
    fight.expire()
    assert fight.state.ended and fight.state.result == B.state.SITUATION_ENDED
    conserved(fight)


# --- R8: a waiting response whose card is gone -----------------------------------------------------


def _response_card_played_meanwhile() -> Fight:
    """Anna's double blade on Gleb, the second blade shown; Boris's Zap interrupts it on Vera; Vera
    calls her Riposte as a response to Anna's blade (it waits, R8), then answers the Zap with it."""
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, GLEB, second=BLADE)
    fight.answer(GLEB)
    fight.go_on()  # the second blade is shown
    fight.do(B.Immediate(reactor=BORIS, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(BORIS, ZAP), target=VERA))
    zap = fight.top()
    riposte = fight.uid(VERA, RIPOSTE)
    fight.do(B.Immediate(reactor=VERA, frame=frame.number, mode=B.RESPONSE, card=riposte))
    assert [q.actor for q in fight.state.stack[0].queue] == [VERA]
    fight.do(B.AnswerAttack(frame=zap.number, defender=VERA, card=riposte))
    fight.do(B.ConfirmAnswer(frame=zap.number, defender=VERA))
    fight.go_on()  # the Zap is over: Anna's second blade runs again
    assert fight.top().number == frame.number
    return fight


def test_R8_R5_a_waiting_response_whose_card_was_played_meanwhile_is_lost_and_the_clock_still_runs():
    """[R8, R5, D8] The blade's window closes on the clock: the waiting response has nothing left to act
    with, so it is lost (the immediate action counts as taken) - the expiry must not fail on it."""
    fight = _response_card_played_meanwhile()
    fight.tick(16)
    fight.expire()  # Gleb's window closes: the blade takes full effect, then the response would start
    assert fight.state.stack[0].finished and not fight.state.stack[0].queue
    assert VERA in fight.state.immediate_spent
    assert any(isinstance(e, ActionLost) and e.actor == VERA for e in fight.events)
    fight.next_turn()
    conserved(fight)


def test_R8_a_waiting_response_with_nothing_left_does_not_block_the_result_it_waits_for():
    """[R8, CR2] The same, with the blade answered and the result confirmed: the confirm is accepted."""
    fight = _response_card_played_meanwhile()
    fight.answer(GLEB)
    assert fight.state.stack[0].finished and not fight.state.stack[0].queue
    fight.next_turn()
    assert fight.state.turn_of == VERA
    conserved(fight)


# --- BP4: a newcomer's strike is at once, and only while they can fight ------------------------------


def _newcomer_joins_by_attacking(fight: Fight) -> None:
    fight.begin(order=None)
    assert fight.state.turn_of == ANNA
    fight.do(B.JoinBattle(FighterSetup(GLEB, "Gleb", (BLADE.face, BLADE.face)), "dark", (BLADE, BLADE), strike=True))


def test_BP4_BP1_a_newcomer_who_never_struck_gets_no_out_of_turn_blow_once_their_own_turns_began():
    """[BP4, BP1] Gleb joins by attacking but the referee goes on without his strike; from the next round
    he takes turns. After his own turn he may not strike out of turn in someone else's."""
    fight = Fight(who=(ANNA, BORIS, VERA))
    _newcomer_joins_by_attacking(fight)
    fight.to_round(2)
    while fight.state.turn_of != GLEB:
        fight.pass_turn()
    fight.pass_turn()  # Gleb's own turn: he passes
    fight.to_round(3)
    assert fight.state.turn_of == ANNA
    fight.refused("D5", B.Act(actor=GLEB, act=B.ATTACK, cards=(fight.uid(GLEB, BLADE),), targets=(ANNA,)))
    assert fight.state.striker is None
    conserved(fight)


def test_BP4_D11_a_newcomer_put_out_before_striking_does_not_strike():
    """[BP4, D11, IA1] Gleb joins by attacking; before his blow the referee records him paralysed (CR1).
    One who can no longer fight strikes no blow."""
    fight = Fight(who=(ANNA, BORIS, VERA))
    _newcomer_joins_by_attacking(fight)
    fight.do(ChangeCondition(combatant=GLEB, add=PARALYSED, reason="Vera's charm"))
    blade = fight.uid(GLEB, BLADE)
    fight.refused("D11", B.Act(actor=GLEB, act=B.ATTACK, cards=(blade,), targets=(ANNA,)))
    # IA1: nor by surprise - the instant attack he would have joined with is refused the same way.
    strike = B.InstantStrike(attacker=GLEB, victim=ANNA, card=blade, out_of_sight=True, within_reach=True, draw=0)
    fight.refused("D11", strike)
    conserved(fight)


# --- BP3: a target out of the fight loses its window -------------------------------------------------


def test_BP3_the_second_attack_of_a_double_attack_opens_no_window_for_a_target_the_first_put_out():
    """[BP3, D11] Anna's fireball then blade on Vera: the fireball leaves her heavily wounded (out of the
    fight); when "go on" shows the blade, Vera - out of the fight - has no window to answer in."""
    fight = Fight().begin()
    fight.attack(ANNA, FIRE, VERA, second=BLADE)
    fight.answer(VERA)
    assert HEAVILY_WOUNDED in fight.state.combatants[VERA].condition
    condition = fight.state.combatants[VERA].condition
    blade = fight.uid(ANNA, BLADE)
    fight.go_on()  # the blade is shown
    frame = fight.state.stack[0]
    # No window for her, nothing lands by the blade; the card is shown and spent, the action over (D9).
    assert frame.current is None and frame.finished
    assert frame.parts[1].done and frame.parts[1].windows == []
    assert fight.state.combatants[VERA].condition == condition
    assert blade in fight.state.combatants[ANNA].discards
    assert any(isinstance(e, WindowLost) and e.defender == VERA for e in fight.events)
    conserved(fight)


def test_BP3_a_new_attack_may_not_name_a_target_out_of_the_fight():
    """[BP3, IA1's reading] Vera is heavily wounded: an attack naming her is refused, an area attack naming
    her and Gleb too (nothing changes); a blow on her is recorded as a condition change instead."""
    fight = Fight().begin()
    fight.do(ChangeCondition(VERA, add=HEAVILY_WOUNDED, reason="hit by a falling beam"))
    fight.refused("BP3", B.Act(actor=ANNA, act=B.ATTACK, cards=(fight.uid(ANNA, BLADE),), targets=(VERA,)))
    fight.refused("BP3", B.Act(actor=ANNA, act=B.ATTACK, cards=(fight.uid(ANNA, NOVA),), targets=(VERA, GLEB)))
    fight.attack(ANNA, NOVA, GLEB)
    part = fight.top().current
    assert part is not None and [w.defender for w in part.windows] == [GLEB]


# An interrupt that leaves its target heavily wounded (out of the fight, D11).
HEX = card(24, "Hex", ATTACK, HEAVILY_WOUNDED, LIGHTLY_WOUNDED, action=B.INTERRUPT, trigger="an enemy attacks")


def test_BP3_a_target_an_interrupt_puts_out_loses_the_window_that_waited_for_them():
    """[BP3, R6, D8] Anna's Nova on Vera and Gleb; Boris's Hex interrupts it on Gleb and leaves him out of
    the fight. When the Nova runs again, Gleb's waiting window is lost (nothing lands on him by the Nova),
    Vera's runs on with the time it had left."""
    fight = Fight(hand=(*HAND, HEX)).begin().to_round(2)
    frame = fight.attack(ANNA, NOVA, VERA, GLEB)
    fight.tick(5)
    fight.do(B.Immediate(reactor=BORIS, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(BORIS, HEX), target=GLEB))
    hex_ = fight.top()
    fight.do(B.AnswerAttack(frame=hex_.number, defender=GLEB, card=None))
    fight.do(B.ConfirmAnswer(frame=hex_.number, defender=GLEB, outcome=None, reason=""))
    gleb = fight.state.combatants[GLEB].condition
    assert HEAVILY_WOUNDED in gleb
    fight.go_on()  # the Hex is over: the Nova runs again
    nova = fight.state.stack[0]
    part = nova.current
    assert part is not None and [w.defender for w in part.windows] == [VERA]
    assert any(isinstance(e, WindowLost) and e.defender == GLEB for e in fight.events)
    fight.answer(VERA)
    assert fight.state.stack[0].finished and fight.state.combatants[GLEB].condition == gleb
    conserved(fight)
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)

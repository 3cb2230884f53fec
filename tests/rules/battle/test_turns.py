"""Battles in the engine: turns, answers, and opportunity and immediate actions (R0-R8, D5-D12, CR)."""

from __future__ import annotations

from rules import HEAVILY_WOUNDED, LIGHTLY_WOUNDED, PARRIED, FighterSetup
from rules import battle as B
from rules.errors import INPUT
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
    part_of,
    places,
    resolution,
)


def test_D5_the_declarer_acts_first_and_sides_alternate():
    fight = Fight()
    fight.do(B.BeginBattle(declarer=VERA))
    assert fight.state.order == [VERA, ANNA, GLEB, BORIS]
    assert fight.state.turn_of == VERA


def test_a_battle_needs_three_combatants_and_two_sides():
    fight = Fight(who=(ANNA, VERA))
    fight.refused("INPUT", B.BeginBattle(declarer=ANNA))


def test_D11_a_combatant_who_cannot_fight_cannot_join():
    fight = Fight(who=(ANNA, BORIS))
    setup = B.JoinBattle(
        fighter=__import__("rules").FighterSetup(VERA, "Vera", (), condition=HEAVILY_WOUNDED), side="dark"
    )
    fight.refused("D11", setup)


def test_D7_D8_each_target_of_an_area_attack_answers_in_its_own_window():
    fight = Fight().begin()
    frame = fight.attack(ANNA, NOVA, VERA, GLEB)
    assert [w.defender for w in part_of(frame).windows] == [VERA, GLEB]
    fight.answer(VERA, SHIELD)
    fight.tick(16)
    fight.expire()  # Gleb never answered: full effect (D8)
    assert fight.state.combatants[GLEB].condition == LIGHTLY_WOUNDED
    assert fight.state.records[-1].timed_out
    assert fight.top().finished


def test_CR2_an_override_needs_a_reason():
    fight = Fight().begin()
    frame = fight.attack(ANNA, BOLT, VERA)
    fight.do(B.AnswerAttack(frame=frame.number, defender=VERA, card=fight.uid(VERA, SHIELD)))
    assert frame.number == fight.top().number and part_of(fight.top()).windows[0].proposed == PARRIED
    fight.refused("CR2", B.ConfirmAnswer(frame=frame.number, defender=VERA, outcome="not_parried"))
    fight.do(B.ConfirmAnswer(frame=frame.number, defender=VERA, outcome="not_parried", reason="shield dropped"))
    assert fight.state.combatants[VERA].condition == LIGHTLY_WOUNDED


def test_D12_the_battle_ends_when_one_side_is_left():
    fight = Fight(who=(ANNA, VERA, GLEB)).begin(order=None)
    fight.attack(ANNA, FIRE, VERA)
    fight.answer(VERA)
    fight.next_turn()  # Vera is out: Gleb's turn
    assert fight.state.turn_of == GLEB
    fight.attack(GLEB, FIRE, ANNA)
    fight.answer(ANNA)
    assert fight.state.ended and fight.state.result == B.state.ONE_SIDE_LEFT


def test_R0_no_reactions_before_the_round_of_the_event_setting():
    fight = Fight().begin()
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA, GLEB))
    fight.refused("R0", B.Opportunity(reactor=GLEB, frame=frame.number, card=fight.uid(GLEB, SNAP)))
    fight.refused("R0", B.Immediate(reactor=GLEB, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(GLEB, COUNTER)))


def test_R0_the_first_reaction_round_is_the_event_setting():
    fight = Fight(reactions_from=1).begin()
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA, GLEB))
    fight.do(B.Opportunity(reactor=GLEB, frame=frame.number, card=fight.uid(GLEB, SNAP)))
    assert fight.top().role == B.OPPORTUNITY


def test_R1_opportunity_needs_an_adjacent_enemy_leaving_or_shooting():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA, engaged=(VERA, GLEB))  # a melee attack provokes nothing
    fight.refused("R1", B.Opportunity(reactor=GLEB, frame=frame.number, card=fight.uid(GLEB, SNAP)))
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA,))  # Gleb is not next to Anna
    fight.refused("R1", B.Opportunity(reactor=GLEB, frame=frame.number, card=fight.uid(GLEB, SNAP)))


def test_R1_R3_an_opportunity_attack_on_a_leaver_is_answered_in_its_window_before_the_move():
    fight = Fight().begin().to_round(2)
    fight.do(B.Act(actor=ANNA, act=B.MOVE, engaged=(VERA,)))
    move = fight.top()
    fight.do(B.Opportunity(reactor=VERA, frame=move.number, card=fight.uid(VERA, SNAP)))
    opp = fight.top()
    assert opp.targets == [ANNA] and part_of(opp).windows[0].deadline == fight.now() + __import__("datetime").timedelta(
        seconds=15
    )
    fight.refused("R3", B.Proceed(frame=move.number))  # the move waits
    fight.tick(5)
    fight.answer(ANNA, SHIELD)
    fight.go_on()  # the opportunity attack is over; the move goes on
    assert fight.top().number == move.number and move.parts_done == 0
    assert resolution(fight) == [(B.OPPORTUNITY, VERA, ANNA)]


def test_R2_one_opportunity_action_per_other_combatants_turn():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA, GLEB), second=FIRE)
    fight.do(B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, SNAP)))
    fight.answer(ANNA)
    fight.go_on()
    fight.refused("R2", B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, BLADE)))
    fight.answer(VERA)
    fight.go_on()  # the fireball: Vera may not again, Gleb still may
    fight.refused("R2", B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, BLADE)))
    fight.do(B.Opportunity(reactor=GLEB, frame=frame.number, card=fight.uid(GLEB, SNAP)))


def test_R2_never_during_your_own_turn():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA,))
    fight.refused("R2", B.Opportunity(reactor=ANNA, frame=frame.number, card=fight.uid(ANNA, SNAP)))


def test_R3_the_opportunity_attack_resolves_before_the_ranged_attack_it_interrupts():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA,))
    fight.tick(6)
    fight.do(B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, SNAP)))
    assert frame.number == fight.state.stack[0].number and part_of(fight.state.stack[0]).windows[0].deadline is None
    fight.refused("R3", B.AnswerAttack(frame=frame.number, defender=VERA, card=None))
    fight.answer(ANNA)
    fight.tick(20)  # the suspended window keeps its 9 s left, counted from the resumption
    fight.go_on()
    window = part_of(fight.top()).windows[0]
    assert window.deadline == fight.now() + __import__("datetime").timedelta(seconds=9)
    fight.answer(VERA)
    assert resolution(fight) == [(B.OPPORTUNITY, VERA, ANNA), (B.MAIN, ANNA, VERA)]


def test_R4_an_immediate_action_needs_a_card_of_its_kind_or_a_readied_action():
    fight = Fight().begin()
    fight.do(B.Act(actor=ANNA, act=B.READY, trigger="Vera raises her hand", mode=B.INTERRUPT))
    fight.next_turn()
    fight.to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA)
    # Gleb has no readied action: a Blade is no interrupt card.
    fight.refused("R4", B.Immediate(reactor=GLEB, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(GLEB, BLADE)))


def test_R4_a_readied_action_lets_any_card_react_to_the_chosen_trigger():
    fight = Fight().begin()
    fight.next_turn()  # Anna passes without acting
    fight.do(B.Act(actor=VERA, act=B.READY, trigger="Anna moves", mode=B.RESPONSE))
    fight.next_turn()
    fight.to_round(2)
    fight.do(B.Act(actor=ANNA, act=B.MOVE))
    fight.go_on()
    frame = fight.top()
    fight.do(B.Immediate(reactor=VERA, frame=frame.number, mode=B.RESPONSE, card=fight.uid(VERA, BLADE)))
    assert fight.top().readied and fight.top().trigger == "Anna moves" and VERA not in fight.state.readied


def test_R5_an_immediate_action_on_your_own_turn_is_refused():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.refused("R5", B.Immediate(reactor=ANNA, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(ANNA, COUNTER)))


def test_R5_a_second_immediate_action_before_the_end_of_your_next_turn_is_refused_then_allowed():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.do(B.Immediate(reactor=BORIS, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(BORIS, COUNTER)))
    fight.go_on()
    fight.answer(VERA)
    fight.next_turn()  # Vera's turn
    frame = fight.attack(VERA, BLADE, ANNA)
    fight.answer(ANNA)
    refusal = fight.refused(
        "R5", B.Immediate(reactor=BORIS, frame=frame.number, mode=B.RESPONSE, card=fight.uid(BORIS, RIPOSTE))
    )
    assert "since the end of your last turn" in refusal.text()
    fight.next_turn()  # Boris's own turn ends: the allowance is back
    fight.pass_turn()
    frame = fight.attack(GLEB, BLADE, ANNA)
    fight.answer(ANNA)
    fight.do(B.Immediate(reactor=BORIS, frame=frame.number, mode=B.RESPONSE, card=fight.uid(BORIS, RIPOSTE)))
    assert fight.top().actor == BORIS


def test_R6_an_interrupt_that_negates_an_attack_removes_it_and_its_window():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BOLT, VERA)
    bolt = part_of(frame).card
    fight.do(
        B.Immediate(reactor=VERA, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(VERA, COUNTER), negates=True)
    )
    main = fight.state.stack[0]
    assert main.lost and main.current is None and all(not p.windows for p in main.parts)
    assert bolt in fight.state.combatants[ANNA].discards
    fight.go_on()  # the counterspell is over
    assert fight.state.stack == [main] and B.next_deadline(fight.state) != fight.now() + __import__(
        "datetime"
    ).timedelta(seconds=15)
    fight.refused("R6", B.Immediate(reactor=GLEB, frame=main.number, mode=B.RESPONSE, card=fight.uid(GLEB, RIPOSTE)))
    assert fight.state.records == [] and fight.state.combatants[VERA].condition == "fit"


def test_R6_an_interrupt_that_does_not_negate_resolves_first_and_the_action_goes_on():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.do(B.Immediate(reactor=GLEB, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(GLEB, ZAP), target=ANNA))
    assert fight.top().role == B.INTERRUPT and not fight.state.stack[0].lost
    fight.answer(ANNA)
    fight.go_on()
    fight.answer(VERA)
    assert resolution(fight) == [(B.INTERRUPT, GLEB, ANNA), (B.MAIN, ANNA, VERA)]


def test_R6_an_interrupt_acts_before_its_trigger_finishes():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.answer(VERA)
    fight.refused("R6", B.Immediate(reactor=GLEB, frame=frame.number, mode=B.INTERRUPT, card=fight.uid(GLEB, ZAP)))


def test_R7_a_response_comes_after_its_trigger():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.refused("R7", B.Immediate(reactor=VERA, frame=frame.number, mode=B.RESPONSE, card=fight.uid(VERA, RIPOSTE)))
    fight.answer(VERA)
    fight.do(B.Immediate(reactor=VERA, frame=frame.number, mode=B.RESPONSE, card=fight.uid(VERA, RIPOSTE)))
    riposte = fight.top()
    assert riposte.role == B.RESPONSE and part_of(riposte).windows[0].defender == ANNA
    fight.answer(ANNA)
    assert resolution(fight) == [(B.MAIN, ANNA, VERA), (B.RESPONSE, VERA, ANNA)]


def test_R7_a_response_may_cut_into_a_move_only_after_the_first_step():
    fight = Fight().begin().to_round(2)
    fight.do(B.Act(actor=ANNA, act=B.MOVE))
    move = fight.top().number
    fight.refused("R7", B.Immediate(reactor=VERA, frame=move, mode=B.RESPONSE, card=fight.uid(VERA, RIPOSTE)))
    fight.go_on()  # Anna has moved one step
    fight.do(B.Immediate(reactor=VERA, frame=move, mode=B.RESPONSE, card=fight.uid(VERA, RIPOSTE)))
    main = fight.state.stack[0]
    assert fight.top().role == B.RESPONSE and main.parts_done == 1 and not main.finished
    fight.answer(ANNA)
    fight.go_on()
    fight.go_on()  # the rest of the move
    assert fight.top().finished and resolution(fight) == [(B.RESPONSE, VERA, ANNA)]


def test_R8_a_response_to_a_double_attack_is_resolved_between_the_two_attacks():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BLADE, VERA, second=BLADE)
    fight.answer(VERA)  # the first blade lands
    fight.do(B.Immediate(reactor=VERA, frame=frame.number, mode=B.RESPONSE, card=fight.uid(VERA, RIPOSTE)))
    fight.answer(ANNA)
    fight.go_on()  # the response is over
    fight.go_on()  # the second blade
    fight.answer(VERA)
    assert resolution(fight) == [(B.MAIN, ANNA, VERA), (B.RESPONSE, VERA, ANNA), (B.MAIN, ANNA, VERA)]


def test_interrupts_resolve_last_in_first_out_then_responses_in_the_order_called():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA, GLEB))
    fight.do(B.Opportunity(reactor=GLEB, frame=frame.number, card=fight.uid(GLEB, SNAP)))
    opp = fight.top()
    fight.do(B.Immediate(reactor=BORIS, frame=opp.number, mode=B.INTERRUPT, card=fight.uid(BORIS, ZAP), target=GLEB))
    fight.answer(GLEB)  # Boris's interrupt first (last in)
    fight.go_on()
    fight.answer(ANNA)  # then Gleb's opportunity attack
    fight.go_on()
    fight.answer(VERA)  # then Anna's bolt
    fight.do(B.Immediate(reactor=VERA, frame=frame.number, mode=B.RESPONSE, card=fight.uid(VERA, RIPOSTE)))
    fight.do(B.Immediate(reactor=GLEB, frame=frame.number, mode=B.RESPONSE, card=fight.uid(GLEB, RIPOSTE)))
    assert [q.actor for q in fight.state.stack[0].queue] == [GLEB]
    fight.answer(ANNA)
    fight.go_on()
    fight.answer(ANNA)
    assert resolution(fight) == [
        (B.INTERRUPT, BORIS, GLEB),
        (B.OPPORTUNITY, GLEB, ANNA),
        (B.MAIN, ANNA, VERA),
        (B.RESPONSE, VERA, ANNA),
        (B.RESPONSE, GLEB, ANNA),
    ]


def test_AG2_D3_a_round_of_turns_is_not_a_bout_arsenals_wait_for_the_bout_s_end():
    """[AG2, D3, D11] Issue 25 item 1: after a round in which everyone still holds attack cards the
    next round starts at once and a new arsenal is refused; the bout ends when nobody fit holds one."""
    fight = Fight(hand=(BLADE, SHIELD)).begin()
    fight.refused("AG2", B.NewArsenal(combatant=VERA, arsenal=(BLADE,)))
    fight.attack(ANNA, BLADE, VERA)
    fight.answer(VERA)
    fight.next_turn()
    for _ in range(3):
        fight.pass_turn()
    assert (fight.state.phase, fight.state.round, fight.state.bout) == (B.TURNS, 2, 1)
    fight.refused("AG2", B.NewArsenal(combatant=VERA, arsenal=(BLADE,)))
    fight.refused("D12", B.StartRound())
    fight.pass_turn()  # Anna, with no attack card left
    for who, target in ((VERA, ANNA), (BORIS, GLEB), (GLEB, BORIS)):
        assert fight.state.turn_of == who
        fight.attack(who, BLADE, target)
        fight.answer(target)
        fight.next_turn()
    assert fight.state.phase == B.BETWEEN_ROUNDS and fight.state.bout == 1
    assert any(e.type == "battle_bout_ended" for e in fight.events)
    fight.do(B.NewArsenal(combatant=VERA, arsenal=(BLADE, SHIELD)))
    assert len(fight.state.combatants[VERA].hand) == 2
    fight.do(B.StartRound())
    assert (fight.state.round, fight.state.bout) == (3, 2)
    fight.pass_turn()
    fight.refused("D3", B.NewArsenal(combatant=VERA, arsenal=(BLADE,)))


def test_D3_the_event_setting_makes_every_round_a_bout():
    fight = Fight(every_round_a_bout=True).begin()
    fight.refused("AG2", B.NewArsenal(combatant=VERA, arsenal=(BLADE,)))
    for _ in range(4):
        fight.pass_turn()
    assert fight.state.phase == B.BETWEEN_ROUNDS
    fight.do(B.NewArsenal(combatant=VERA, arsenal=(BLADE, SHIELD)))
    assert len(fight.state.combatants[VERA].hand) == 2
    fight.do(B.StartRound())
    assert fight.state.bout == 2


def test_the_referee_ends_the_battle_and_shown_cards_go_back():
    fight = Fight().begin()
    frame = fight.attack(ANNA, BLADE, VERA)
    blade = part_of(frame).card
    fight.refused("D2", B.EndBattle(reason=" "))
    fight.do(B.EndBattle(reason="the police came"))
    assert fight.state.ended and blade in fight.state.combatants[ANNA].hand
    assert all(n == 1 for n in places(fight.state).values())


def test_max_rounds_end_the_battle():
    fight = Fight()
    fight.do(B.BeginBattle(declarer=ANNA, max_rounds=1))
    for _ in range(4):
        fight.pass_turn()
    assert fight.state.ended and fight.state.result == B.state.MAX_ROUNDS


def test_S2_the_gap_ends_a_quiet_battle_but_not_an_open_attack():
    fight = Fight().begin()
    fight.attack(ANNA, BLADE, VERA)
    fight.tick(10)
    fight.answer(VERA)
    fight.tick(181)
    fight.expire()
    assert fight.state.ended and fight.state.result == B.state.SITUATION_ENDED


def test_BP4_a_newcomer_takes_turns_from_the_next_round():
    fight = Fight(who=(ANNA, BORIS, VERA)).begin(order=None)
    fight.do(B.JoinBattle(FighterSetup(GLEB, "Gleb", (BLADE.face,)), "dark", (BLADE,)))
    assert GLEB not in fight.state.order
    fight.refused("D5", B.Act(actor=GLEB, act=B.ATTACK, cards=(fight.uid(GLEB, BLADE),), targets=(ANNA,)))
    while fight.state.round == 1:
        fight.pass_turn()
    assert fight.state.order[-1] == GLEB


def test_BP4_a_newcomer_who_joins_by_attacking_strikes_at_once_and_the_turn_goes_on():
    """[BP4] Issue 25 item 8: the blow is recorded as it happens, not at the end of the round."""
    fight = Fight(who=(ANNA, BORIS, VERA)).begin(order=None)
    assert fight.state.turn_of == ANNA
    fight.do(B.JoinBattle(FighterSetup(GLEB, "Gleb", (BLADE.face, SHIELD.face)), "dark", (BLADE, SHIELD), strike=True))
    fight.refused("BP4", B.Act(actor=GLEB, act=B.PASS))
    frame = fight.attack(GLEB, BLADE, ANNA)
    assert frame.actor == GLEB and frame.newcomer
    fight.answer(ANNA)
    assert fight.state.combatants[ANNA].condition == LIGHTLY_WOUNDED
    # The turn is still Anna's: she acts at once (the finished strike makes way) ...
    fight.attack(ANNA, BLADE, VERA)
    fight.answer(VERA)
    fight.next_turn()
    assert fight.state.turn_of != ANNA
    # ... and the newcomer's strike was a one-off: no second blow out of turn.
    fight.refused("D5", B.Act(actor=GLEB, act=B.ATTACK, cards=(fight.uid(GLEB, SHIELD),), targets=(ANNA,)))
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)


def test_BP4_after_a_strike_next_turn_returns_to_the_turn_s_owner():
    fight = Fight(who=(ANNA, BORIS, VERA)).begin(order=None)
    fight.do(B.JoinBattle(FighterSetup(GLEB, "Gleb", (BLADE.face,)), "dark", (BLADE,), strike=True))
    fight.attack(GLEB, BLADE, ANNA)
    fight.answer(ANNA)
    fight.next_turn()
    assert fight.state.turn_of == ANNA and fight.state.stack == []


def test_BP4_joining_by_attacking_needs_a_running_battle():
    fight = Fight(who=(ANNA, BORIS, VERA))
    fight.refused("BP4", B.JoinBattle(FighterSetup(GLEB, "Gleb", (BLADE.face,)), "dark", (BLADE,), strike=True))


def test_log_replay_equals_the_state():
    fight = Fight().begin().to_round(2)
    frame = fight.attack(ANNA, BOLT, VERA, engaged=(VERA,))
    fight.do(B.Opportunity(reactor=VERA, frame=frame.number, card=fight.uid(VERA, SNAP)))
    fight.tick(30)
    fight.expire()
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)
    assert B.from_dict(B.to_dict(fight.state)) == fight.state


def test_D8_S2_expire_with_nothing_due_hands_back_its_input_and_with_a_window_due_leaves_it_untouched():
    """Issue 24: every poll and command asks ``expire``; with nothing due it copies nothing (the same object)."""
    import copy

    fight = Fight().begin()
    fight.attack(ANNA, NOVA, VERA, GLEB)
    fight.tick(5)
    same, events = B.expire(fight.state, fight.now())
    assert same is fight.state and events == []
    fight.tick(11)  # both windows (15 s) are past: they time out (D8)
    before = copy.deepcopy(fight.state)
    after, events = B.expire(fight.state, fight.now())
    assert after is not fight.state and events
    assert fight.state == before  # the input is left as it was
    assert after.combatants[VERA].condition == LIGHTLY_WOUNDED and after.combatants[GLEB].condition == LIGHTLY_WOUNDED


def test_D12_a_combatant_leaves_at_a_bout_s_end_and_the_battle_goes_on_while_two_sides_remain():
    """[D12] Issue 25 item 7: leaving is refused mid-bout; at the bout's end Boris leaves: no more turns,
    no blow on him; when Gleb leaves too the dark side has Vera alone and the battle goes on."""
    fight = Fight(every_round_a_bout=True).begin()
    fight.refused("D12", B.Leave(combatant=BORIS))
    for _ in range(4):
        fight.pass_turn()
    assert fight.state.phase == B.BETWEEN_ROUNDS
    fight.refused(INPUT, B.Leave(combatant=99))
    fight.do(B.Leave(combatant=BORIS))
    fight.refused("D12", B.Leave(combatant=BORIS))
    fight.refused(INPUT, B.StartRound(order=(ANNA, VERA, BORIS, GLEB)))  # who left takes no turn
    fight.do(B.StartRound())
    assert BORIS not in fight.state.order and not fight.state.ended
    fight.refused("D12", B.Act(actor=ANNA, act=B.ATTACK, cards=(fight.uid(ANNA, BLADE),), targets=(BORIS,)))
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)


def test_D12_BP5_the_battle_ends_when_leaving_leaves_one_side():
    fight = Fight(every_round_a_bout=True).begin()
    for _ in range(4):
        fight.pass_turn()
    fight.do(B.Leave(combatant=VERA))
    assert not fight.state.ended
    fight.do(B.Leave(combatant=GLEB))
    assert fight.state.ended and fight.state.result == B.state.ONE_SIDE_LEFT
    assert not fight.state.closed  # S2: the situation lasts until the gap


def test_D8_in_a_battle_an_answer_exactly_at_the_deadline_counts():
    fight = Fight(window=15).begin()
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.tick(15)
    fight.do(B.AnswerAttack(frame=frame.number, defender=VERA, card=fight.uid(VERA, SHIELD)))
    window = part_of(fight.top()).windows[0]
    assert window.answered and not window.timed_out


def test_D8_in_a_battle_an_answer_1_ms_after_the_deadline_times_out():
    fight = Fight(window=15).begin()
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.tick(15.001)
    err = fight.refused("D8", B.AnswerAttack(frame=frame.number, defender=VERA, card=fight.uid(VERA, SHIELD)))
    assert "closed" in err.message
    fight.expire()
    assert fight.state.records[-1].timed_out and fight.state.records[-1].defender == VERA


def test_R4_a_readied_action_loses_its_trigger_when_the_readier_s_next_turn_begins():
    fight = Fight(reactions_from=1).begin()  # order: Anna, Vera, Boris, Gleb
    fight.next_turn()  # Anna
    fight.do(B.Act(actor=VERA, act=B.READY, trigger="Gleb moves", mode=B.RESPONSE))
    assert VERA in fight.state.readied
    fight.next_turn()
    fight.pass_turn()  # Boris
    fight.pass_turn()  # Gleb
    fight.pass_turn()  # Anna (round 2)
    assert fight.state.turn_of == VERA and VERA not in fight.state.readied  # her own turn: the readied action is gone
    fight.pass_turn()
    frame = fight.attack(BORIS, BLADE, GLEB)
    fight.answer(GLEB)
    fight.refused("R4", B.Immediate(reactor=VERA, frame=frame.number, mode=B.RESPONSE, card=None))


def test_D7_a_part_is_answered_only_by_its_own_targets_not_by_its_actor_or_a_bystander():
    fight = Fight().begin()
    frame = fight.attack(ANNA, BLADE, VERA)
    fight.refused("D7", B.AnswerAttack(frame=frame.number, defender=ANNA, card=None))
    fight.refused("D7", B.AnswerAttack(frame=frame.number, defender=GLEB, card=None))
    fight.refused("D7", B.ConfirmAnswer(frame=frame.number, defender=BORIS))


def test_BP1_the_order_is_fixed_at_the_bout_s_start_one_turn_each_and_one_action_a_turn():
    """[BP1] The declarer leads, the sides alternate; the next round of the bout keeps that order; a turn
    holds one action (a second is refused); the referee's new order is taken only at a bout's start."""
    fight = Fight().begin(declarer=VERA, order=None)
    assert fight.state.order == [VERA, ANNA, GLEB, BORIS]
    fight.attack(VERA, BLADE, ANNA)
    fight.answer(ANNA)
    fight.refused(INPUT, B.Act(actor=VERA, act=B.PASS))
    fight.next_turn()
    for _ in range(3):
        fight.pass_turn()
    assert fight.state.round == 2 and fight.state.order == [VERA, ANNA, GLEB, BORIS]
    fight.refused("D12", B.StartRound(order=(ANNA, VERA, BORIS, GLEB)))


def test_BP3_each_target_of_an_area_attack_answers_in_its_own_window_and_one_out_loses_it():
    fight = Fight().begin()
    frame = fight.attack(ANNA, NOVA, VERA, GLEB)
    windows = part_of(frame).windows
    assert [w.defender for w in windows] == [VERA, GLEB] and all(w.deadline is not None for w in windows)
    fight.do(B.AnswerAttack(frame=frame.number, defender=VERA, card=fight.uid(VERA, SHIELD)))
    fight.do(B.ConfirmAnswer(frame=frame.number, defender=VERA, outcome=PARRIED, reason="held"))
    fight.do(B.AnswerAttack(frame=frame.number, defender=GLEB, card=None))
    fight.do(B.ConfirmAnswer(frame=frame.number, defender=GLEB))
    outcomes = {r.defender: r.outcome for r in fight.state.records}
    assert outcomes[VERA] == PARRIED and outcomes[GLEB] != PARRIED  # each its own outcome


def test_BP5_the_battle_ends_when_nobody_fit_holds_an_attack_card_and_none_goes_on():
    fight = Fight(hand=(BLADE, SHIELD), who=(ANNA, VERA, GLEB))
    fight.begin(order=(ANNA, VERA, GLEB))
    for who, target in ((ANNA, VERA), (VERA, ANNA), (GLEB, ANNA)):
        fight.attack(who, BLADE, target)
        fight.answer(target)
        fight.next_turn()
    assert fight.state.phase == B.BETWEEN_ROUNDS  # the bout is over (D11)
    fight.do(B.StartRound())  # nobody took a new arsenal: nothing to fight with
    assert fight.state.ended and fight.state.result == B.state.NO_ATTACKS_LEFT and not fight.state.closed

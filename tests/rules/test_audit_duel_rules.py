"""Audit of S, IA, F, AG, D and CR on the engine: edge cases a referee meets that no other test pins.

Each test names the rule it checks and ends, where the fight ran through the
``Fight`` driver, by replaying the log to the same state (DESIGN.md §4).
"""

from __future__ import annotations

from rules import DEFENCE, LIGHTLY_WOUNDED, NOT_PARRIED, PARALYSED, PARRIED, SOFTENED, CardFace, CounterRule, can_fight
from rules.duel import (
    AGGRESSION,
    AWAIT_ANSWER,
    AWAIT_ATTACK,
    AWAIT_RESULT,
    BETWEEN_ROUNDS,
    ENDED,
    INSTANT_ATTACK,
    Answer,
    Attack,
    ChangeCondition,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    InstantAttack,
    RoundChoice,
    SetFocus,
    Settings,
    draw_size_for,
    replay,
    situation_deadline,
    to_dict,
)
from rules.duel.events import CardKept, ConvertedToAggression, Passed, RoundStarted

from .kit import ANTON, DART, FIRE, HEAL, OLGA, SHIELD, SLEEP, WARD, ZAVULON, Fight, at, first, setup

ABILITY_WARD = CardFace(13, "Stone Skin", DEFENCE, category="ability")


def replays(f: Fight) -> None:
    assert to_dict(replay(f.opening, f.log)) == to_dict(f.state)


def ia(f: Fight, t: float, draw: int | None = 0, *, attacker=ANTON, victim=ZAVULON, card=FIRE, **kw):
    cmd = InstantAttack(attacker, victim, f.uid(attacker, card.card_id), True, True, **kw)
    size = draw_size_for(f.state, cmd)
    return f.do(cmd, t, draw if size else None)


def idx(f: Fight, fighter: int, card: CardFace) -> int:
    """The blind-draw index that picks ``card`` from the fighter's hand."""
    return [f.state.cards[u].card_id for u in f.fighter(fighter).hand].index(card.card_id)


# --- S ------------------------------------------------------------------------------------------


def test_S1_the_opening_decides_who_acts_first():
    """S1: an instant attack opens with the attacker's blow; aggression with the declarer's first attack."""
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, DART), setup(OLGA, DART))
    ia(f, 0)
    assert f.duel.opened_by == INSTANT_ATTACK and f.duel.steps_done == [] and f.duel.phase == AWAIT_RESULT
    g = Fight(setup(ANTON, FIRE), setup(ZAVULON, DART))
    g.do(DeclareAggression(ZAVULON, ANTON), 0)
    assert g.duel.opened_by == AGGRESSION and g.duel.attacker == ZAVULON and g.duel.phase == AWAIT_ATTACK


def test_S2_the_gap_is_over_only_after_more_than_3_minutes_and_setup_never_restarts_it():
    """S2: at exactly 180 s the situation lives; focus and joining (bookkeeping) do not restart the clock."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, WARD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, None), 5)
    f.do(ConfirmResult(0), 6)  # the hold ends at 6 s
    f.do(SetFocus(ZAVULON, f.uid(ZAVULON, WARD.card_id)), 100)
    assert situation_deadline(f.state) == at(186)
    f.tick(186)
    assert not f.state.ended
    f.tick(186.1)
    assert f.state.ended and f.state.ended_at == at(186)
    replays(f)


def test_S2_a_round_break_holds_the_situation_open_and_the_clock_restarts_at_the_next_round():
    """S2 reading: between rounds the gap does not run; the next round's start restarts it."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, SHIELD.card_id)), 5)
    f.do(ConfirmResult(0), 6)
    assert f.duel.phase == BETWEEN_ROUNDS
    f.tick(1000)
    assert not f.state.ended
    f.do(RoundChoice(0, ANTON, True, (DART,)), 1000)
    f.do(RoundChoice(0, ZAVULON, True, (SHIELD,)), 1010)
    assert f.duel.round == 2 and situation_deadline(f.state) == at(1190)
    replays(f)


def test_S2_an_unanswered_step_that_times_out_counts_at_its_deadline():
    """S2/D8: the window running out is a combat action at the deadline, not at the next poll."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.tick(500)
    # D8 at 15 s, then the gap from 15 s: ended at 195 s, long before the poll at 500 s.
    assert f.state.ended and f.state.ended_at == at(195)
    assert f.duel.steps_done[-1].timed_out
    replays(f)


# --- IA -----------------------------------------------------------------------------------------


def test_IA1_one_condition_missing_converts_the_blow_to_aggression_with_an_answer_window():
    """IA1: out of sight but too far: an ordinary attack (AG), nothing drawn, the victim answers within D8."""
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, focus=SHIELD.card_id))
    cmd = InstantAttack(ANTON, ZAVULON, f.uid(ANTON, FIRE.card_id), True, False)
    assert draw_size_for(f.state, cmd) == 0
    events = f.do(cmd, 0)
    assert first(ConvertedToAggression, events).rule == "IA1"
    assert f.duel.opened_by == AGGRESSION and f.duel.phase == AWAIT_ANSWER
    assert not f.state.instant_attack_used
    replays(f)


def test_IA2_the_attacker_strikes_only_with_an_attack_card_of_their_own_hand():
    """IA2: a defence card, or an attack card the attacker does not hold, is refused."""
    f = Fight(setup(ANTON, FIRE, SHIELD), setup(ZAVULON, WARD))
    err = f.refused(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, SHIELD.card_id), True, True), 0)
    assert err.rule_id == "IA2"
    err = f.refused(InstantAttack(ANTON, ZAVULON, f.uid(ZAVULON, WARD.card_id), True, True), 0)
    assert err.rule_id == "IA2"


def test_IA3_IA7_a_victim_with_an_empty_hand_cannot_parry():
    """IA3: nothing to draw (a draw index is refused); proposed not parried and the full effect lands (IA7)."""
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON))
    cmd = InstantAttack(ANTON, ZAVULON, f.uid(ANTON, FIRE.card_id), True, True)
    assert draw_size_for(f.state, cmd) == 0
    assert f.refused(cmd, 0, draw=0).rule_id == "IA3"
    f.do(cmd, 0)
    assert f.duel.step.proposed == NOT_PARRIED and f.duel.step.answer_card is None
    f.do(ConfirmResult(0), 5)
    assert f.duel.result == "instant_attack_succeeded"
    assert f.fighter(ZAVULON).condition == FIRE.full_effect
    replays(f)


def test_IA3_IA4_a_victim_holding_only_attack_cards_draws_one_that_does_nothing_and_keeps_it():
    """IA3/IA4: the blind draw may hit an attack card: not parried, and it stays in the victim's hand."""
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, DART, SLEEP))
    ia(f, 0, draw=1)
    drawn = f.duel.step.answer_card
    assert f.state.cards[drawn].card_id == SLEEP.card_id and f.duel.step.proposed == NOT_PARRIED
    events = f.do(ConfirmResult(0), 5)
    assert first(CardKept, events).card == drawn
    assert drawn in f.fighter(ZAVULON).hand and drawn not in f.fighter(ZAVULON).discards
    assert f.fighter(ANTON).discards == [f.duel.steps_done[0].attack_card]
    replays(f)


def test_IA3_the_draw_index_must_lie_in_the_victims_current_hand():
    """IA3: the draw chooses among the cards held now; an index past the hand is refused."""
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, WARD))
    cmd = InstantAttack(ANTON, ZAVULON, f.uid(ANTON, FIRE.card_id), True, True)
    assert draw_size_for(f.state, cmd) == 2
    assert f.refused(cmd, 0, draw=2).rule_id == "IA3"
    assert f.refused(cmd, 0, draw=None).rule_id == "IA3"


def test_IA4_IA5_softened_and_still_standing_goes_on_the_victim_attacks_next_with_the_same_arsenals():
    """IA4/IA5/D5: softened (light wound) - both cards spent, victim attacks first, no arsenal change (IA5)."""
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD, DART))
    ia(f, 0, draw=idx(f, ZAVULON, SHIELD))
    assert f.state.cards[f.duel.step.answer_card].card_id == SHIELD.card_id
    f.do(ConfirmResult(0), 5)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED and can_fight(LIGHTLY_WOUNDED)
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON and f.duel.round == 1
    assert len(f.fighter(ZAVULON).discards) == 1
    err = f.refused(RoundChoice(0, ZAVULON, True, (SHIELD, SHIELD)), 6)
    assert err.rule_id == "IA5"
    replays(f)


def test_IA5_softened_but_out_of_the_fight_ends_the_duel():
    """IA5 reading: softened into paralysis (cannot fight, D11) - no duel goes on."""
    f = Fight(setup(ANTON, SLEEP, DART), setup(ZAVULON, SHIELD, DART))
    ia(f, 0, card=SLEEP, draw=idx(f, ZAVULON, SHIELD))
    f.do(ConfirmResult(0, SOFTENED, "shield caught half of it"), 5)
    assert f.fighter(ZAVULON).condition == PARALYSED
    assert f.duel.phase == ENDED and f.duel.result == "fighter_out"
    replays(f)


def test_IA5_D10_a_parrying_victim_without_an_attack_card_passes_and_the_attacker_strikes_again():
    """IA5/D10: the victim attacks next, but with no attack card passes; the attacker attacks again."""
    f = Fight(setup(ANTON, DART, FIRE), setup(ZAVULON, SHIELD, WARD))
    ia(f, 0, card=DART, draw=idx(f, ZAVULON, SHIELD))
    events = f.do(ConfirmResult(0), 5)
    assert first(Passed, events).fighter == ZAVULON
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ANTON
    replays(f)


def test_IA6_a_second_instant_attack_inside_the_gap_is_ordinary_even_on_another_pair():
    """IA6: after one instant attack, another one in the same situation (3 min not over) is converted."""
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD), setup(OLGA, DART, HEAL), setup(4, DART))
    ia(f, 0)
    f.do(EndDuel(0, "they parted"), 10)
    cmd = InstantAttack(OLGA, 4, f.uid(OLGA, DART.card_id), True, True)
    assert draw_size_for(f.state, cmd) == 0
    events = f.do(cmd, 170)
    assert first(ConvertedToAggression, events).rule == "IA6"
    assert f.duel.opened_by == AGGRESSION and f.duel.phase == AWAIT_ANSWER
    replays(f)


def test_IA6_S2_after_the_gap_the_old_situation_refuses_everything():
    """IA6/S2: once more than 3 minutes passed since the instant attack's hold ended, the situation is over."""
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD))
    ia(f, 0)
    f.do(EndDuel(0, "they parted"), 10)
    f.tick(190.1)
    assert f.state.ended
    err = f.refused(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, DART.card_id), True, True), 191)
    assert err.rule_id == "S2"


def test_IA7_not_parried_with_a_light_effect_still_ends_the_exchange():
    """IA7: the instant attack succeeded - full effect, and no ordinary duel follows (that is IA5's case only)."""
    f = Fight(setup(ANTON, DART, FIRE), setup(ZAVULON, HEAL, FIRE))
    ia(f, 0, card=DART, parry=False)
    f.do(ConfirmResult(0), 3)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED
    assert f.duel.phase == ENDED and f.duel.result == "instant_attack_succeeded"
    assert len(f.fighter(ZAVULON).hand) == 2
    replays(f)


# --- F ------------------------------------------------------------------------------------------


def test_F1_only_a_defence_spell_of_ones_own_hand_is_focused():
    """F1: an attack card, a defence ability (setting off) or a card not in hand cannot be focused."""
    f = Fight(setup(ANTON, FIRE, ABILITY_WARD, SHIELD), setup(ZAVULON, WARD))
    assert f.refused(SetFocus(ANTON, f.uid(ANTON, FIRE.card_id)), 0).rule_id == "F1"
    assert f.refused(SetFocus(ANTON, f.uid(ANTON, ABILITY_WARD.card_id)), 0).rule_id == "F1"
    assert f.refused(SetFocus(ANTON, f.uid(ZAVULON, WARD.card_id)), 0).rule_id == "F1"
    f.do(SetFocus(ANTON, f.uid(ANTON, SHIELD.card_id)), 0)
    g = Fight(setup(ANTON, ABILITY_WARD), settings=Settings(focus_abilities=True))
    g.do(SetFocus(ANTON, g.uid(ANTON, ABILITY_WARD.card_id)), 0)
    assert g.fighter(ANTON).focus is not None


def test_F1_the_focused_card_answers_and_one_focus_replaces_the_other():
    """F1: one focus at a time; the focused card answers the instant attack with no draw."""
    f = Fight(setup(ANTON, SLEEP), setup(ZAVULON, SHIELD, WARD, DART))
    f.do(SetFocus(ZAVULON, f.uid(ZAVULON, SHIELD.card_id)), 0)
    ward = f.uid(ZAVULON, WARD.card_id)
    f.do(SetFocus(ZAVULON, ward), 1)
    assert f.fighter(ZAVULON).focus == ward
    ia(f, 2, card=SLEEP, draw=None)
    assert f.duel.step.answer_card == ward and f.duel.step.draw is None
    assert f.duel.step.proposed == PARRIED
    f.do(ConfirmResult(0), 4)
    assert f.fighter(ZAVULON).focus is None and ward in f.fighter(ZAVULON).discards
    replays(f)


def test_F1_a_focus_answered_with_in_an_ordinary_step_is_spent_and_the_focus_goes():
    """F1/D9: the focused card played as an ordinary answer is discarded and is no longer the focus."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, WARD))
    shield = f.uid(ZAVULON, SHIELD.card_id)
    f.do(SetFocus(ZAVULON, shield), 0)
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 1)
    f.do(Answer(0, ZAVULON, shield), 3)
    f.do(ConfirmResult(0), 4)
    assert f.fighter(ZAVULON).focus is None and shield in f.fighter(ZAVULON).discards
    replays(f)


# --- AG -----------------------------------------------------------------------------------------


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


# --- D ------------------------------------------------------------------------------------------


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
    ia(f, 0, card=DART, focus_held=False, draw=idx(f, ZAVULON, SHIELD))
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


def test_D10_roles_swap_at_every_step():
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


# --- CR -----------------------------------------------------------------------------------------


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
    ia(f, 0, draw=idx(f, ZAVULON, WARD))
    assert f.duel.step.proposed == NOT_PARRIED
    ward = f.duel.step.answer_card
    f.do(ConfirmResult(0, PARRIED, "ward also stops fire at this event"), 2)
    assert ward in f.fighter(ZAVULON).discards and f.fighter(ZAVULON).condition == "fit"
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON
    replays(f)

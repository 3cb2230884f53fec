"""Whole fights that start with an instant attack, walked the way a referee meets them.

Each test follows one situation from the first blow to its end, checking the
rules it cites at every step and, at the end, that the log replays to the
same state (DESIGN.md §4).
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
    NO_EFFECT,
    NOT_PARRIED,
    PARALYSED,
    PARRIED,
    SOFTENED,
    CardFace,
    CounterRule,
)
from rules.duel import (
    AGGRESSION,
    AWAIT_ANSWER,
    AWAIT_ATTACK,
    BETWEEN_ROUNDS,
    ENDED,
    INSTANT_ATTACK,
    Answer,
    Attack,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    InstantAttack,
    RoundChoice,
    SetFocus,
    attack_cards,
    draw_size_for,
    instant_attack_draw_size,
    replay,
    to_dict,
)
from rules.duel.events import CardKept, ConvertedToAggression, DuelEnded, FighterOut, Passed, ResultApplied
from tests.rules.duel.kit import (
    ANTON,
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

BORIS = 4


def ia(f, attacker, victim, card_id, t, *, draw=None, sight=True, reach=True):
    return f.do(InstantAttack(attacker, victim, f.uid(attacker, card_id), sight, reach), t, draw=draw)


def replays(f):
    assert to_dict(replay(f.opening, f.log)) == to_dict(f.state)


def hand_ids(f, fighter):
    return sorted(f.state.cards[u].card_id for u in f.fighter(fighter).hand)


# --- IA1: conversion -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("out_of_sight", "within_reach"), [(False, True), (True, False), (False, False)], ids=["seen", "far", "both"]
)
def test_IA1_AG1_D8_a_failed_condition_makes_the_card_the_open_first_attack_answered_in_the_window(
    out_of_sight, within_reach
):
    """IA1 (either condition failing, or both) -> AG1: the victim answers by choice within D8."""
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, WARD, SHIELD, DART, focus=WARD.card_id))
    fire = f.uid(ANTON, 1)
    events = f.do(InstantAttack(ANTON, ZAVULON, fire, out_of_sight, within_reach), 10, draw=1)
    assert types(events)[:4] == ["converted_to_aggression", "duel_opened", "round_started", "attack_shown"]
    assert the(ConvertedToAggression, events[0]).rule == "IA1"
    assert "card_drawn" not in types(events)
    duel = f.duel
    assert duel.opened_by == AGGRESSION and duel.phase == AWAIT_ANSWER
    assert duel.step.attack_card == fire and not duel.step.instant and not duel.step.drawn
    assert duel.step.answer_deadline == at(25)
    # No surprise: the victim's arsenal is untouched and the focus does not answer by itself.
    assert len(f.fighter(ZAVULON).hand) == 3 and f.fighter(ZAVULON).focus == f.uid(ZAVULON, 12)
    assert not f.state.instant_attack_used
    # The victim chooses the answer (D7) - not the focused Ward but the Shield - at 14.9 s.
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 24.9)
    assert f.duel.step.proposed == SOFTENED
    f.do(ConfirmResult(0), 26)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED
    # AG2: frozen arsenals in round 1, for both sides.
    for who in (ANTON, ZAVULON):
        assert f.refused(RoundChoice(0, who, True, (FIRE,)), 27).rule_id == "AG2"
    # D10: roles swap - the victim attacks next, as in any aggression.
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, 2)), 28)
    f.do(Answer(0, ANTON, None), 29)
    f.do(ConfirmResult(0), 30)
    assert f.fighter(ANTON).condition == LIGHTLY_WOUNDED
    assert f.duel.attacker == ANTON
    replays(f)


def test_IA1_IA6_a_converted_attack_is_not_an_instant_attack_so_one_may_still_follow():
    """IA6 counts instant attacks made; an IA1 conversion made none, so a later surprise is allowed."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD), setup(OLGA, SLEEP), setup(BORIS, WARD, HEAL))
    ia(f, ANTON, ZAVULON, 2, 1, sight=False, draw=0)
    assert f.duel.opened_by == AGGRESSION
    ia(f, OLGA, BORIS, 3, 2, draw=0)
    assert f.duel.opened_by == INSTANT_ATTACK and f.state.instant_attack_used
    replays(f)


def test_IA1_conversion_still_respects_D1_and_D11():
    """The converted blow is an ordinary attack: no target already in a duel (D1) or out of the fight (D11)."""
    f = Fight(setup(ANTON, DART, FIRE), setup(ZAVULON, SHIELD), setup(OLGA, FIRE, condition=HEAVILY_WOUNDED))
    f.do(DeclareAggression(ZAVULON, ANTON), 1)
    err = f.refused(InstantAttack(OLGA, ANTON, f.uid(OLGA, 1), False, True), 2)
    assert err.rule_id == "D1"
    f.do(EndDuel(0, "parted"), 3)
    err = f.refused(InstantAttack(ANTON, OLGA, f.uid(ANTON, 1), False, False), 4)
    assert err.rule_id == "D11"


# --- IA6: one per situation ----------------------------------------------------------------------


def test_IA6_a_second_instant_attack_in_the_situation_is_ordinary_even_by_another_pair():
    """IA6: after one instant attack any other - by the same or another pair, IA1 met - is an ordinary attack."""
    f = Fight(
        setup(ANTON, DART, FIRE),
        setup(ZAVULON, SHIELD, FIRE),
        setup(OLGA, SLEEP, FIRE),
        setup(BORIS, WARD, SHIELD, HEAL),
    )
    ia(f, ANTON, ZAVULON, 2, 1, draw=0)  # Shield parries the Dart
    f.do(ConfirmResult(0), 2)
    assert f.duel.phase == AWAIT_ATTACK  # IA5: the duel goes on
    # Another pair in the same situation, every IA1 condition met, 60 s later.
    boris_hand = list(f.fighter(BORIS).hand)
    events = ia(f, OLGA, BORIS, 3, 60, draw=2)
    assert events[0] == ConvertedToAggression(rule="IA6", attacker=OLGA, victim=BORIS)
    duel = f.duel
    assert duel.number == 1 and duel.opened_by == AGGRESSION and duel.phase == AWAIT_ANSWER
    assert duel.step.answer_deadline == at(75) and not duel.step.instant
    assert f.fighter(BORIS).hand == boris_hand  # nothing drawn
    f.do(Answer(1, BORIS, f.uid(BORIS, 12)), 70)
    f.do(ConfirmResult(1), 71)
    assert f.fighter(BORIS).condition == FIT
    # The first pair, duel over, tries again later: still ordinary.
    f.do(EndDuel(0, "Anton ran"), 100)
    events = ia(f, ZAVULON, ANTON, 1, 150)
    assert events[0].rule == "IA6" and f.duel.opened_by == AGGRESSION
    replays(f)


def test_IA6_IA1_when_both_apply_the_conversion_cites_IA1():
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, SHIELD))
    ia(f, ANTON, ZAVULON, 2, 1, draw=0)
    f.do(ConfirmResult(0, NOT_PARRIED, "too slow"), 2)
    events = ia(f, ANTON, ZAVULON, 2, 3, sight=False)
    assert events[0].rule == "IA1"


def test_S2_IA6_after_the_gap_the_situation_is_over_and_only_a_new_one_allows_an_instant_attack():
    """S2: more than the gap without action ends the situation; IA6 is per situation."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, WARD))
    ia(f, ANTON, ZAVULON, 2, 0, draw=1)  # Ward does nothing against a Dart
    f.do(ConfirmResult(0), 5)
    assert f.duel.result == "instant_attack_succeeded"
    # 2:59 later another surprise is ordinary (IA6) ...
    events = ia(f, ANTON, ZAVULON, 2, 184)
    assert events[0].rule == "IA6"
    f.do(EndDuel(1, "separated"), 185)
    # ... and once more than 3 minutes pass, the situation is over: nothing more happens in it.
    assert types(f.tick(365.5)) == ["situation_ended"]
    assert f.refused(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 2), True, True), 366, draw=0).rule_id == "S2"
    # The next action opens a new situation, with its own instant attack.
    g = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD, WARD))
    ia(g, ANTON, ZAVULON, 2, 0, draw=0)
    assert g.duel.opened_by == INSTANT_ATTACK


# --- F1: focus in an instant attack --------------------------------------------------------------


def test_F1_IA3_IA4_IA5_a_focused_victim_parries_with_the_focus_and_fights_back():
    f = Fight(setup(ANTON, SLEEP, DART), setup(ZAVULON, SHIELD, WARD, FIRE, focus=WARD.card_id))
    ward = f.uid(ZAVULON, 12)
    assert instant_attack_draw_size(f.state, ZAVULON) == 0
    # No draw with a focus: a draw index is refused.
    assert f.refused(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 3), True, True), 1, draw=0).rule_id == "IA3"
    events = ia(f, ANTON, ZAVULON, 3, 1)
    drawn = next(e for e in events if e.type == "card_drawn")
    assert drawn.card == ward and drawn.by_focus is True and drawn.draw is None
    assert f.duel.step.answer_card == ward and f.duel.step.proposed == PARRIED
    f.do(ConfirmResult(0), 3)
    assert f.fighter(ZAVULON).condition == FIT
    assert ward in f.fighter(ZAVULON).discards and f.fighter(ZAVULON).focus is None
    # IA5: the victim attacks next.
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON
    replays(f)


def test_F1_IA3_a_focus_played_earlier_in_the_situation_is_gone_so_the_victim_draws_blind():
    """F1: the focused card answered an ordinary attack earlier and was spent: the IA draws blind."""
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, HEAL, DART, focus=SHIELD.card_id), setup(OLGA, DART))
    shield = f.uid(ZAVULON, 10)
    f.do(DeclareAggression(OLGA, ZAVULON, f.uid(OLGA, 2)), 1)
    f.do(Answer(0, ZAVULON, shield), 2)
    assert f.fighter(ZAVULON).focus == shield  # in play, not yet spent
    f.do(ConfirmResult(0), 3)  # parried
    assert f.fighter(ZAVULON).focus is None
    f.do(EndDuel(0, "Olga left"), 4)
    assert instant_attack_draw_size(f.state, ZAVULON) == 2
    hand = list(f.fighter(ZAVULON).hand)
    events = ia(f, ANTON, ZAVULON, 1, 10, draw=0)
    drawn = next(e for e in events if e.type == "card_drawn")
    assert drawn.by_focus is False and drawn.card == hand[0] != shield
    replays(f)


def test_F1_IA4_a_focus_that_did_nothing_stays_focused_for_the_next_situation():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, WARD, SHIELD, focus=WARD.card_id))
    ward = f.uid(ZAVULON, 12)
    ia(f, ANTON, ZAVULON, 1, 1)
    assert f.duel.step.proposed == NOT_PARRIED
    events = f.do(ConfirmResult(0), 2)
    assert CardKept(duel=0, fighter=ZAVULON, card=ward) in events
    assert f.fighter(ZAVULON).focus == ward and ward in f.fighter(ZAVULON).hand
    assert f.fighter(ZAVULON).condition == HEAVILY_WOUNDED  # IA7
    replays(f)


def test_F1_a_focus_moved_before_the_attack_answers_instead_of_the_old_one():
    f = Fight(setup(ANTON, SLEEP), setup(ZAVULON, SHIELD, WARD, focus=SHIELD.card_id))
    f.do(SetFocus(ZAVULON, f.uid(ZAVULON, 12)), 1)
    ia(f, ANTON, ZAVULON, 3, 2)
    assert f.duel.step.answer_card == f.state.fighters[ZAVULON].focus
    assert f.state.cards[f.duel.step.answer_card].card_id == 12
    f.do(SetFocus(ZAVULON, None), 3)  # dropping the focus mid-step changes nothing already drawn
    f.do(ConfirmResult(0), 4)
    assert f.fighter(ZAVULON).condition == FIT


# --- IA4: what is spent ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outcome", "spent", "condition"),
    [(PARRIED, True, FIT), (SOFTENED, True, LIGHTLY_WOUNDED), (NOT_PARRIED, False, HEAVILY_WOUNDED)],
)
def test_IA4_CR1_the_drawn_card_is_spent_only_when_it_parried_or_softened(outcome, spent, condition):
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, HEAL, WARD))
    fire, heal = f.uid(ANTON, 1), f.uid(ZAVULON, 11)
    ia(f, ANTON, ZAVULON, 1, 1, draw=0)
    assert f.duel.step.answer_card == heal and f.duel.step.proposed == SOFTENED  # Healing softens a Fireball
    reason = "" if outcome == SOFTENED else "the referee saw otherwise"
    f.do(ConfirmResult(0, outcome, reason), 2)
    assert fire in f.fighter(ANTON).discards  # the attacker's card is spent
    assert (heal in f.fighter(ZAVULON).discards) is spent
    assert (heal in f.fighter(ZAVULON).hand) is not spent
    assert f.fighter(ZAVULON).condition == condition
    record = f.duel.steps_done[0]
    assert record.instant and record.outcome == outcome and record.override_reason == reason
    replays(f)


def test_IA4_a_drawn_attack_card_does_nothing_and_goes_back_to_the_hand():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, FIRE, SHIELD))
    fire = f.uid(ZAVULON, 1)
    ia(f, ANTON, ZAVULON, 2, 1, draw=0)
    assert f.duel.step.answer_card == fire and f.duel.step.proposed == NOT_PARRIED
    f.do(ConfirmResult(0), 2)
    assert fire in f.fighter(ZAVULON).hand and f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED


# --- IA5: the duel goes on -------------------------------------------------------------------------


def test_IA5_D3_D10_a_parried_instant_attack_becomes_a_duel_with_frozen_arsenals_in_round_one():
    f = Fight(setup(ANTON, DART, FIRE, HEAL), setup(ZAVULON, SHIELD, SLEEP, WARD))
    ia(f, ANTON, ZAVULON, 2, 0, draw=0)  # the Shield parries the Dart
    f.do(ConfirmResult(0), 2)
    duel = f.duel
    assert duel.opened_by == INSTANT_ATTACK and duel.round == 1
    assert duel.phase == AWAIT_ATTACK and duel.attacker == ZAVULON  # the victim answers the blow
    # IA5: no restoring or rebuilding in round 1, by either side, at any phase of it.
    for who in (ANTON, ZAVULON):
        assert f.refused(RoundChoice(0, who, True, (FIRE, FIRE)), 3).rule_id == "IA5"
        assert f.refused(RoundChoice(0, who, True), 3).rule_id == "IA5"
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, 3)), 4)
    assert f.duel.step.answer_deadline == at(19)  # an ordinary step, with the D8 window
    assert f.refused(RoundChoice(0, ANTON, True, (FIRE,)), 5).rule_id == "IA5"
    f.do(Answer(0, ANTON, f.uid(ANTON, 11)), 5)
    f.do(ConfirmResult(0, PARRIED, "Healing woke him at once"), 6)
    # Anton still holds the Fireball: he attacks; Zavulon holds only Ward.
    assert f.duel.attacker == ANTON
    f.do(Attack(0, ANTON, f.uid(ANTON, 1)), 7)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 12)), 8)
    events = f.do(ConfirmResult(0), 9)  # Ward does nothing against fire
    assert f.fighter(ZAVULON).condition == HEAVILY_WOUNDED
    assert f.duel.result == "fighter_out" and "fighter_out" in types(events)
    replays(f)


def test_IA5_D3_D10_round_two_lets_arsenals_change_and_the_victim_opens_it():
    """IA5 freezes only round 1; D3 from round 2; D10 reading: the victim defended the first blow, so opens round 2."""
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, SHIELD, DART))
    ia(f, ANTON, ZAVULON, 2, 0, draw=0)
    f.do(ConfirmResult(0), 1)  # parried
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, 2)), 2)
    f.do(Answer(0, ANTON, f.uid(ANTON, 10)), 3)
    f.do(ConfirmResult(0), 4)  # parried; nobody holds an attack card
    assert f.duel.phase == BETWEEN_ROUNDS and f.duel.round == 1
    f.do(RoundChoice(0, ANTON, True, (FIRE, SHIELD), "prepared: fire"), 10)
    events = f.do(RoundChoice(0, ZAVULON, True, (SLEEP, WARD)), 11)
    assert types(events).count("arsenal_changed") == 2
    assert f.duel.round == 2 and f.duel.attacker == ZAVULON
    assert hand_ids(f, ANTON) == [1, 10] and hand_ids(f, ZAVULON) == [3, 12]
    replays(f)


def test_IA5_D10_a_victim_with_no_attack_card_passes_and_the_attacker_strikes_again():
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, SHIELD))
    ia(f, ANTON, ZAVULON, 2, 0, draw=1)
    events = f.do(ConfirmResult(0), 1)
    assert Passed(duel=0, round=1, fighter=ZAVULON) in events
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ANTON


def test_IA5_a_softened_instant_attack_that_leaves_the_victim_standing_goes_on():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD, DART))
    ia(f, ANTON, ZAVULON, 1, 0, draw=0)
    assert f.duel.step.proposed == SOFTENED
    f.do(ConfirmResult(0), 1)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON and f.duel.result is None


@pytest.mark.parametrize("softened", [HEAVILY_WOUNDED, PARALYSED, HELPLESS])
def test_IA5_D11_a_softened_instant_attack_that_leaves_the_victim_out_ends_without_a_duel(softened):
    curse = CardFace(5, "Curse", ATTACK, DEAD, softened, ("dark",))
    amulet = CardFace(13, "Amulet", DEFENCE)
    f = Fight(
        setup(ANTON, curse, DART), setup(ZAVULON, amulet, DART), counters=[CounterRule(13, None, "dark", SOFTENED)]
    )
    ia(f, ANTON, ZAVULON, 5, 0, draw=0)
    events = f.do(ConfirmResult(0), 1)
    assert f.fighter(ZAVULON).condition == softened
    assert f.duel.phase == ENDED and f.duel.result == "fighter_out"
    assert "round_started" not in types(events) and "passed" not in types(events)
    assert FighterOut(duel=0, fighter=ZAVULON, condition=softened) in events
    # The victim is out: no new duel with or against them (D11).
    assert f.refused(DeclareAggression(ZAVULON, ANTON), 2).rule_id == "D11"
    assert f.refused(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 2).rule_id == "D11"
    replays(f)


# --- IA7: success ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("card", "condition"), [(SLEEP, HELPLESS), (DART, LIGHTLY_WOUNDED), (FIRE, HEAVILY_WOUNDED)])
def test_IA7_an_unparried_instant_attack_has_its_full_effect_and_ends_the_exchange(card, condition):
    f = Fight(setup(ANTON, card), setup(ZAVULON, HEAL, DART, condition=FIT))
    ia(f, ANTON, ZAVULON, card.card_id, 0, draw=1)  # the Dart: no defence at all
    assert f.duel.step.proposed == NOT_PARRIED
    events = f.do(ConfirmResult(0), 1)
    assert f.fighter(ZAVULON).condition == condition
    assert f.duel.phase == ENDED and f.duel.result == "instant_attack_succeeded"
    assert the(DuelEnded, events[-1]).conditions[str(ZAVULON)] == condition
    replays(f)


def test_IA7_AG1_a_victim_still_standing_may_answer_with_aggression_but_not_a_second_surprise():
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, FIRE, WARD))
    ia(f, ANTON, ZAVULON, 2, 0, draw=1)  # Ward does nothing
    f.do(ConfirmResult(0), 1)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED
    events = ia(f, ZAVULON, ANTON, 1, 5)  # behind Anton's back, within reach: still IA6
    assert the(ConvertedToAggression, events[0]).rule == "IA6" and f.duel.phase == AWAIT_ANSWER
    f.do(Answer(1, ANTON, f.uid(ANTON, 10)), 6)
    f.do(ConfirmResult(1), 7)
    assert f.fighter(ANTON).condition == LIGHTLY_WOUNDED  # Shield softens fire
    assert not attack_cards(f.state, ANTON) and not attack_cards(f.state, ZAVULON)
    assert f.duel.phase == BETWEEN_ROUNDS
    replays(f)


def test_IA3_IA7_an_empty_handed_victim_cannot_parry():
    f = Fight(setup(ANTON, SLEEP), setup(ZAVULON))
    events = ia(f, ANTON, ZAVULON, 3, 0)
    assert "card_drawn" not in types(events) and f.duel.step.proposed == NOT_PARRIED
    f.do(ConfirmResult(0), 1)
    assert f.fighter(ZAVULON).condition == HELPLESS and f.duel.result == "instant_attack_succeeded"


def test_IA4_CR2_the_referee_can_rule_a_drawn_card_parried_against_the_proposal():
    f = Fight(setup(ANTON, SLEEP, DART), setup(ZAVULON, HEAL, DART))
    ia(f, ANTON, ZAVULON, 3, 0, draw=0)
    assert f.duel.step.proposed == NOT_PARRIED
    assert f.refused(ConfirmResult(0, PARRIED), 1).rule_id == "CR2"
    events = f.do(ConfirmResult(0, PARRIED, "Healing cured the sleep"), 1)
    applied = first(ResultApplied, events)
    assert applied.overridden and applied.reason == "Healing cured the sleep"
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON  # IA5


def test_IA_D2_ending_the_duel_before_the_result_gives_the_cards_back_but_the_surprise_is_used():
    """Reading: the instant attack was made (IA6) even if the referee ends the duel before deciding it."""
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, focus=SHIELD.card_id))
    ia(f, ANTON, ZAVULON, 1, 0)
    events = f.do(EndDuel(0, "wrong people"), 1)
    assert types(events) == ["step_cancelled", "duel_ended"]
    assert f.uid(ANTON, 1) and f.uid(ZAVULON, 10) == f.fighter(ZAVULON).focus
    assert f.state.instant_attack_used
    assert ia(f, ANTON, ZAVULON, 1, 2)[0].rule == "IA6"


def test_NO_EFFECT_softened_dart_changes_nothing():
    """CR1: an effect of "none" leaves the condition as it is."""
    assert DART.softened_effect == NO_EFFECT
    f = Fight(setup(ANTON, DART), setup(ZAVULON, HEAL, SHIELD))
    ia(f, ANTON, ZAVULON, 2, 0, draw=0)
    f.do(ConfirmResult(0, SOFTENED, "half-healed"), 1)
    assert f.fighter(ZAVULON).condition == FIT


def test_IA3_IA1_IA6_only_a_real_instant_attack_needs_a_blind_draw():
    """draw_size_for tells the caller how many cards to draw among: none for a conversion or a focused victim."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, HEAL, WARD), setup(OLGA, SHIELD, focus=SHIELD.card_id))
    dart = f.uid(ANTON, 2)
    assert draw_size_for(f.state, InstantAttack(ANTON, ZAVULON, dart, False, True)) == 0
    assert draw_size_for(f.state, InstantAttack(ANTON, ZAVULON, dart, True, False)) == 0
    assert draw_size_for(f.state, InstantAttack(ANTON, OLGA, dart, True, True)) == 0  # focused (F1)
    assert draw_size_for(f.state, InstantAttack(ANTON, ZAVULON, dart, True, True)) == 3  # the three cards
    ia(f, ANTON, ZAVULON, 2, 1, draw=1)
    f.do(ConfirmResult(0, NOT_PARRIED, "slow"), 2)
    assert draw_size_for(f.state, InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 2), True, True)) == 0  # IA6
    # A converted attack still accepts a draw logged by older versions, and ignores it.
    events = ia(f, ANTON, ZAVULON, 2, 3, draw=0)
    assert events[0].rule == "IA6" and "card_drawn" not in types(events)

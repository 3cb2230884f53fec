"""Instant attack (IA1-IA7) and focus in it (F1)."""

import pytest

from rules import HEAVILY_WOUNDED, HELPLESS, LIGHTLY_WOUNDED, NOT_PARRIED, PARRIED, SOFTENED, CardFace
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
    ConfirmResult,
    DeclareAggression,
    InstantAttack,
    RoundChoice,
    SetFocus,
    instant_attack_draw_size,
)
from rules.duel.events import ConvertedToAggression, FighterOut

from .kit import ANTON, DART, FIRE, HEAL, OLGA, SHIELD, SLEEP, WARD, ZAVULON, Fight, at, first, setup, the, types


def ia(f, attacker=ANTON, victim=ZAVULON, card_id=1, *, t=1, draw=None, sight=True, reach=True):
    card = f.uid(attacker, card_id)
    return f.do(InstantAttack(attacker, victim, card, sight, reach), t, draw=draw)


@pytest.mark.parametrize(("out_of_sight", "within_reach"), [(False, True), (True, False), (False, False)])
def test_IA1_without_surprise_the_attack_is_converted_to_aggression(out_of_sight, within_reach):
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD))
    fire = f.uid(ANTON, 1)
    events = ia(f, t=3, sight=out_of_sight, reach=within_reach, draw=0)
    assert events[0] == ConvertedToAggression(rule="IA1", attacker=ANTON, victim=ZAVULON)
    duel = f.duel
    assert duel.opened_by == AGGRESSION and duel.phase == AWAIT_ANSWER
    assert duel.step.attack_card == fire and duel.step.answer_deadline == at(18)
    assert not duel.step.instant and duel.step.answer_card is None
    assert not f.state.instant_attack_used
    assert f.fighter(ZAVULON).hand == [f.uid(ZAVULON, 10)]  # nothing drawn


def test_IA2_the_instant_attack_card_is_an_attack_card_from_the_attackers_hand():
    f = Fight(setup(ANTON, FIRE, SHIELD), setup(ZAVULON, FIRE, SHIELD))
    for card in (f.uid(ANTON, 10), f.uid(ZAVULON, 1), "1:99:9"):
        err = f.refused(InstantAttack(ANTON, ZAVULON, card, True, True), 1, draw=0)
        assert err.rule_id == "IA2"


def test_IA3_the_draw_picks_that_card_of_the_victims_hand_and_shows_it():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, HEAL, DART, SHIELD))
    hand = list(f.fighter(ZAVULON).hand)
    assert instant_attack_draw_size(f.state, ZAVULON) == 3
    events = ia(f, draw=2)
    assert f.duel.step.answer_card == hand[2] and f.duel.step.drawn and f.duel.step.draw == 2
    drawn = next(e for e in events if e.type == "card_drawn")
    assert drawn.card == hand[2] and drawn.by_focus is False and drawn.draw == 2
    assert f.duel.phase == AWAIT_RESULT and f.duel.step.proposed == SOFTENED  # shield vs fire


@pytest.mark.parametrize("draw", [None, -1, 3, 10])
def test_IA3_a_draw_outside_the_hand_is_refused(draw):
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, HEAL, DART, SHIELD))
    err = f.refused(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 1), True, True), 1, draw=draw)
    assert err.rule_id == "IA3"


def test_IA3_F1_the_focused_card_answers_instead_of_a_draw():
    f = Fight(setup(ANTON, SLEEP), setup(ZAVULON, SHIELD, WARD, HEAL, focus=WARD.card_id))
    ward = f.uid(ZAVULON, 12)
    assert instant_attack_draw_size(f.state, ZAVULON) == 0
    err = f.refused(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 3), True, True), 1, draw=0)
    assert err.rule_id == "IA3"
    events = ia(f, card_id=3)
    assert f.duel.step.answer_card == ward
    assert next(e for e in events if e.type == "card_drawn").by_focus is True
    assert f.duel.step.proposed == PARRIED


def test_IA3_a_victim_with_no_cards_and_no_focus_cannot_parry():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON))
    assert instant_attack_draw_size(f.state, ZAVULON) == 0
    events = ia(f)
    assert "card_drawn" not in types(events)
    assert f.duel.step.answer_card is None and f.duel.step.proposed == NOT_PARRIED


def test_IA4_IA7_a_drawn_card_that_does_nothing_stays_in_hand_and_the_attack_succeeds():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, WARD, SHIELD))
    fire, ward = f.uid(ANTON, 1), f.uid(ZAVULON, 12)
    ia(f, draw=0)
    assert f.duel.step.proposed == NOT_PARRIED
    events = f.do(ConfirmResult(0), 5)
    assert "card_kept" in types(events)
    assert ward in f.fighter(ZAVULON).hand and ward not in f.fighter(ZAVULON).discards
    assert fire in f.fighter(ANTON).discards  # the attacker's card is spent
    assert f.fighter(ZAVULON).condition == HEAVILY_WOUNDED  # IA7: full effect
    assert f.duel.phase == ENDED and f.duel.result == "instant_attack_succeeded"
    assert "fighter_out" in types(events)


def test_IA7_a_successful_instant_attack_ends_the_exchange_even_if_the_victim_can_fight():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, WARD))
    ia(f, card_id=2, draw=0)
    f.do(ConfirmResult(0), 5)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED
    assert f.duel.result == "instant_attack_succeeded"


def test_IA4_a_card_that_parried_or_softened_is_spent():
    f = Fight(setup(ANTON, FIRE, FIRE), setup(ZAVULON, SHIELD))
    shield = f.uid(ZAVULON, 10)
    ia(f, draw=0)
    f.do(ConfirmResult(0), 5)  # softened
    assert shield in f.fighter(ZAVULON).discards and shield not in f.fighter(ZAVULON).hand
    g = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    g_shield = g.uid(ZAVULON, 10)
    ia(g, card_id=2, draw=0)
    g.do(ConfirmResult(0), 5)  # parried
    assert g.fighter(ZAVULON).hand == [] and g.fighter(ZAVULON).discards == [g_shield]


def test_IA4_F1_focus_stays_when_the_focused_card_is_not_spent_and_goes_when_it_is():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, WARD, focus=WARD.card_id))
    ward = f.uid(ZAVULON, 12)
    ia(f)
    f.do(ConfirmResult(0), 5)
    assert f.fighter(ZAVULON).focus == ward and ward in f.fighter(ZAVULON).hand
    g = Fight(setup(ANTON, SLEEP), setup(ZAVULON, WARD, focus=WARD.card_id))
    ia(g, card_id=3)
    g.do(ConfirmResult(0), 5)
    assert g.fighter(ZAVULON).focus is None and ward in g.fighter(ZAVULON).discards


def test_IA4_the_referee_override_decides_what_is_spent():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, WARD, DART))
    ward = f.uid(ZAVULON, 12)
    ia(f, draw=0)
    f.do(ConfirmResult(0, PARRIED, "Ward was raised in time"), 5)
    assert ward in f.fighter(ZAVULON).discards
    assert f.duel.steps_done[0].override_reason == "Ward was raised in time"


def test_IA5_after_a_parry_the_duel_goes_on_and_the_victim_attacks_next():
    f = Fight(setup(ANTON, DART, FIRE), setup(ZAVULON, SHIELD, FIRE))
    ia(f, card_id=2, draw=0)
    f.do(ConfirmResult(0), 5)
    duel = f.duel
    assert duel.opened_by == INSTANT_ATTACK and duel.round == 1
    assert duel.phase == AWAIT_ATTACK and duel.attacker == ZAVULON
    # Arsenals are frozen until round 1 ends: no restoring, no rebuilding.
    err = f.refused(RoundChoice(0, ANTON, True, (FIRE, FIRE)), 6)
    assert err.rule_id == "IA5"
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, 1)), 7)
    assert f.duel.step.answer_deadline == at(22)  # an ordinary step now, with a window


def test_IA5_softened_and_still_standing_goes_on():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, SHIELD, DART))
    ia(f, draw=0)
    f.do(ConfirmResult(0), 5)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON


def test_IA5_softened_but_out_of_the_fight_ends_the_duel():
    sleep_heavy = CardFace(4, "Deep Sleep", "attack", "dead", HELPLESS, ("mind",))
    f = Fight(setup(ANTON, sleep_heavy), setup(ZAVULON, WARD), counters=[])
    ia(f, card_id=4, draw=0)
    events = f.do(ConfirmResult(0, SOFTENED, "the ward half-held"), 5)
    assert f.fighter(ZAVULON).condition == HELPLESS
    assert f.duel.result == "fighter_out"
    out = first(FighterOut, events)
    assert out.fighter == ZAVULON and out.condition == HELPLESS


def test_IA5_D11_after_round_one_of_an_instant_attack_arsenals_may_change():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    ia(f, card_id=2, draw=0)
    f.do(ConfirmResult(0), 5)  # parried; nobody holds an attack card: round over
    assert f.duel.phase == BETWEEN_ROUNDS
    f.do(RoundChoice(0, ANTON, True, (FIRE,)), 6)


def test_IA6_only_one_instant_attack_per_situation_the_next_is_ordinary():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD), setup(OLGA, FIRE))
    ia(f, card_id=2, draw=0)
    f.do(ConfirmResult(0, NOT_PARRIED, "test"), 5)
    assert f.state.instant_attack_used
    events = f.do(InstantAttack(OLGA, ZAVULON, f.uid(OLGA, 1), True, True), 60, draw=0)
    assert the(ConvertedToAggression, events[0]).rule == "IA6"
    assert f.duel.opened_by == AGGRESSION and f.duel.phase == AWAIT_ANSWER


def test_IA6_a_new_situation_allows_an_instant_attack_again():
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD))
    ia(f, card_id=2, draw=0)
    f.do(ConfirmResult(0, NOT_PARRIED, "test"), 5)
    f.tick(500)
    assert f.state.ended
    g = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    ia(g, card_id=2, draw=0)
    assert g.duel.opened_by == INSTANT_ATTACK


def test_D1_no_instant_attack_on_someone_already_in_a_duel():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, FIRE), setup(OLGA, FIRE))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    err = f.refused(InstantAttack(OLGA, ZAVULON, f.uid(OLGA, 1), True, True), 2, draw=0)
    assert err.rule_id == "D1"
    err = f.refused(InstantAttack(ZAVULON, OLGA, f.uid(ZAVULON, 1), True, True), 2, draw=0)
    assert err.rule_id == "D1"


def test_IA3_unused_card_back_in_hand_can_be_drawn_and_played_later():
    f = Fight(setup(ANTON, FIRE, DART), setup(ZAVULON, WARD, HEAL))
    ward = f.uid(ZAVULON, 12)
    ia(f, card_id=2, draw=0)
    f.do(ConfirmResult(0, NOT_PARRIED, "x"), 2)
    f.do(SetFocus(ZAVULON, ward), 3)
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 4)
    f.do(Answer(1, ZAVULON, ward), 5)
    assert f.fighter(ZAVULON).focus == ward  # in play, not yet spent
    f.do(ConfirmResult(1), 6)
    assert ward in f.fighter(ZAVULON).discards and f.fighter(ZAVULON).focus is None

"""Instant attack (IA1-IA7) and focus in it (F1)."""

import pytest

from rules import (
    HEAVILY_WOUNDED,
    HELPLESS,
    LIGHTLY_WOUNDED,
    NOT_PARRIED,
    PARALYSED,
    PARRIED,
    SOFTENED,
    CardFace,
    RuleError,
    can_fight,
    check_focus,
)
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
    EndDuel,
    InstantAttack,
    RoundChoice,
    SetFocus,
    Settings,
    draw_size_for,
    instant_attack_draw_size,
)
from rules.duel.events import CardDrawn, CardKept, ConvertedToAggression, FighterOut, Passed
from rules.duel.state import ANSWER_BY_DECLINED, ANSWER_BY_DRAW, ANSWER_BY_FOCUS
from tests.rules.duel.kit import (
    ABILITY_WARD,
    ANTON,
    DART,
    DODGE,
    FIRE,
    HEAL,
    OLGA,
    SHIELD,
    SLEEP,
    WARD,
    ZAVULON,
    Fight,
    at,
    draw_index,
    first,
    replays,
    setup,
    strike,
    strike_with,
    the,
    types,
)


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
    strike(f, 0, draw=1)
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
    strike(f, 0, draw=draw_index(f, ZAVULON, SHIELD))
    assert f.state.cards[f.duel.step.answer_card].card_id == SHIELD.card_id
    f.do(ConfirmResult(0), 5)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED and can_fight(LIGHTLY_WOUNDED)
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ZAVULON and f.duel.round == 1
    assert len(f.fighter(ZAVULON).discards) == 1
    err = f.refused(RoundChoice(0, ZAVULON, True, (SHIELD, SHIELD)), 6)
    assert err.rule_id == "IA5"
    replays(f)


def test_IA5_softened_into_paralysis_ends_the_duel():
    """IA5 reading: softened into paralysis (cannot fight, D11) - no duel goes on."""
    f = Fight(setup(ANTON, SLEEP, DART), setup(ZAVULON, SHIELD, DART))
    strike(f, 0, card=SLEEP, draw=draw_index(f, ZAVULON, SHIELD))
    f.do(ConfirmResult(0, SOFTENED, "shield caught half of it"), 5)
    assert f.fighter(ZAVULON).condition == PARALYSED
    assert f.duel.phase == ENDED and f.duel.result == "fighter_out"
    replays(f)


def test_IA5_D10_a_parrying_victim_without_an_attack_card_passes_and_the_attacker_strikes_again():
    """IA5/D10: the victim attacks next, but with no attack card passes; the attacker attacks again."""
    f = Fight(setup(ANTON, DART, FIRE), setup(ZAVULON, SHIELD, WARD))
    strike(f, 0, card=DART, draw=draw_index(f, ZAVULON, SHIELD))
    events = f.do(ConfirmResult(0), 5)
    assert first(Passed, events).fighter == ZAVULON
    assert f.duel.phase == AWAIT_ATTACK and f.duel.attacker == ANTON
    replays(f)


def test_IA6_a_second_instant_attack_inside_the_gap_is_ordinary_even_on_another_pair():
    """IA6: after one instant attack, another one in the same situation (3 min not over) is converted."""
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD), setup(OLGA, DART, HEAL), setup(4, DART))
    strike(f, 0)
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
    strike(f, 0)
    f.do(EndDuel(0, "they parted"), 10)
    f.tick(190.1)
    assert f.state.ended
    err = f.refused(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, DART.card_id), True, True), 191)
    assert err.rule_id == "S2"


def test_IA7_not_parried_with_a_light_effect_still_ends_the_exchange():
    """IA7: the instant attack succeeded - full effect, and no ordinary duel follows (that is IA5's case only)."""
    f = Fight(setup(ANTON, DART, FIRE), setup(ZAVULON, HEAL, FIRE))
    strike(f, 0, card=DART, parry=False)
    f.do(ConfirmResult(0), 3)
    assert f.fighter(ZAVULON).condition == LIGHTLY_WOUNDED
    assert f.duel.phase == ENDED and f.duel.result == "instant_attack_succeeded"
    assert len(f.fighter(ZAVULON).hand) == 2
    replays(f)


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
    strike(f, 2, card=SLEEP, draw=None)
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


def test_IA3_IA7_a_victim_who_declines_to_parry_draws_nothing_and_keeps_the_hand():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, WARD, focus=SHIELD.card_id))
    hand = list(f.fighter(ZAVULON).hand)
    command = InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 1), True, True, parry=False)
    assert draw_size_for(f.state, command) == 0
    assert f.refused(command, 1, draw=0).rule_id == "IA3"
    events = f.do(command, 1)
    assert "card_drawn" not in types(events) and "parry_declined" in types(events)
    step = f.duel.step
    assert step.answer_card is None and step.proposed == NOT_PARRIED and step.answer_by == ANSWER_BY_DECLINED
    f.do(ConfirmResult(0), 2)
    # IA7: the full effect; the hand (and the focus) stay as they were.
    assert f.fighter(ZAVULON).condition == "heavily_wounded" and f.duel.result == "instant_attack_succeeded"
    assert f.fighter(ZAVULON).hand == hand and f.fighter(ZAVULON).focus == hand[0]


def test_IA3_F1_the_step_and_its_record_keep_how_the_answer_was_chosen():
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, WARD, focus=SHIELD.card_id))
    strike_with(f, DART.card_id, 1)
    assert f.duel.step.answer_by == ANSWER_BY_FOCUS
    f.do(SetFocus(ZAVULON, None), 2)  # the focus changes while the result waits
    assert f.duel.step.answer_by == ANSWER_BY_FOCUS
    f.do(ConfirmResult(0), 3)
    assert f.duel.steps_done[-1].answer_by == ANSWER_BY_FOCUS
    g = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD, WARD))
    g.do(InstantAttack(ANTON, ZAVULON, g.uid(ANTON, 2), True, True), 1, 1)
    assert g.duel.step.answer_by == ANSWER_BY_DRAW
    # An ordinary step has no source of its own.
    h = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    h.do(DeclareAggression(ANTON, ZAVULON, h.uid(ANTON, 2)), 1)
    assert h.duel.step.answer_by == ""


def test_F1_only_a_defence_spell_can_be_focused_unless_the_event_allows_abilities():
    with pytest.raises(RuleError) as err:
        check_focus([DODGE], DODGE.card_id)
    assert err.value.rule_id == "F1"
    assert check_focus([DODGE], DODGE.card_id, abilities=True) == DODGE
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD, DODGE))
    assert f.refused(SetFocus(ZAVULON, f.uid(ZAVULON, 13)), 1).rule_id == "F1"
    g = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD, DODGE), settings=Settings(focus_abilities=True))
    g.do(SetFocus(ZAVULON, g.uid(ZAVULON, 13)), 1)
    assert g.fighter(ZAVULON).focus == g.uid(ZAVULON, 13)


def test_F1_IA3_a_focused_card_not_held_in_front_means_a_blind_draw():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD, WARD, focus=SHIELD.card_id))
    command = InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 2), True, True, focus_held=False)
    assert draw_size_for(f.state, command) == 2
    ward = f.uid(ZAVULON, 12)
    events = f.do(command, 1, 1)
    drawn = first(CardDrawn, events)
    assert not drawn.by_focus and drawn.card == ward and f.duel.step.answer_by == ANSWER_BY_DRAW

"""Issue 9, the engine's side: S2/IA6 clock, declining to parry, the recorded answer source,
focus on a defence spell, conditions as a set, and the referee's condition records.

Each test fails on the engine as it was before these corrections.
"""

import pytest

from rules import (
    DEAD,
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
from rules.cards import ABILITY, DEFENCE
from rules.duel import (
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
    next_deadline,
)
from rules.duel.events import CardDrawn
from rules.duel.state import ANSWER_BY_DECLINED, ANSWER_BY_DRAW, ANSWER_BY_FOCUS
from rules.events import ConditionChanged

from .kit import ANTON, DART, FIRE, HEAL, SHIELD, SLEEP, WARD, ZAVULON, Fight, at, first, setup, the, types

# A defence ability (not a spell): F1 does not let it be focused by default.
DODGE = CardFace(13, "Dodge", DEFENCE, category=ABILITY)


def ia(f, card_id, t, draw=None, **kw):
    return f.do(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, card_id), True, True, **kw), t, draw)


# --- 1. S2 / IA6: only combat actions restart the clock ------------------------------------------


def test_S2_IA6_ending_a_duel_is_not_a_combat_action_so_a_later_attack_is_a_new_situation():
    """The issue's example: parried at 0 s, ended by the referee at 170 s; at 200 s the situation is over."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, WARD))
    ia(f, DART.card_id, 0, draw=0)  # Mage Shield
    f.do(ConfirmResult(0, PARRIED, "shield"), 0)
    f.do(EndDuel(0, "they parted"), 170)
    assert next_deadline(f.state) == at(180)
    events = f.tick(200)
    assert types(events) == ["situation_ended"] and f.state.ended_at == at(180)


def test_S2_a_round_choice_is_not_a_combat_action_but_a_round_break_holds_the_situation():
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, DART, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    f.do(Attack(0, ANTON, f.uid(ANTON, 2)), 1)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 2)
    f.do(ConfirmResult(0), 3)
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, 2)), 4)
    f.do(Answer(0, ANTON, f.uid(ANTON, 10)), 5)
    f.do(ConfirmResult(0), 6)  # only defence left: the round ends
    f.do(RoundChoice(0, ANTON, False), 400)
    assert f.tick(500) == [] and f.duel.phase == "between_rounds"
    f.do(RoundChoice(0, ZAVULON, False), 600)  # the duel stops: the hold ends now
    assert next_deadline(f.state) == at(780)


def test_S2_a_late_confirmation_ends_the_hold_and_the_gap_counts_from_it():
    """A result confirmed long after the answer does not end the situation at once."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, WARD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 5)
    f.do(ConfirmResult(0), 400)
    assert next_deadline(f.state) == at(580) and not f.state.ended


# --- 2. IA3: the victim may decline to parry -----------------------------------------------------


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


# --- 4. the record says how the answer was chosen ----------------------------------------------


def test_IA3_F1_the_step_and_its_record_keep_how_the_answer_was_chosen():
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, WARD, focus=SHIELD.card_id))
    ia(f, DART.card_id, 1)
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


# --- 5. F1: a defence spell, held in front -------------------------------------------------------


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


# --- 6. conditions accumulate ------------------------------------------------------------------------


def test_CR1_D11_a_wounded_fighter_who_is_paralysed_is_both():
    f = Fight(setup(ANTON, SLEEP, DART), setup(ZAVULON, WARD, HEAL, condition=LIGHTLY_WOUNDED))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 3)), 1)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 11)), 2)  # Healing does nothing to Sleep
    events = f.do(ConfirmResult(0, SOFTENED, "half asleep"), 3)
    assert f.fighter(ZAVULON).condition == "lightly_wounded+paralysed"
    changed = first(ConditionChanged, events)
    assert (changed.old, changed.new) == (LIGHTLY_WOUNDED, "lightly_wounded+paralysed")
    assert not can_fight(f.fighter(ZAVULON).condition) and f.duel.result == "fighter_out"


def test_CR1_the_referee_clears_one_condition_with_a_reason():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD, condition="lightly_wounded+paralysed"))
    assert f.refused(ChangeCondition(ZAVULON, clear=PARALYSED), 1).rule_id == "CR1"  # no reason
    assert f.refused(ChangeCondition(ZAVULON, clear=HELPLESS, reason="x"), 1).rule_id == "CR1"  # not helpless
    events = f.do(ChangeCondition(ZAVULON, clear=PARALYSED, reason="the paralysis wore off"), 1)
    changed = the(ConditionChanged, events[0])
    assert changed.reason == "the paralysis wore off" and changed.new == LIGHTLY_WOUNDED
    assert can_fight(f.fighter(ZAVULON).condition)
    assert next_deadline(f.state) is None  # bookkeeping: no combat action, no clock


# --- 7. a blow outside a step ------------------------------------------------------------------------


def test_D11_a_finishing_blow_outside_a_step_is_recorded_with_its_reason():
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD, condition=HELPLESS))
    events = f.do(ChangeCondition(ZAVULON, add=DEAD, reason="finishing blow"), 5)
    assert f.fighter(ZAVULON).condition == DEAD
    assert the(ConditionChanged, events[0]).reason == "finishing blow"


def test_D11_a_blow_recorded_during_a_duel_puts_the_fighter_out_and_ends_it():
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, DART))
    f.do(DeclareAggression(ANTON, ZAVULON), 1)
    # Mid-step the step decides first (D9).
    f.do(Attack(0, ANTON, f.uid(ANTON, 2)), 2)
    assert f.refused(ChangeCondition(ZAVULON, add=PARALYSED, reason="a spell from the side"), 3).rule_id == "D9"
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 3)
    f.do(ConfirmResult(0), 4)
    events = f.do(ChangeCondition(ZAVULON, add=PARALYSED, reason="a spell from the side"), 5)
    assert types(events) == ["condition_changed", "fighter_out", "duel_ended"]
    assert f.duel.result == "fighter_out"

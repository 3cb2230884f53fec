"""Counter rules, effects and conditions (CR1, CR2, D11) and the arsenal checks."""

import pytest

from rules import (
    DEAD,
    FIT,
    HEAVILY_WOUNDED,
    HELPLESS,
    LIGHTLY_WOUNDED,
    NO_EFFECT,
    NOT_PARRIED,
    PARALYSED,
    PARRIED,
    SEVERITY,
    SOFTENED,
    SUBDUED,
    CardFace,
    CounterRule,
    CounterTable,
    RuleError,
    apply_effect,
    can_fight,
    check_arsenal,
    check_focus,
    effect_of,
    parts,
    propose,
    without,
)
from rules.conditions import is_condition
from tests.rules.duel.kit import COUNTERS, DART, FIRE, HEAL, SHIELD, SLEEP, WARD


def test_CR1_not_parried_applies_full_effect_softened_the_softened_one_parried_nothing():
    assert effect_of(NOT_PARRIED, FIRE) == HEAVILY_WOUNDED
    assert effect_of(SOFTENED, FIRE) == LIGHTLY_WOUNDED
    assert effect_of(PARRIED, FIRE) == NO_EFFECT
    assert effect_of(SOFTENED, DART) == NO_EFFECT


def test_CR1_conditions_accumulate_as_a_set():
    """CR1 reading: a paralysed fighter who is heavily wounded is both; wounds are one scale; death ends the rest."""
    assert SEVERITY == (FIT, LIGHTLY_WOUNDED, HEAVILY_WOUNDED, PARALYSED, SUBDUED, HELPLESS, DEAD)
    assert apply_effect(PARALYSED, HEAVILY_WOUNDED) == "heavily_wounded+paralysed"
    assert parts(apply_effect(PARALYSED, HEAVILY_WOUNDED)) == (HEAVILY_WOUNDED, PARALYSED)
    assert apply_effect(LIGHTLY_WOUNDED, PARALYSED) == "lightly_wounded+paralysed"
    assert apply_effect(LIGHTLY_WOUNDED, LIGHTLY_WOUNDED) == LIGHTLY_WOUNDED
    assert apply_effect(HEAVILY_WOUNDED, LIGHTLY_WOUNDED) == HEAVILY_WOUNDED
    assert apply_effect(LIGHTLY_WOUNDED, HEAVILY_WOUNDED) == HEAVILY_WOUNDED
    assert apply_effect("helpless+subdued", DEAD) == DEAD
    assert apply_effect(SUBDUED, NO_EFFECT) == SUBDUED
    assert apply_effect(FIT, HELPLESS) == HELPLESS
    assert without("heavily_wounded+paralysed", PARALYSED) == HEAVILY_WOUNDED
    assert without(PARALYSED, PARALYSED) == FIT
    # D11 follows from the set: one condition that is out is enough.
    assert not can_fight("lightly_wounded+paralysed") and can_fight(LIGHTLY_WOUNDED) and can_fight(FIT)
    # Every single condition (and fit) is a set of its own: old values read unchanged.
    assert all(is_condition(c) for c in SEVERITY)
    assert not is_condition("paralysed+heavily_wounded")  # not in the seeds' order


def test_CR1_unknown_effects_are_rejected_by_the_card_face():
    with pytest.raises(ValueError):
        CardFace(99, "Bad", "attack", "exploded")
    with pytest.raises(ValueError):
        CardFace(99, "Bad", "spell")
    with pytest.raises(ValueError):
        apply_effect("fit", "exploded")


def test_D11_heavily_wounded_paralysed_subdued_helpless_dead_cannot_fight():
    assert [c for c in SEVERITY if can_fight(c)] == [FIT, LIGHTLY_WOUNDED]


def test_CR2_no_answer_is_not_parried():
    assert propose(COUNTERS, None, FIRE) == NOT_PARRIED


def test_CR2_tag_rules_and_no_rule():
    assert propose(COUNTERS, SHIELD, FIRE) == SOFTENED  # tag "fire"
    assert propose(COUNTERS, SHIELD, DART) == PARRIED  # tag "missile"
    assert propose(COUNTERS, WARD, SLEEP) == PARRIED
    assert propose(COUNTERS, WARD, FIRE) == NOT_PARRIED  # no rule
    assert propose(COUNTERS, DART, FIRE) == NOT_PARRIED  # an attack card as an answer


def test_CR2_rule_for_the_exact_attack_card_beats_a_tag_rule():
    rules = [CounterRule(10, None, "fire", PARRIED), CounterRule(10, FIRE.card_id, None, NOT_PARRIED)]
    assert propose(rules, SHIELD, FIRE) == NOT_PARRIED
    other_fire = CardFace(5, "Fire Wall", "attack", DEAD, HEAVILY_WOUNDED, ("fire",))
    assert propose(rules, SHIELD, other_fire) == PARRIED


def test_CR2_among_tag_rules_the_strongest_wins_whatever_the_order():
    both = CardFace(6, "Burning Sleep", "attack", DEAD, HELPLESS, ("fire", "mind"))
    rules = [CounterRule(12, None, "fire", SOFTENED), CounterRule(12, None, "mind", PARRIED)]
    assert CounterTable(rules).propose(WARD, both) == PARRIED
    assert CounterTable(reversed(rules)).propose(WARD, both) == PARRIED
    dupes = [CounterRule(12, None, "fire", PARRIED), CounterRule(12, None, "fire", NOT_PARRIED)]
    assert propose(dupes, WARD, FIRE) == PARRIED
    assert propose(list(reversed(dupes)), WARD, FIRE) == PARRIED
    assert propose(COUNTERS, HEAL, FIRE) == SOFTENED  # exact rule for Fireball


def test_CR2_counter_rule_names_a_card_or_a_tag():
    with pytest.raises(ValueError):
        CounterRule(10, 1, "fire", PARRIED)
    with pytest.raises(ValueError):
        CounterRule(10, None, None, PARRIED)
    with pytest.raises(ValueError):
        CounterRule(10, 1, None, "blocked")


def test_arsenal_within_pool_and_limit_passes():
    check_arsenal([1, 1, 10], {1: 2, 10: 1}, limit=3)


@pytest.mark.parametrize(
    ("cards", "pool", "limit", "params"),
    [
        ([1, 2, 3], {1: 1, 2: 1, 3: 1}, 2, {"limit": 2, "count": 3}),
        ([1, 4], {1: 1}, 5, {"card_id": 4}),
        ([1, 1, 1], {1: 2}, 5, {"card_id": 1, "count": 3, "owned": 2}),
        ([7], {7: 0}, 5, {"card_id": 7}),
    ],
)
def test_arsenal_refusals_name_the_problem(cards, pool, limit, params):
    with pytest.raises(RuleError) as info:
        check_arsenal(cards, pool, limit)
    assert info.value.rule_id == "ARSENAL"
    assert info.value.params == params
    assert "%(" not in info.value.text()


def test_F1_only_a_defence_card_of_the_hand_can_be_focused():
    assert check_focus([FIRE, SHIELD], SHIELD.card_id) == SHIELD
    with pytest.raises(RuleError) as info:
        check_focus([FIRE, SHIELD], FIRE.card_id)
    assert info.value.rule_id == "F1"
    with pytest.raises(RuleError) as info:
        check_focus([FIRE], SHIELD.card_id)
    assert info.value.rule_id == "F1"

"""The models' choices and the pages' labels speak the engine's vocabulary, no more and no less.

The engine (rules/) owns the values: conditions, card kinds, outcomes, magic
types, phases, results. The models store them and the pages name them; a value
the engine gains or renames must show up here as a failure, not as a raw code
on a page or a value the database refuses.
"""

import rules
from cards.models import Card, CounterRule, Effect, MagicType, Warrior
from cards.words import EFFECT_LABELS, OUTCOME_LABELS, RESULT_LABELS
from duels.duel.presenters import OPENED_BY_LABELS, PHASE_LABELS
from events.models import Condition
from rules import conditions
from rules import duel as engine
from rules.mass import MAGIC_TYPES, WARRIOR_PLACES


def test_CR1_conditions_and_effects_are_the_engines():
    assert tuple(Condition.values) == conditions.SEVERITY
    # An effect is a condition other than "fit", or no effect at all (CR1).
    assert set(Effect.values) == {conditions.NO_EFFECT, *conditions.SEVERITY} - {conditions.FIT}
    assert set(EFFECT_LABELS) == {conditions.NO_EFFECT, *conditions.SEVERITY}


def test_CR2_card_kinds_and_outcomes_are_the_engines():
    assert tuple(Card.Kind.values) == rules.cards.KINDS
    assert tuple(CounterRule.Outcome.values) == rules.OUTCOMES
    assert tuple(OUTCOME_LABELS) == rules.OUTCOMES


def test_M2_magic_types_are_the_engines():
    assert tuple(v for v in Card.MagicType.values if v) == MAGIC_TYPES
    assert tuple(MagicType.values) == MAGIC_TYPES  # the mass battle's magic cards (rules/mass)
    assert tuple(Warrior.State.values) == WARRIOR_PLACES


def test_every_phase_result_and_opening_has_words():
    assert tuple(PHASE_LABELS) == engine.PHASES
    assert set(RESULT_LABELS) == set(engine.RESULTS)
    assert set(OPENED_BY_LABELS) == {engine.AGGRESSION, engine.INSTANT_ATTACK}

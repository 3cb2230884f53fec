"""Conditions through the services (CR1, D11): a blow or a healing recorded outside a step, with a reason."""

import pytest

import rules
from duels.services.conditions import change_condition
from events.models import Character, ConditionRecord
from tests.services import kit
from tests.services.kit import at

pytestmark = pytest.mark.django_db
# The ``clock`` fixture stops time at the module's T0; ``at(seconds)`` counts from it.
T0 = kit.T0


def test_CR1_D11_a_heavy_wound_on_a_paralysed_character_is_kept_with_the_paralysis(armed, referee, attack_card, clock):
    _anton, zavulon = armed
    Character.objects.filter(pk=zavulon.pk).update(condition="lightly_wounded")
    zavulon.refresh_from_db()
    change_condition(zavulon, add="paralysed", reason="a Sleep from the bushes", user=referee, now=at(0))
    zavulon.refresh_from_db()
    assert zavulon.condition == "lightly_wounded+paralysed"
    assert zavulon.get_condition_display() == "lightly wounded, paralysed"
    change_condition(zavulon, clear="paralysed", reason="the spell wore off", user=referee, now=at(1))
    zavulon.refresh_from_db()
    assert zavulon.condition == "lightly_wounded"
    records = list(ConditionRecord.objects.filter(character=zavulon).order_by("at"))
    assert [(r.old, r.new, r.reason, r.actor) for r in records] == [
        ("lightly_wounded", "lightly_wounded+paralysed", "a Sleep from the bushes", referee),
        ("lightly_wounded+paralysed", "lightly_wounded", "the spell wore off", referee),
    ]


def test_CR1_a_change_without_a_reason_is_refused_and_changes_nothing(armed, referee):
    _anton, zavulon = armed
    with pytest.raises(rules.RuleError) as err:
        change_condition(zavulon, add="dead", reason="  ", user=referee)
    assert err.value.rule_id == "CR1"
    zavulon.refresh_from_db()
    assert zavulon.condition == "fit" and not ConditionRecord.objects.exists()

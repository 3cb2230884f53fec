"""Card names cached per catalogue version and language (issue 24, cards/catalogue_version.py).

A step no longer reads its fight's card names from the database once this
process has them under the catalogue's current version; a card saved or
deleted makes a new version, so the next page shows the new name.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from cards import catalogue_version
from cards.models import Card
from cards.words import card_names

pytestmark = pytest.mark.django_db


def _names(ids: set[int]) -> tuple[dict[int, str], int]:
    with CaptureQueriesContext(connection) as ctx:
        names = card_names(ids)
    return names, len(ctx.captured_queries)


def test_names_are_read_once_per_version_and_shown_in_the_readers_language(attack_card, defence_card):
    ids = {attack_card.pk, defence_card.pk}
    first, queries = _names(ids)
    assert queries == 1 and first == {attack_card.pk: attack_card.name, defence_card.pk: defence_card.name}
    again, queries = _names(ids)
    assert queries == 0 and again == first
    with translation.override("en"):
        english, queries = _names(ids)
    assert queries == 0 and english[attack_card.pk] == (attack_card.name_en or attack_card.name_ru)


def test_a_card_saved_or_deleted_makes_a_new_version_and_the_new_name_shows(attack_card, defence_card):
    ids = {attack_card.pk, defence_card.pk}
    _names(ids)
    version = catalogue_version.current()
    attack_card.name_ru = "Огненный шар II"
    attack_card.save()
    assert catalogue_version.current() != version
    with translation.override("ru"):
        names, queries = _names(ids)
    assert queries == 1 and names[attack_card.pk] == "Огненный шар II"
    defence_card.delete()
    names, _ = _names(ids)
    assert defence_card.pk not in names


def test_a_write_without_signals_is_seen_once_bumped(attack_card):
    """QuerySet.update sends no signal: such a writer calls bump() (documented), and then it shows."""
    _names({attack_card.pk})
    Card.objects.filter(pk=attack_card.pk).update(name_ru="Тихий шар")
    with translation.override("ru"):
        assert card_names({attack_card.pk})[attack_card.pk] != "Тихий шар"
        catalogue_version.bump()
        assert card_names({attack_card.pk})[attack_card.pk] == "Тихий шар"

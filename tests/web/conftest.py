"""Fixtures of the web tests: more cards for the arsenal pages, and the no-server-error world."""

import pytest

from cards.models import Card
from tests.web.no_server_errors_kit import build_world


@pytest.fixture
def healing(catalogue) -> Card:
    return Card.objects.create(catalogue=catalogue, name_ru="Исцеление", name_en="Healing", kind="defence")


@pytest.fixture
def stranger_card(catalogue) -> Card:
    """In the catalogue, not in any character's pool."""
    return Card.objects.create(catalogue=catalogue, name_ru="Зов Тьмы", name_en="Call of Darkness", kind="attack")


@pytest.fixture
def world(personas, event, other_event, character, rival, attack_card, defence_card):
    """Every kind of object each role may or may not reach (no_server_errors_kit.build_world)."""
    return build_world(personas, event, other_event, character, rival, (attack_card, defence_card))

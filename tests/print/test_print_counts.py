"""The cards a run plans for each character are the cards it prints (runs.plan numbers them before printing)."""

import pytest

import demo
from cards.models import ArsenalCard, PoolEntry, PreparedArsenal, PreparedArsenalCard
from cards.printing.content import physical_card_counts, physical_cards, with_cards
from events.models import Character

pytestmark = pytest.mark.django_db


def _counted(characters):
    return {c.pk: sum(copies for _card, copies in physical_cards(c)) for c in with_cards(characters)}


def test_the_light_count_agrees_with_the_cards_printed(character, rival, attack_card, defence_card, spark):
    PoolEntry.objects.create(character=character, card=attack_card, copies=2)
    PoolEntry.objects.create(character=character, card=defence_card)
    ArsenalCard.objects.create(character=character, card=defence_card, copies=3)  # more than the pool holds
    plan = PreparedArsenal.objects.create(character=character, name="Night plan")
    PreparedArsenalCard.objects.create(arsenal=plan, card=spark, copies=2)  # only in a prepared arsenal
    PreparedArsenalCard.objects.create(arsenal=plan, card=attack_card, copies=1)
    counts = physical_card_counts([character.pk, rival.pk])
    assert counts == _counted([character, rival]) == {character.pk: 2 + 3 + 2, rival.pk: 0}


def test_the_light_count_agrees_on_the_demo_game():
    event = demo.load()
    characters = list(Character.objects.filter(event=event))
    counts = physical_card_counts(c.pk for c in characters)
    assert counts == _counted(characters) and sum(counts.values()) > 0

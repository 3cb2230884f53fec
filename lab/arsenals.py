"""The arsenals and counter rules a lab run tests, read from an event (issue 15)."""

from __future__ import annotations

import random

from cards.faces import counter_rule_of, face_of
from cards.models import ArsenalCard, Card, CounterRule, PoolEntry, PreparedArsenalCard
from events.models import Character, Event
from lab.models import LabRun
from lab.simulate import Arsenal
from rules.cards import CardFace
from rules.cards import CounterRule as EngineCounterRule

# Ordered match-ups grow with the square: ten arsenals are 90 match-ups, a heat map a tablet still shows.
MAX_ARSENALS = 10


def _characters(event: Event) -> list[Character]:
    return list(Character.objects.filter(event=event, status=Character.Status.ACCEPTED).order_by("name"))


def _catalogue_ids(event: Event) -> list[int]:
    """The event's catalogue, or none yet: then there are no cards to play with."""
    return [] if event.catalogue_id is None else [event.catalogue_id]


def arsenals_of(event: Event, source: str, seed: int, limit: int = MAX_ARSENALS) -> list[Arsenal]:
    """The event's arsenals to test; each keeps only arsenals with at least one card."""
    characters = _characters(event)
    faces = {card.pk: face_of(card) for card in Card.objects.filter(catalogue_id__in=_catalogue_ids(event))}
    found: list[Arsenal] = []
    if source == LabRun.Source.PREPARED:
        prepared = PreparedArsenalCard.objects.filter(arsenal__character__in=characters).select_related(
            "arsenal__character"
        )
        hands: dict[tuple[str, str], list[CardFace]] = {}
        for row in prepared.order_by("arsenal__character__name", "arsenal__name", "card_id"):
            key = (row.arsenal.character.name, row.arsenal.name)
            hands.setdefault(key, []).extend([faces[row.card_id]] * row.copies)
        found = [Arsenal(f"{who} — {name}", tuple(cards)) for (who, name), cards in hands.items()]
    elif source == LabRun.Source.CURRENT:
        current: dict[int, list[CardFace]] = {}
        for held in ArsenalCard.objects.filter(character__in=characters).order_by("card_id"):
            current.setdefault(held.character_id, []).extend([faces[held.card_id]] * held.copies)
        found = [Arsenal(c.name, tuple(current[c.pk])) for c in characters if current.get(c.pk)]
    else:
        rng = random.Random(seed)
        pools: dict[int, list[CardFace]] = {}
        for owned in PoolEntry.objects.filter(character__in=characters).order_by("card_id"):
            pools.setdefault(owned.character_id, []).extend([faces[owned.card_id]] * owned.copies)
        for character in characters:
            pool = pools.get(character.pk, [])
            if pool:
                size = min(len(pool), character.effective_arsenal_limit)
                drawn = tuple(sorted(rng.sample(pool, size), key=lambda f: f.card_id))
                found.append(Arsenal(f"{character.name} ({size})", drawn))
    return found[:limit]


def counters_of(event: Event) -> list[EngineCounterRule]:
    rules = CounterRule.objects.filter(defence_card__catalogue_id__in=_catalogue_ids(event)).order_by("pk")
    return [counter_rule_of(rule) for rule in rules]


def catalogue_faces(event: Event) -> list[CardFace]:
    return [face_of(card) for card in Card.objects.filter(catalogue_id__in=_catalogue_ids(event)).order_by("pk")]

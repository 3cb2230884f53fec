"""Helpers of the print tests (the fixtures are in conftest.py)."""

from __future__ import annotations

from cards.models import Card, PoolEntry

A4_PT = (595.276, 841.89)
PUBLIC = "http://192.168.7.2:8000"


def add_cards(character, catalogue, count: int, prefix: str = "Card") -> list[Card]:
    """``count`` attack cards in the character's pool, one copy each."""
    cards = []
    for i in range(1, count + 1):
        card = Card.objects.create(
            catalogue=catalogue,
            name_ru=f"{prefix}-ru {i:02d}",
            name_en=f"{prefix} {i:02d}",
            kind="attack",
            magic_type="fire",
            full_effect="heavily_wounded",
            softened_effect="lightly_wounded",
            rules_text=f"Rules of {prefix.lower()} {i:02d}.",
        )
        PoolEntry.objects.create(character=character, card=card, copies=1)
        cards.append(card)
    return cards

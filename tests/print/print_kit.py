"""Helpers of the print tests (the fixtures are in conftest.py)."""

from __future__ import annotations

import shutil

import pytest

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


def add_magic_cards(catalogue, count: int, deck: int = 2, prefix: str = "Spell", **fields):
    """``count`` magic cards of ``deck``, one copy each, fire and covered by protection (M3) unless told."""
    from cards.models_mass import MagicCard

    defaults = {"magic_type": "fire", "acts_on_protected": False, "copies": 1, **fields}
    return [
        MagicCard.objects.create(
            catalogue=catalogue,
            deck=deck,
            name_ru=f"{prefix}-ru {deck}-{i:02d}",
            name_en=f"{prefix}{deck}x{i:02d}",
            text=f"Effect of {prefix.lower()} {deck}-{i:02d}.",
            **defaults,
        )
        for i in range(1, count + 1)
    ]


def add_army(event, name: str, warriors: int, commander_name: str = ""):
    """An army of ``warriors`` warriors: salamanders (fire-proof) and spearmen, every third in hospital."""
    from cards.models_mass import Army, Warrior, WarriorType

    salamander, _ = WarriorType.objects.get_or_create(
        event=event, name_ru="Саламандра", defaults={"name_en": "Salamander", "protections": "fire,water"}
    )
    spearman, _ = WarriorType.objects.get_or_create(event=event, name_ru="Копейщик", defaults={"name_en": "Spearman"})
    army = Army.objects.create(event=event, name=name, commander_name=commander_name)
    Warrior.objects.bulk_create(
        Warrior(
            army=army,
            name=f"{name}-{i:03d}",
            warrior_type=salamander if i % 2 else spearman,
            state=Warrior.State.HOSPITAL if i % 3 == 0 else Warrior.State.FIELD,
        )
        for i in range(1, warriors + 1)
    )
    return army


def tool(name: str) -> str:
    """A command the print tests read PDFs with (Debian's poppler-utils and zbar-tools)."""
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (apt-get install poppler-utils zbar-tools)")
    return path

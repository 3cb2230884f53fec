"""A participant as the caller brings them into a fight of any kind, and its stored form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.cards import CardFace, face_from_dict, face_to_dict
from rules.conditions import FIT


@dataclass(frozen=True)
class FighterSetup:
    """A participant as the caller builds them from the database."""

    character_id: int
    name: str
    hand: tuple[CardFace, ...] = ()  # copies repeated
    focus_card_id: int | None = None
    condition: str = FIT


def setup_to_dict(setup: FighterSetup) -> dict[str, Any]:
    return {
        "character_id": setup.character_id,
        "name": setup.name,
        "hand": [face_to_dict(face) for face in setup.hand],
        "focus_card_id": setup.focus_card_id,
        "condition": setup.condition,
    }


def setup_from_dict(s: Mapping[str, Any]) -> FighterSetup:
    return FighterSetup(
        character_id=int(s["character_id"]),
        name=str(s["name"]),
        hand=tuple(face_from_dict(face) for face in s["hand"]),
        focus_card_id=s["focus_card_id"],
        condition=str(s["condition"]),
    )

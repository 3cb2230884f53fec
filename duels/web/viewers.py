"""Who looks at a fight, and the card as every kind's pages show it.

A ``Viewer`` is a referee (or organizer), the player of one character, or a
spectator; each wing's presenter asks it whose hand it may show (D4). A card
outside any fight is the character's current arsenal (``arsenal_hand``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import rules
from cards.models import ArsenalCard, Card
from cards.words import condition_label
from events.models import Character

REFEREE = "referee"
PLAYER = "player"
SPECTATOR = "spectator"


def iso(moment: datetime | None) -> str:
    """For ``data-deadline`` / ``data-server-now``: milliseconds, which every browser's Date.parse reads."""
    return "" if moment is None else moment.isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class Viewer:
    """Who is looking: a referee/organizer, the player of ``character_id``, or a spectator."""

    kind: str
    character_id: int | None = None

    def sees_hand_of(self, fighter_id: int) -> bool:
        return self.kind == REFEREE or (self.kind == PLAYER and self.character_id == fighter_id)

    @property
    def etag_part(self) -> str:
        return f"{self.kind}-{self.character_id or 0}"


class HoldsCards:
    """A participant's view that names a condition and may show a hand (``None``: not this viewer's to see)."""

    condition: str
    hand: list[CardView] | None

    @property
    def condition_label(self) -> str:
        return condition_label(self.condition)

    @property
    def attack_cards(self) -> list[CardView]:
        return [c for c in self.hand or [] if c.is_attack]


@dataclass(frozen=True)
class CardView:
    uid: str
    card_id: int
    name: str
    kind: str
    full_effect: str
    softened_effect: str
    focused: bool = False

    @property
    def is_attack(self) -> bool:
        return self.kind == rules.ATTACK

    @property
    def full_effect_label(self) -> str:
        return condition_label(self.full_effect)

    @property
    def softened_effect_label(self) -> str:
        return condition_label(self.softened_effect)


def arsenal_hand(character: Character) -> list[CardView]:
    """Outside a fight the hand is the current arsenal (one view per copy); a card's uid is its catalogue id."""
    hand = []
    rows = ArsenalCard.objects.filter(character=character).select_related("card").order_by("card__kind", "card_id")
    for row in rows:
        card = CardView(
            uid=str(row.card_id),
            card_id=row.card_id,
            name=row.card.name,
            kind=row.card.kind,
            full_effect=row.card.full_effect,
            softened_effect=row.card.softened_effect,
            focused=row.card_id == character.focus_card_id,
        )
        hand.extend([card] * row.copies)
    return hand


def catalogue_hand(card_ids: list[int], focus_card_id: int | None) -> list[CardView]:
    """A hand given as catalogue ids (one per copy, as a kind's ``results`` gives it), as ``arsenal_hand`` shows one."""
    cards = Card.objects.in_bulk(set(card_ids))
    hand = [
        CardView(
            uid=str(card.pk),
            card_id=card.pk,
            name=card.name,
            kind=card.kind,
            full_effect=card.full_effect,
            softened_effect=card.softened_effect,
            focused=card.pk == focus_card_id,
        )
        for card in (cards[i] for i in card_ids if i in cards)
    ]
    return sorted(hand, key=lambda c: (c.kind, c.card_id))


REFEREE_VIEW = Viewer(REFEREE)
SPECTATOR_VIEW = Viewer(SPECTATOR)

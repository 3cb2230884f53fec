"""What is printed for mass battles (M1-M3): the magic decks and each army's roster.

- A magic card is printed as many times as its deck holds copies (``MagicCard.copies``).
  Its front says what a player needs at the table (name, type of magic, deck, whether protection covers it
  or not, whether it may be kept, the text) with a QR code to its public entry. Its
  back shows only the deck's number (M1: the decks are sorted by the number on the
  back and lie face down), the same on every card of a deck: nothing on a back tells
  one card from another. Each deck starts on a fresh sheet, so a sheet's backs all
  carry one number.
- An army's roster: its warriors with their type, protection from magic (M3),
  character and state when printed; the armlist lines it fields and how many; and
  the commander's secret link as a QR code (duels' ``mass-army-link``).

Addresses are built on the public base address (events/public_url.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from django.db.models import Prefetch
from django.urls import reverse

from cards.models_mass import Army, MagicCard, Warrior, WarriorType, in_natural_order
from cards.printing import layout
from events.models import MAGIC_DECKS, Event
from events.public_url import public_url


@dataclass(frozen=True)
class PrintedMagicCard:
    """One physical magic card: the catalogue's card and where its QR code points."""

    card: MagicCard
    url: str

    front_template: ClassVar[str] = "print/_magic_front.html"
    back_template: ClassVar[str] = "print/_magic_back.html"

    @property
    def back_key(self) -> str:
        """Every card of a deck has the same back (pdf.document_pdf)."""
        return f"deck-{self.card.deck}"


def magic_card_url(card: MagicCard, event: Event | None) -> str:
    return public_url(reverse("cards:magic-card-entry", args=[card.pk]), event)


def magic_cards(event: Event, decks: Iterable[int] = MAGIC_DECKS) -> list[MagicCard]:
    """The event's magic cards in the chosen decks, by deck and name (none without a catalogue)."""
    if event.catalogue_id is None:
        return []
    wanted = [deck for deck in decks if deck in MAGIC_DECKS]
    return list(
        MagicCard.objects.filter(catalogue_id=event.catalogue_id, deck__in=wanted).order_by("deck", "name_ru", "pk")
    )


def deck_pages(event: Event, decks: Iterable[int] = MAGIC_DECKS) -> list[layout.Page[PrintedMagicCard]]:
    """Fronts and mirrored backs of every copy of every card, deck after deck, each deck on fresh sheets."""
    by_deck: dict[int, list[PrintedMagicCard]] = {}
    for card in magic_cards(event, decks):
        url = magic_card_url(card, event)
        by_deck.setdefault(card.deck, []).extend(PrintedMagicCard(card, url) for _ in range(card.copies))
    pages: list[layout.Page[PrintedMagicCard]] = []
    for deck in sorted(by_deck):
        pages.extend(layout.sheets(by_deck[deck], duplex=True))
    return pages


def deck_page_count(event: Event, decks: Iterable[int] = MAGIC_DECKS) -> int:
    copies: Counter[int] = Counter()
    for card in magic_cards(event, decks):
        copies[card.deck] += card.copies
    return sum(layout.sheet_count(count) for count in copies.values())


@dataclass(frozen=True)
class ArmlistLine:
    """A warrior type an army fields, and how many of its warriors are of that type."""

    warrior_type: WarriorType
    count: int


@dataclass(frozen=True)
class ArmyRoster:
    army: Army
    warriors: list[Warrior]
    armlist: list[ArmlistLine]
    link_url: str


def army_link_url(army: Army, event: Event) -> str:
    """The commander's page without an account (duels/views_mass_live.commander_link)."""
    return public_url(reverse("duels:mass-army-link", args=[army.link_token]), event)


def armies_of(event: Event, army_ids: Iterable[int] | None = None) -> list[Army]:
    """The event's armies (or the chosen ones) by name, with their warriors loaded in one more query."""
    warriors = Warrior.objects.select_related("warrior_type", "character").order_by("name", "pk")
    armies = Army.objects.filter(event=event).select_related("commander", "event")
    if army_ids is not None:
        armies = armies.filter(pk__in=list(army_ids))
    return list(armies.prefetch_related(Prefetch("warriors", queryset=warriors)).order_by("name", "pk"))


def army_roster(army: Army) -> ArmyRoster:
    """``army`` loaded by ``armies_of``, as its printed roster."""
    warriors = in_natural_order(army.warriors.all())
    counts = Counter(w.warrior_type_id for w in warriors)
    types = {w.warrior_type_id: w.warrior_type for w in warriors}
    armlist = [ArmlistLine(types[pk], counts[pk]) for pk in counts]
    armlist.sort(key=lambda line: line.warrior_type.name.lower())
    url = army_link_url(army, army.event) if army.link_token else ""
    return ArmyRoster(army, warriors, armlist, url)


def rosters(event: Event, army_ids: Iterable[int] | None = None) -> list[ArmyRoster]:
    return [army_roster(army) for army in armies_of(event, army_ids)]

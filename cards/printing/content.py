"""What is printed: the cards a character holds, their faces, the character sheet, the QR codes.

Every address printed here is built on the public base address (events/public_url.py):
a card's QR code opens its public catalogue entry (cards/views_public.py), a sheet's QR
code the character's secret link.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import segno
from django.db.models import Prefetch
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from cards.models import ArsenalCard, Card, PoolEntry, PreparedArsenal, PreparedArsenalCard
from events.models import Character, Event
from events.public_url import public_url, secret_link


def qr_image(url: str, label: str = "QR") -> SafeString:
    """A QR code as an ``<img>`` with a PNG data URI, sized by the print CSS.

    A PNG rather than inline SVG: WeasyPrint lays out an SVG path per card (the QR
    codes were half the time of a card sheet) but decodes an image once per address
    and embeds it once in the PDF. Sharp edges come from ``image-rendering`` in
    static/css/print.css; data URIs are allowed by the site's CSP (img-src data:).
    """
    png = segno.make(url, error="m").png_data_uri(scale=6, border=2)
    return format_html('<img class="qr" src="{}" alt="{}">', png, label)


@dataclass
class QrCache:
    """One QR code per address during a print: a card printed 2,000 times is drawn once."""

    images: dict[str, SafeString] = field(default_factory=dict)

    def __call__(self, url: str) -> SafeString:
        if url not in self.images:
            self.images[url] = qr_image(url)
        return self.images[url]


def card_url(card: Card, event: Event | None) -> str:
    return public_url(reverse("cards:card-entry", args=[card.pk]), event)


@dataclass(frozen=True)
class PrintedCard:
    """One physical card: the catalogue card, whose it is, and where its QR code points."""

    card: Card
    owner: str
    url: str
    qr: SafeString


def _prefetched(characters: Iterable[Character]) -> list[Character]:
    cards = ("card",)
    return list(
        Character.objects.filter(pk__in=[c.pk for c in characters])
        .select_related("event", "player")
        .prefetch_related(
            Prefetch("pool", queryset=PoolEntry.objects.select_related(*cards)),
            Prefetch("arsenal", queryset=ArsenalCard.objects.select_related(*cards)),
            Prefetch(
                "prepared_arsenals",
                queryset=PreparedArsenal.objects.prefetch_related(
                    Prefetch("cards", queryset=PreparedArsenalCard.objects.select_related(*cards))
                ),
            ),
        )
        .order_by("name", "pk")
    )


def with_cards(characters: Iterable[Character]) -> list[Character]:
    """The characters with pool, arsenal and prepared arsenals loaded in a fixed number of queries."""
    return _prefetched(characters)


def physical_cards(character: Character) -> list[tuple[Card, int]]:
    """The cards a player needs in hand: the pool, copies included.

    An arsenal is checked against the pool (rules/arsenal.py), so the pool normally
    covers it; an arsenal or prepared arsenal holding more copies (set up before the
    pool was) still gets every copy it holds printed. Attack cards first, by name.
    """
    copies: dict[int, int] = {}
    cards: dict[int, Card] = {}
    holdings: list[PoolEntry | ArsenalCard | PreparedArsenalCard] = [*character.pool.all(), *character.arsenal.all()]
    for prepared in character.prepared_arsenals.all():
        holdings.extend(prepared.cards.all())
    for entry in holdings:
        cards[entry.card_id] = entry.card
        copies[entry.card_id] = max(copies.get(entry.card_id, 0), entry.copies)
    order = sorted(cards.values(), key=lambda c: (c.kind != Card.Kind.ATTACK, c.name.lower(), c.pk))
    return [(card, copies[card.pk]) for card in order]


def printed_cards(characters: Iterable[Character], qr: QrCache | None = None) -> list[PrintedCard]:
    """Every physical card of ``characters`` (already loaded by ``with_cards``), in print order."""
    qr = qr or QrCache()
    result: list[PrintedCard] = []
    for character in characters:
        for card, copies in physical_cards(character):
            url = card_url(card, character.event)
            result.extend(PrintedCard(card, character.name, url, qr(url)) for _ in range(copies))
    return result


@dataclass(frozen=True)
class SheetEntry:
    card: Card
    copies: int


@dataclass(frozen=True)
class CharacterSheet:
    character: Character
    arsenal: list[SheetEntry]
    prepared: list[tuple[str, list[SheetEntry]]]
    link_works: bool
    link_url: str
    link_qr: SafeString | None


def _entries(rows: Iterable[ArsenalCard | PreparedArsenalCard]) -> list[SheetEntry]:
    entries = [SheetEntry(row.card, row.copies) for row in rows]
    return sorted(entries, key=lambda e: (e.card.kind != Card.Kind.ATTACK, e.card.name.lower()))


def character_sheet(character: Character) -> CharacterSheet:
    """A character loaded by ``with_cards``, as its printed sheet."""
    # As events.access.character_for_token lets it in: accepted, not revoked, not expired with the event.
    works = (
        character.link_active and character.status == Character.Status.ACCEPTED and not character.event.links_expired
    )
    url = secret_link(character) if works else ""
    return CharacterSheet(
        character=character,
        arsenal=_entries(character.arsenal.all()),
        prepared=[(p.name, _entries(p.cards.all())) for p in character.prepared_arsenals.all()],
        link_works=works,
        link_url=url,
        link_qr=qr_image(url) if works else None,
    )

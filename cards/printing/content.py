"""What is printed: the cards a character holds, their faces, the character sheet, the QR codes.

Every address printed here is built on the public base address (events/public_url.py):
a card's QR code opens its public catalogue entry (cards/views_public.py), a sheet's QR
code the character's secret link.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import ClassVar

import segno
from django.db.models import Prefetch
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

from cards.models import ArsenalCard, Card, PoolEntry, PreparedArsenal, PreparedArsenalCard
from events.models import Character, Event
from events.public_url import public_url, secret_link


@lru_cache(maxsize=8192)
def qr_png(url: str) -> bytes:
    """A QR code as PNG, made once per address in a process: a card printed 2,000 times is drawn once."""
    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=6, border=2)
    return out.getvalue()


def qr_data_uri(url: str) -> str:
    return "data:image/png;base64," + base64.b64encode(qr_png(url)).decode("ascii")


def qr_image(url: str, label: str = "QR", css: str = "qr", for_pdf: bool = False) -> SafeString:
    """A QR code as an ``<img>``, sized by the print CSS.

    A PNG rather than inline SVG: WeasyPrint lays out an SVG path per card (the QR
    codes were half the time of a card sheet) but decodes an image once per address
    and embeds it once in the PDF. In a PDF the source is ``qr:<address>``, which
    render.html_to_pdf's URL fetcher answers from ``qr_png`` (a short HTML to parse);
    in the browser a data URI, allowed by the site's CSP (img-src data:). Sharp
    edges come from ``image-rendering`` in static/css/print.css.
    """
    src = f"{QR_SCHEME}{url}" if for_pdf else qr_data_uri(url)
    return format_html('<img class="{}" src="{}" alt="{}">', css, src, label)


QR_SCHEME = "qr:"


def card_url(card: Card, event: Event | None) -> str:
    return public_url(reverse("cards:card-entry", args=[card.pk]), event)


@dataclass(frozen=True)
class PrintedCard:
    """One physical card: the catalogue card, whose it is, and where its QR code points."""

    card: Card
    owner: str
    url: str

    front_template: ClassVar[str] = "print/_card_front.html"
    back_template: ClassVar[str] = "print/_card_back.html"
    back_key: ClassVar[str] = "card"  # every card of an event has the same back (pdf.document_pdf)
    # In a PDF the face (what the catalogue says, the QR code to its entry) is laid out once
    # per card and stamped on each copy, whose front holds only its owner and number (pdf.py).
    face_template: ClassVar[str] = "print/_card_face.html"

    @property
    def face_key(self) -> int:
        return self.card.pk


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


def physical_card_counts(character_ids: Iterable[int]) -> dict[int, int]:
    """How many cards ``physical_cards`` gives each character, by id, in three light queries.

    A print run plans its parts and numbers their cards before printing any (runs.plan):
    loading every holding as model instances took ten seconds for 2,000 characters.
    """
    ids = list(character_ids)
    rows = chain(
        PoolEntry.objects.filter(character_id__in=ids).values_list("character_id", "card_id", "copies"),
        ArsenalCard.objects.filter(character_id__in=ids).values_list("character_id", "card_id", "copies"),
        PreparedArsenalCard.objects.filter(arsenal__character_id__in=ids).values_list(
            "arsenal__character_id", "card_id", "copies"
        ),
    )
    most: dict[tuple[int, int], int] = {}
    for character_id, card_id, copies in rows:
        most[character_id, card_id] = max(most.get((character_id, card_id), 0), copies)
    counts = dict.fromkeys(ids, 0)
    for (character_id, _card_id), copies in most.items():
        counts[character_id] += copies
    return counts


def printed_cards(characters: Iterable[Character]) -> list[PrintedCard]:
    """Every physical card of ``characters`` (already loaded by ``with_cards``), in print order."""
    result: list[PrintedCard] = []
    for character in characters:
        for card, copies in physical_cards(character):
            url = card_url(card, character.event)
            result.extend(PrintedCard(card, character.name, url) for _ in range(copies))
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


def _entries(rows: Iterable[ArsenalCard | PreparedArsenalCard]) -> list[SheetEntry]:
    entries = [SheetEntry(row.card, row.copies) for row in rows]
    return sorted(entries, key=lambda e: (e.card.kind != Card.Kind.ATTACK, e.card.name.lower()))


def link_of(character: Character) -> tuple[bool, str]:
    """Whether the printed secret link works, and the link (empty when it does not)."""
    # As events.access.character_for_token lets it in: accepted, not revoked, not expired with the event.
    works = (
        character.link_active and character.status == Character.Status.ACCEPTED and not character.event.links_expired
    )
    return works, secret_link(character) if works else ""


def character_sheet(character: Character) -> CharacterSheet:
    """A character loaded by ``with_cards``, as its printed sheet."""
    works, url = link_of(character)
    return CharacterSheet(
        character=character,
        arsenal=_entries(character.arsenal.all()),
        prepared=[(p.name, _entries(p.cards.all())) for p in character.prepared_arsenals.all()],
        link_works=works,
        link_url=url,
    )

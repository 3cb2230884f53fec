"""The event taken back out (issue 22, JoinRPG #100, #419): every list in one workbook, and the links to send.

``event_workbook``: one XLSX, each list its own sheet, the columns of each list's
own export where it has one (so a sheet saved alone as CSV imports back).
``messaging_links``: a CSV to mail-merge or paste into a chat bot: each accepted
character, the player, the contacts from the import and the secret link. Both go
through helpers/tables.py, which makes every cell a spreadsheet would run as a
formula plain text.
"""

from collections.abc import Iterable
from typing import Any

import tablib
from django.utils.translation import gettext as _

from cards.arsenal_import import ARSENAL, POOL
from cards.models import ArsenalCard, PoolEntry, PreparedArsenalCard
from cards.models_mass import Army, Warrior
from cards.resources import resource_for as catalogue_resource
from cards.resources_mass import resource_for as mass_resource
from events.models import Character, Event, Handout
from events.public_url import secret_link
from events.resources import CharacterResource
from helpers.tables import export_bytes, export_workbook


def _dataset(headers: Iterable[str], rows: Iterable[Iterable[Any]]) -> tablib.Dataset:
    data = tablib.Dataset(headers=list(headers))
    for row in rows:
        data.append(list(row))
    return data


def _player(character: Character) -> str:
    if character.player is not None:
        return character.player.get_username()
    return character.invited_username


def _characters(event: Event) -> Any:
    return Character.objects.filter(event=event).select_related("player").order_by("name", "pk")


def _claims(event: Event) -> tablib.Dataset:
    """Applications as JoinRPG calls them claims: who asked for which character, and the answer."""
    headers = ["character", "player", "status", "application", "review_comment", "created_at"]
    rows = (
        (c.name, _player(c), c.status, c.application, c.review_comment, c.created_at.isoformat(timespec="seconds"))
        for c in _characters(event)
    )
    return _dataset(headers, rows)


def _card_rows(event: Event) -> dict[str, tablib.Dataset]:
    pools = PoolEntry.objects.filter(character__event=event).select_related("character", "card")
    hands = ArsenalCard.objects.filter(character__event=event).select_related("character", "card")
    prepared = PreparedArsenalCard.objects.filter(arsenal__character__event=event).select_related(
        "arsenal__character", "card"
    )
    order = ("character__name", "character_id", "card__name_ru")
    return {
        POOL: _dataset(
            ["character", "card", "copies"],
            ((r.character.name, r.card.name_ru, r.copies) for r in pools.order_by(*order)),
        ),
        ARSENAL: _dataset(
            ["character", "card", "copies"],
            ((r.character.name, r.card.name_ru, r.copies) for r in hands.order_by(*order)),
        ),
        "prepared": _dataset(
            ["character", "list", "card", "copies"],
            (
                (r.arsenal.character.name, r.arsenal.name, r.card.name_ru, r.copies)
                for r in prepared.order_by("arsenal__character__name", "arsenal__name", "card__name_ru")
            ),
        ),
    }


def _armies(event: Event) -> tablib.Dataset:
    armies = Army.objects.filter(event=event).select_related("commander").order_by("name")
    counts: dict[int, int] = {}
    for army_id in Warrior.objects.filter(army__event=event).values_list("army_id", flat=True):
        counts[army_id] = counts.get(army_id, 0) + 1
    return _dataset(
        ["army", "commander", "warriors"], ((a.name, a.commander_label, counts.get(a.pk, 0)) for a in armies)
    )


def _check_in(event: Event) -> tablib.Dataset:
    items = Handout.Item
    handed: dict[tuple[int, str], str] = {}
    for row in Handout.objects.filter(character__event=event):
        handed[row.character_id, row.item] = "yes" if row.handed_at else ("printed" if row.printed_at else "")
    headers = ["character", "arrived", "arrived_at", *[f"handed_{item}" for item in items.values]]
    rows = (
        (
            c.name,
            "yes" if c.arrived else "",
            c.arrived_at.isoformat(timespec="seconds") if c.arrived_at else "",
            *[handed.get((c.pk, item), "") for item in items.values],
        )
        for c in _characters(event).filter(status=Character.Status.ACCEPTED)
    )
    return _dataset(headers, rows)


def workbook_sheets(event: Event) -> list[tuple[str, tablib.Dataset]]:
    """Every list of the event, titled in the organizer's language, in the order the game is set up."""
    cards = _card_rows(event)
    sheets = [
        (_("Characters"), CharacterResource(event).export(_characters(event))),
        (_("Applications"), _claims(event)),
        (_("Pools"), cards[POOL]),
        (_("Arsenals"), cards[ARSENAL]),
        (_("Prepared arsenals"), cards["prepared"]),
    ]
    if event.catalogue is not None:
        sheets += [
            (_("Catalogue"), catalogue_resource("cards", event.catalogue).export()),
            (_("Counter rules"), catalogue_resource("rules", event.catalogue).export()),
            (_("Magic cards"), mass_resource("magic_cards", event).export()),
        ]
    sheets += [
        (_("Armlist"), mass_resource("warrior_types", event).export()),
        (_("Armies"), _armies(event)),
        (_("Warriors"), mass_resource("warriors", event).export()),
        (_("Check-in"), _check_in(event)),
    ]
    return sheets


def event_workbook(event: Event) -> bytes:
    return export_workbook(workbook_sheets(event))


def telegram_link(value: str) -> str:
    """A Telegram handle as its t.me address: clickable, and a leading "@" is no formula to neutralize."""
    handle = value.strip()
    for prefix in ("https://t.me/", "http://t.me/", "t.me/", "@"):
        if handle.lower().startswith(prefix):
            handle = handle[len(prefix) :]
    if handle and all(ch.isalnum() or ch == "_" for ch in handle):
        return f"https://t.me/{handle}"
    return value.strip()


MESSAGING_COLUMNS = ("character", "player", "email", "telegram", "vk", "secret_link")


def messaging_links(event: Event) -> bytes:
    """Each accepted character with a working secret link, its player's contacts and the link (CSV)."""
    characters = _characters(event).filter(status=Character.Status.ACCEPTED, link_active=True)
    rows = (
        (
            c.name,
            _player(c),
            c.contact_email or (c.player.email if c.player is not None else ""),
            telegram_link(c.contact_telegram),
            c.contact_vk,
            secret_link(c),
        )
        for c in characters
    )
    return export_bytes(_dataset(MESSAGING_COLUMNS, rows), "csv")

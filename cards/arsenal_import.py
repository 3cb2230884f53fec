"""Bulk entry of card pools, arsenals and prepared arsenals from one table (issue 10).

One row per character, list and card, with copies::

    character,list,card,copies
    Антон Городецкий,pool,Щит мага,2
    Антон Городецкий,arsenal,Щит мага,1
    Антон Городецкий,Ночной патруль,Щит мага,2

``list`` is ``pool``, ``arsenal`` (the current one, in hand) or the name of a
prepared arsenal (D3); the Russian «пул», «арсенал» work too. Each list the
file names for a character is *replaced* by the file's rows; lists and
characters the file does not name stay as they are.

The file goes through the shared pipeline (helpers/tables.py: encodings, limits,
row numbers, error format) and is imported all or nothing: the pool first, then
the arsenal and the prepared arsenals, each checked by the engine's arsenal rule
(``rules.check_arsenal``, through cards/arsenal.py, which also refuses a
character in a fight, D3); any refusal rolls the whole file back.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from cards import arsenal as services
from cards.models import ArsenalCard, Card, PoolEntry, PreparedArsenalCard
from events.models import Character, Event
from helpers.tables import ImportReport, Table, export_bytes, read_table
from rules.arsenal import check_arsenal
from rules.errors import RuleError

COLUMNS = ("character", "list", "card", "copies")
POOL, ARSENAL = "pool", "arsenal"
LIST_WORDS = {"pool": POOL, "пул": POOL, "arsenal": ARSENAL, "арсенал": ARSENAL, "hand": ARSENAL}
MAX_COPIES = 99
PREPARED_NAME_MAX = 100  # PreparedArsenal.name's max_length


def read_arsenals(content: bytes, file_format: str) -> Table:
    return read_table(content, file_format, columns=COLUMNS, required=COLUMNS)


@dataclass
class _Lists:
    """What the file says of one character: card id -> copies per list, and the row that named each list first."""

    pool: dict[int, int] | None = None
    arsenal: dict[int, int] | None = None
    prepared: dict[str, dict[int, int]] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)


def _refusal(err: RuleError, names: dict[int, str]) -> str:
    """The engine's refusal in the user's language, with card names for ids (as the arsenal builder says it)."""
    params: dict[str, Any] = dict(err.params)
    if params.get("card_id") in names:
        params["card_id"] = f"«{names[params['card_id']]}»"
    return _(err.message) % params


def _copies(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float) and float(value).is_integer():
        number = int(value)
    else:
        try:
            number = int(str(value).strip())
        except ValueError:
            return None
    return number if 1 <= number <= MAX_COPIES else None


class _Reader:
    """Turns the table's rows into each character's lists, collecting row errors."""

    def __init__(self, event: Event) -> None:
        self.errors: list[tuple[int | None, str]] = []
        self.characters: dict[str, list[Character]] = defaultdict(list)
        for character in Character.objects.filter(event=event):
            self.characters[character.name.strip().casefold()].append(character)
        self.cards: dict[str, list[Card]] = defaultdict(list)
        for card in Card.objects.filter(catalogue__events=event):
            for name in {card.name_ru.strip().casefold(), card.name_en.strip().casefold()} - {""}:
                self.cards[name].append(card)
        self.lists: dict[int, _Lists] = {}
        self.by_id: dict[int, Character] = {}

    def _one(self, found: list[Any], name: str, none: str, several: str) -> Any:
        if not found:
            raise ValueError(none % {"name": name})
        if len(found) > 1:
            raise ValueError(several % {"name": name})
        return found[0]

    def row(self, number: int, record: dict[str, Any]) -> None:
        name = str(record["character"] or "").strip()
        card_name = str(record["card"] or "").strip()
        list_name = str(record["list"] or "").strip()
        try:
            character = self._one(
                self.characters.get(name.casefold(), []),
                name,
                _("No character “%(name)s” in this event."),
                _("The event has several characters named “%(name)s”; rename them first."),
            )
            card = self._one(
                self.cards.get(card_name.casefold(), []),
                card_name,
                _("No card “%(name)s” in the event's catalogue."),
                _("Several cards of the catalogue are named “%(name)s”."),
            )
            copies = _copies(record["copies"])
            if copies is None:
                raise ValueError(
                    _("copies: “%(value)s” is not a whole number from 1 to %(max)d.")
                    % {"value": record["copies"] if record["copies"] is not None else "", "max": MAX_COPIES}
                )
            kind = LIST_WORDS.get(list_name.casefold())
            if not kind and not list_name:
                raise ValueError(_("list: say pool, arsenal or the name of a prepared arsenal."))
            if not kind and len(list_name) > PREPARED_NAME_MAX:
                raise ValueError(_("list: a prepared arsenal's name is at most 100 characters."))
        except ValueError as err:
            self.errors.append((number, str(err)))
            return
        lists = self.lists.setdefault(character.pk, _Lists())
        self.by_id[character.pk] = character
        key = kind or list_name
        lists.rows.setdefault(key, number)
        if kind == POOL:
            target = lists.pool = lists.pool or {}
        elif kind == ARSENAL:
            target = lists.arsenal = lists.arsenal or {}
        else:
            target = lists.prepared.setdefault(list_name, {})
        if card.pk in target:
            self.errors.append((number, _("“%(card)s” appears twice in this list.") % {"card": card_name}))
            return
        target[card.pk] = copies


def _ids(copies: dict[int, int]) -> list[int]:
    return [card_id for card_id, n in copies.items() for _ in range(n)]


def _apply(character: Character, lists: _Lists, names: dict[int, str]) -> list[tuple[int | None, str]]:
    """Replace the lists the file names for one character; the refusals, row by row."""
    errors: list[tuple[int | None, str]] = []
    if lists.pool is not None:
        # The hand must stay within the pool (as set_pool_copies insists); a hand the file
        # replaces too is checked against the new pool by build_arsenal below.
        hand = (
            {}
            if lists.arsenal is not None
            else dict(ArsenalCard.objects.filter(character=character).values_list("card_id", "copies"))
        )
        try:
            check_arsenal(_ids(hand), lists.pool, len(_ids(hand)))
        except RuleError as err:
            errors.append((lists.rows[POOL], _refusal(err, names)))
        else:
            services.sync_rows(
                PoolEntry.objects.filter(character=character),
                Counter(lists.pool),
                lambda card_id, copies: PoolEntry(character=character, card_id=card_id, copies=copies),
            )
    if lists.arsenal is not None:
        try:
            services.build_arsenal(character, _ids(lists.arsenal))
        except RuleError as err:
            errors.append((lists.rows[ARSENAL], _refusal(err, names)))
    for name, copies in lists.prepared.items():
        try:
            services.save_prepared(character, name, _ids(copies))
        except RuleError as err:
            errors.append((lists.rows[name], _refusal(err, names)))
    return errors


def import_arsenals(event: Event, table: Table) -> ImportReport:
    """All or nothing: every row read and every list checked, then saved together, or nothing."""
    reader = _Reader(event)
    for number, record in table.records():
        reader.row(number, record)
    if reader.errors:
        return ImportReport(errors=sorted(reader.errors, key=lambda e: e[0] or 0))
    names = {card.pk: card.name_ru for cards in reader.cards.values() for card in cards}
    errors: list[tuple[int | None, str]] = []
    with transaction.atomic():
        for character_id, lists in reader.lists.items():
            errors.extend(_apply(reader.by_id[character_id], lists, names))
        if errors:
            transaction.set_rollback(True)
            return ImportReport(errors=sorted(errors, key=lambda e: e[0] or 0))
    return ImportReport(updated=len(reader.lists))


def export_arsenals(event: Event, file_format: str) -> bytes:
    """Every character's pool, arsenal and prepared arsenals in the import's columns."""
    import tablib

    data = tablib.Dataset(headers=list(COLUMNS))
    characters = Character.objects.filter(event=event).order_by("name", "pk")
    pools = PoolEntry.objects.filter(character__event=event).select_related("card")
    hands = ArsenalCard.objects.filter(character__event=event).select_related("card")
    prepared = PreparedArsenalCard.objects.filter(arsenal__character__event=event).select_related("card", "arsenal")
    rows: dict[int, list[tuple[str, str, int]]] = defaultdict(list)
    for pooled in pools:
        rows[pooled.character_id].append((POOL, pooled.card.name_ru, pooled.copies))
    for held in hands:
        rows[held.character_id].append((ARSENAL, held.card.name_ru, held.copies))
    for kept in prepared:
        rows[kept.arsenal.character_id].append((kept.arsenal.name, kept.card.name_ru, kept.copies))
    order = {POOL: "0", ARSENAL: "1"}
    for character in characters:
        for list_name, card, copies in sorted(rows[character.pk], key=lambda r: (order.get(r[0], "2" + r[0]), r[1])):
            data.append([character.name, list_name, card, copies])
    return export_bytes(data, file_format)

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
row numbers, error format; events/imports/: checked first, then written in short
batches) and is imported all or nothing: the pool first, then the arsenal and the
prepared arsenals, each checked by the engine's arsenal rule (``rules.check_arsenal``,
through cards/arsenal.py, which also refuses a character in a fight, D3). The check
applies every character's lists in short transactions that are rolled back; the write
applies them a few characters per batch, each batch's journal keeping the lists it
replaced, so a refusal half-way puts every list back as it was.
"""

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from cards import arsenal as services
from cards.models import ArsenalCard, Card, PoolEntry, PreparedArsenal, PreparedArsenalCard
from events.imports import journal
from events.imports.kinds import (
    Checked,
    FieldSpec,
    ImportKind,
    ImportStopped,
    RowErrors,
    Tick,
    in_every_language,
    register,
)
from events.models import Character, Event
from helpers.names import name_key
from helpers.tables import Table, export_bytes
from rules.arsenal import check_arsenal
from rules.errors import RuleError

COLUMNS = ("character", "list", "card", "copies")
POOL, ARSENAL = "pool", "arsenal"
LIST_WORDS = {"pool": POOL, "пул": POOL, "arsenal": ARSENAL, "арсенал": ARSENAL, "hand": ARSENAL}
MAX_COPIES = 99
PREPARED_NAME_MAX = 100  # PreparedArsenal.name's max_length


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


class _Bad(Exception):
    """A row's cell that cannot be read: its column and why."""

    def __init__(self, column: str, message: str) -> None:
        super().__init__(message)
        self.column, self.message = column, message


class _Reader:
    """Turns the table's rows into each character's lists, collecting row errors."""

    def __init__(self, event: Event) -> None:
        self.errors: RowErrors = []
        self.characters: dict[str, list[Character]] = defaultdict(list)
        for character in Character.objects.filter(event=event):
            self.characters[character.name_key].append(character)
        self.cards: dict[str, list[Card]] = defaultdict(list)
        for card in Card.objects.filter(catalogue__events=event):
            for name in {card.name_key, name_key(card.name_en)} - {""}:
                self.cards[name].append(card)
        self.lists: dict[int, _Lists] = {}
        self.by_id: dict[int, Character] = {}

    def _one(self, found: list[Any], column: str, name: str, none: str, several: str) -> Any:
        if not found:
            raise _Bad(column, none % {"name": name})
        if len(found) > 1:
            raise _Bad(column, several % {"name": name})
        return found[0]

    def row(self, number: int, record: dict[str, Any]) -> None:
        name = str(record["character"] or "").strip()
        card_name = str(record["card"] or "").strip()
        list_name = str(record["list"] or "").strip()
        try:
            character = self._one(
                self.characters.get(name_key(name), []),
                "character",
                name,
                _("No character “%(name)s” in this event."),
                _("The event has several characters named “%(name)s”; rename them first."),
            )
            card = self._one(
                self.cards.get(name_key(card_name), []),
                "card",
                card_name,
                _("No card “%(name)s” in the event's catalogue."),
                _("Several cards of the catalogue are named “%(name)s”."),
            )
            copies = _copies(record["copies"])
            if copies is None:
                raise _Bad(
                    "copies",
                    _("“%(value)s” is not a whole number from 1 to %(max)d.")
                    % {"value": record["copies"] if record["copies"] is not None else "", "max": MAX_COPIES},
                )
            kind = LIST_WORDS.get(list_name.casefold())
            if not kind and not list_name:
                raise _Bad("list", _("say pool, arsenal or the name of a prepared arsenal."))
            if not kind and len(list_name) > PREPARED_NAME_MAX:
                raise _Bad("list", _("a prepared arsenal's name is at most 100 characters."))
        except _Bad as bad:
            self.errors.append((number, bad.column, bad.message))
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
            self.errors.append((number, "card", _("“%(card)s” appears twice in this list.") % {"card": card_name}))
            return
        target[card.pk] = copies


def _ids(copies: dict[int, int]) -> list[int]:
    return [card_id for card_id, n in copies.items() for _ in range(n)]


def _apply(character: Character, lists: _Lists, names: dict[int, str]) -> RowErrors:
    """Replace the lists the file names for one character; the refusals, row by row."""
    errors: RowErrors = []
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
            errors.append((lists.rows[POOL], None, _refusal(err, names)))
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
            errors.append((lists.rows[ARSENAL], None, _refusal(err, names)))
    for name, copies in lists.prepared.items():
        try:
            services.save_prepared(character, name, _ids(copies))
        except RuleError as err:
            errors.append((lists.rows[name], None, _refusal(err, names)))
    return errors


CHECK_CHARACTERS = 50


@dataclass
class _Plan:
    reader: _Reader
    order: list[int]
    names: dict[int, str]


def _snapshot(character: Character, lists: _Lists, entry: dict[str, Any]) -> None:
    """The lists this file replaces for one character, as they are now (undo puts them back)."""
    owner = {"character_id": character.pk}
    if lists.pool is not None:
        entry["cleared"].append([journal.label(PoolEntry), owner])
        entry["rows"].append(journal.snapshot(PoolEntry.objects.filter(**owner)))
    if lists.arsenal is not None:
        entry["cleared"].append([journal.label(ArsenalCard), owner])
        entry["rows"].append(journal.snapshot(ArsenalCard.objects.filter(**owner)))
        restorable = Character.objects.filter(pk=character.pk).values_list("restorable_arsenal", flat=True).first()
        entry["fields"].append([journal.label(Character), character.pk, {"restorable_arsenal": restorable}])
    for name in lists.prepared:
        lookup = {**owner, "name": name}
        entry["cleared"].append([journal.label(PreparedArsenal), lookup])
        kept = list(PreparedArsenal.objects.filter(**lookup))
        entry["rows"].append(journal.snapshot([*kept, *PreparedArsenalCard.objects.filter(arsenal__in=kept)]))


FIELDS = {
    "character": (gettext_lazy("character"), ("персонаж", "имя", "имя персонажа")),
    "list": (gettext_lazy("list (pool, arsenal or a prepared arsenal)"), ("список", "где", "набор")),
    "card": (gettext_lazy("card"), ("карта", "название карты", "название")),
    "copies": (gettext_lazy("copies"), ("копий", "количество", "экземпляров", "число", "шт")),
}


class ArsenalKind(ImportKind):
    key = "arsenals"
    label = gettext_lazy("pools and arsenals")
    columns = COLUMNS
    required = COLUMNS

    def done_message(self, record: Any) -> str:
        return done_message(record.updated)

    def lookups(self, event: Event) -> dict[str, Any]:
        cards = Card.objects.filter(catalogue__events=event)
        return {
            "character": Character.objects.filter(event=event).values_list("name", flat=True),
            "card": [name for pair in cards.values_list("name_ru", "name_en") for name in pair if name],
        }

    def fields(self, event: Event) -> list[FieldSpec]:
        return [
            FieldSpec(key, str(label), True, labels=in_every_language(label), aliases=aliases)
            for key, (label, aliases) in FIELDS.items()
        ]

    def check(self, event: Event, table: Table, tick: Tick) -> Checked:
        """Every row read, then every character's lists applied in short transactions that are rolled back."""
        reader = _Reader(event)
        for number, record in table.records():
            reader.row(number, record)
        if reader.errors:
            return Checked(errors=sorted(reader.errors, key=lambda e: e[0] or 0))
        names = {card.pk: card.name_ru for cards in reader.cards.values() for card in cards}
        order = list(reader.lists)
        errors: RowErrors = []
        for start in range(0, len(order), CHECK_CHARACTERS):
            with transaction.atomic():
                for character_id in order[start : start + CHECK_CHARACTERS]:
                    errors.extend(_apply(reader.by_id[character_id], reader.lists[character_id], names))
                transaction.set_rollback(True)
            tick(len(table.rows) * (start + CHECK_CHARACTERS) // max(1, len(order)))
        return Checked(
            errors=sorted(errors, key=lambda e: e[0] or 0), units=len(order), plan=_Plan(reader, order, names)
        )

    def write(
        self, event: Event, table: Table, checked: Checked, start: int, stop: int, entry: dict[str, Any]
    ) -> tuple[int, int]:
        plan: _Plan = checked.plan
        for character_id in plan.order[start:stop]:
            character, lists = plan.reader.by_id[character_id], plan.reader.lists[character_id]
            _snapshot(character, lists, entry)
            errors = _apply(character, lists, plan.names)
            if errors:
                raise ImportStopped(errors)
        return 0, stop - start


def done_message(updated: int) -> str:
    return ngettext(
        "Imported the card lists of %(count)d character.", "Imported the card lists of %(count)d characters.", updated
    ) % {"count": updated}


def register_kinds() -> None:
    register(ArsenalKind())


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

"""Which rows an event file holds: every model that belongs to an event (issue 20, duels/archive.py).

An event's rows are its own (staff, characters, fights, armies, print runs),
its characters' (pools, arsenals, prepared arsenals, condition records), its
fights' (log entries), its armies' (warriors), and its catalogue's (cards,
counter rules, magic cards). tests/test_event_archive_complete.py walks the
app registry from ``Event`` along every foreign key and many-to-many field
and fails when a model on such a path is not listed here, so a new model
cannot be left out of the file (and lost when a game moves) by oversight.

Apps above the fight apps in the layers (the lab) add their models with
``archive_also`` from their ``AppConfig.ready``: the archive imports none of
them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils.translation import gettext as _

from cards.models import ArsenalCard, Card, Catalogue, CounterRule, PoolEntry, PreparedArsenal, PreparedArsenalCard
from cards.models_mass import Army, MagicCard, Warrior, WarriorType
from cards.printing.models import PrintRun
from duels.models import LogEntry, Situation
from events.imports.models import ColumnMapping, ImportBatch, JoinRpgSync, TableImport
from events.models import Character, ConditionRecord, Event, Handout, StaffRole

Rows = Callable[[Event], "models.QuerySet[Any]"]


def _catalogue_ids(event: Event) -> list[int]:
    # An event without a catalogue yet has no catalogue, cards or counter rules to archive.
    return [] if event.catalogue_id is None else [event.catalogue_id]


HistoricalCharacter: Any = Character.history.model
HistoricalPoolEntry: Any = PoolEntry.history.model
HistoricalArsenalCard: Any = ArsenalCard.history.model
HistoricalPreparedArsenal: Any = PreparedArsenal.history.model
HistoricalPreparedArsenalCard: Any = PreparedArsenalCard.history.model
HistoricalCard: Any = Card.history.model
HistoricalCounterRule: Any = CounterRule.history.model


def _character_ids(event: Event) -> set[int]:
    """The event's characters, alive or deleted (known by their history)."""
    alive = set(Character.objects.filter(event=event).values_list("pk", flat=True))
    return alive | set(HistoricalCharacter.objects.filter(event=event).values_list("id", flat=True))


def _prepared_ids(event: Event) -> set[int]:
    characters = _character_ids(event)
    alive = set(PreparedArsenal.objects.filter(character_id__in=characters).values_list("pk", flat=True))
    known = HistoricalPreparedArsenal.objects.filter(character_id__in=characters).values_list("id", flat=True)
    return alive | set(known)


def _card_ids(event: Event) -> set[int]:
    catalogues = _catalogue_ids(event)
    alive = set(Card.objects.filter(catalogue_id__in=catalogues).values_list("pk", flat=True))
    return alive | set(HistoricalCard.objects.filter(catalogue_id__in=catalogues).values_list("id", flat=True))


def tracked_model(model: type[models.Model]) -> type[models.Model] | None:
    """The model whose edits a history model records (``None`` for any other model)."""
    tracked = getattr(model, "instance_type", None)
    return tracked if isinstance(tracked, type) and getattr(tracked, "history", None) is not None else None


# In the order an import saves them (every foreign key points to an earlier model).
_CORE: list[tuple[type[models.Model], Rows]] = [
    (Catalogue, lambda e: Catalogue.objects.filter(pk__in=_catalogue_ids(e))),
    (Card, lambda e: Card.objects.filter(catalogue_id__in=_catalogue_ids(e))),
    (CounterRule, lambda e: CounterRule.objects.filter(defence_card__catalogue_id__in=_catalogue_ids(e))),
    (MagicCard, lambda e: MagicCard.objects.filter(catalogue_id__in=_catalogue_ids(e))),
    (Event, lambda e: Event.objects.filter(pk=e.pk)),
    (StaffRole, lambda e: StaffRole.objects.filter(event=e)),
    (Character, lambda e: Character.objects.filter(event=e)),
    (ConditionRecord, lambda e: ConditionRecord.objects.filter(character__event=e)),
    (PoolEntry, lambda e: PoolEntry.objects.filter(character__event=e)),
    (ArsenalCard, lambda e: ArsenalCard.objects.filter(character__event=e)),
    (PreparedArsenal, lambda e: PreparedArsenal.objects.filter(character__event=e)),
    (PreparedArsenalCard, lambda e: PreparedArsenalCard.objects.filter(arsenal__character__event=e)),
    # Mass battles: a warrior's id is its uid in a mass battle's state and log.
    (WarriorType, lambda e: WarriorType.objects.filter(event=e)),
    (Army, lambda e: Army.objects.filter(event=e)),
    (Warrior, lambda e: Warrior.objects.filter(army__event=e)),
    (Situation, lambda e: Situation.objects.filter(event=e)),
    (LogEntry, lambda e: LogEntry.objects.filter(situation__event=e)),
    # The print runs' settings (who, what, in which language); their PDFs stay on the machine.
    (PrintRun, lambda e: PrintRun.objects.filter(event=e)),
    (Handout, lambda e: Handout.objects.filter(character__event=e)),
    # Table imports and what they remember (a batch's undo journal stays on the machine: _RUNTIME).
    (TableImport, lambda e: TableImport.objects.filter(event=e)),
    (ImportBatch, lambda e: ImportBatch.objects.filter(table_import__event=e)),
    (ColumnMapping, lambda e: ColumnMapping.objects.filter(event=e)),
    (JoinRpgSync, lambda e: JoinRpgSync.objects.filter(event=e)),
    # The organizers' edit history (docs/history.md), in history_id order, deleted objects' rows
    # included. Its foreign keys are no database constraints (a history row outlives its object):
    # each is found by its owner's id, the owner alive or known only by its own history.
    (HistoricalCharacter, lambda e: HistoricalCharacter.objects.filter(event=e)),
    (HistoricalPoolEntry, lambda e: HistoricalPoolEntry.objects.filter(character_id__in=_character_ids(e))),
    (HistoricalArsenalCard, lambda e: HistoricalArsenalCard.objects.filter(character_id__in=_character_ids(e))),
    (
        HistoricalPreparedArsenal,
        lambda e: HistoricalPreparedArsenal.objects.filter(character_id__in=_character_ids(e)),
    ),
    (
        HistoricalPreparedArsenalCard,
        lambda e: HistoricalPreparedArsenalCard.objects.filter(arsenal_id__in=_prepared_ids(e)),
    ),
    (HistoricalCard, lambda e: HistoricalCard.objects.filter(catalogue_id__in=_catalogue_ids(e))),
    (HistoricalCounterRule, lambda e: HistoricalCounterRule.objects.filter(defence_card_id__in=_card_ids(e))),
]
_ALSO: list[tuple[type[models.Model], Rows]] = []


def archive_also(model: type[models.Model], rows: Rows) -> None:
    """An app above the fight apps adds a model of an event's (after every core model: it may point at them)."""
    if model not in archived_models():
        _ALSO.append((model, rows))


def archived_models() -> tuple[type[models.Model], ...]:
    return tuple(model for model, _rows in [*_CORE, *_ALSO])


def labels() -> dict[str, type[models.Model]]:
    return {model._meta.label_lower: model for model in archived_models()}


def rows_of(event: Event) -> list[tuple[type[models.Model], models.QuerySet[Any]]]:
    return [(model, rows(event)) for model, rows in [*_CORE, *_ALSO]]


def accounts_of(event: Event) -> set[int]:
    """Every account any row of the event names (staff, players, commanders, log entries, records, runs)."""
    user_model = get_user_model()
    ids: set[int] = set()
    for model, rows in rows_of(event):
        for field in model._meta.concrete_fields:
            if field.related_model is user_model:
                ids |= {pk for pk in rows.values_list(field.attname, flat=True) if pk is not None}
    return ids


# --- what does not travel ---------------------------------------------------------------------------
# A print run's PDF and its parts are files of the machine that printed them, and a lab run or a
# print run that had not finished has no worker on the new one: the file says what was asked for,
# and the run arrives finished (a print is made again in minutes; a lab run is started again).
# A table import's journal (events/imports/journal.py) is the undo of a batch on this database: it
# names rows by model and id and holds their earlier copies, so it never travels (a file's journal
# could name any row of the new installation); the batches' count and numbers do.
_RUNTIME: dict[str, dict[str, Any]] = {
    "cards.printrun": {"file_name": "", "parts": [], "parts_done": 0},
    "events.importbatch": {"entry": {}},
}
_UNFINISHED = {
    "cards.printrun": ("status", {"queued", "running", "joining"}, "failed", "error"),
    "lab.labrun": ("status", {"queued", "running"}, "failed", "error"),
    # One still waiting for its columns to be matched goes on here: its file came with it.
    "events.tableimport": ("status", {"queued", "checking", "writing"}, "failed", "failure"),
}


def leaving(item: dict[str, Any]) -> dict[str, Any]:
    """A serialized row as the file holds it: without what belongs to this machine only."""
    runtime = _RUNTIME.get(item["model"])
    return {**item, "fields": {**item["fields"], **runtime}} if runtime else item


# Fields a file written by an earlier version names otherwise: old name -> (name now, its value now).
# M3 (issue 21): a magic card's "negative" (protection stops it) became "acts on protected warriors
# too", its opposite; the migration turned every card so (cards/0011_mass_acts_on_protected).
_RENAMED: dict[str, dict[str, tuple[str, Any]]] = {
    "cards.magiccard": {"negative": ("acts_on_protected", lambda negative: not negative)},
}


def arriving(item: dict[str, Any]) -> dict[str, Any]:
    """A row of the file as it is saved here: no file name of this machine, no run left waiting for a worker.

    Whatever the file says: a crafted print run's file name could otherwise name
    any file of this machine for its download.
    """
    item = leaving(item)
    renamed = _RENAMED.get(item["model"], {})
    if any(old in item["fields"] for old in renamed):
        fields = dict(item["fields"])
        for old, (new, value_of) in renamed.items():
            if old in fields:
                value = fields.pop(old)
                fields.setdefault(new, value_of(value))
        item = {**item, "fields": fields}
    unfinished = _UNFINISHED.get(item["model"])
    if unfinished is not None:
        field, waiting, finished, note_field = unfinished
        if item["fields"].get(field) in waiting:
            note = _("It had not finished when the event was moved to this installation; start it again.")
            item = {**item, "fields": {**item["fields"], field: finished, note_field: note}}
    return item

"""One import, checked and then written in short batches (issue 27; docs/import.md).

1. **Check** every row first (``ImportKind.check``): without writing, or in short
   transactions rolled back, so the database's write lock is free meanwhile. Any error
   and the import is *refused*: nothing is written, every bad row is listed.
2. **Write** in batches sized to take ``TARGET_SECONDS`` each (a fraction of a second,
   measured as it goes), each in its own transaction with its journal entry
   (events/imports/journal.py), then a pause of ``PAUSE_SECONDS``, long enough for a
   request waiting on SQLite's write lock to take it (SQLite's busy handler retries every
   100 ms at most). A login or a referee's tap waits for one batch at most, never for
   the whole file.
3. **All or nothing** stays what the organizer sees: if a batch fails (the data changed
   since the check, the disk filled, the worker was killed and the task came back), every
   written batch is taken back from the journal, newest first, and the import ends
   *stopped and undone* with the reason. An import is only *imported* once every batch is.

Small files run during the organizer's request (``INLINE_ROWS``); longer ones in the Celery
worker (events/imports/tasks.py), with the progress in the ``TableImport`` row.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from events.imports import journal
from events.imports.kinds import Checked, ImportKind, ImportStopped, kind_of
from events.imports.models import ImportBatch, TableImport
from events.imports.suggest import with_suggestions
from helpers.tables import Table, TableError

logger = logging.getLogger(__name__)

INLINE_ROWS = 200
TARGET_SECONDS = 0.3
FIRST_BATCH = 20
MAX_BATCH = 1000
PROGRESS_EVERY = 0.5
KEEP_IMPORTS = 10
Status = TableImport.Status


def pause_seconds() -> float:
    """Between batches: longer than SQLite's slowest busy retry (100 ms); PostgreSQL needs next to none."""
    return 0.15 if connection.vendor == "sqlite" else 0.01


def raw_table(record: TableImport) -> Table:
    """The file as it was read: under its header as written (a mapped import) or under our columns."""
    source = record.source
    headers = list(source["headers"])
    return Table(
        headers, [list(r) for r in source["rows"]], list(source["numbers"]), "", list(source.get("labels", headers))
    )


def source_table(record: TableImport) -> Table:
    """The rows to import, in the kind's own columns: the file's, or as the organizer mapped them."""
    from events.imports.mapping import Mapping, apply

    table = raw_table(record)
    if record.source.get("mapped"):
        return apply(Mapping.from_json(record.mapping), table)
    corrections = record.mapping.get("corrections") or {}
    for number, row in zip(table.numbers, table.rows, strict=True):
        for index, column in enumerate(table.headers):
            if f"{number}:{column}" in corrections:
                row[index] = corrections[f"{number}:{column}"]
    return table


def start(
    event: Any, kind: str, table: Table, *, user: Any = None, file_name: str = "", mapped: bool = False
) -> TableImport:
    """Record an import of ``table`` (already read within the bounds): waiting to run, or to be mapped first."""
    record = TableImport.objects.create(
        event=event,
        kind=kind,
        requested_by=user if getattr(user, "is_authenticated", False) else None,
        language=translation.get_language() or "ru",
        file_name=file_name[:200],
        source={
            "headers": table.headers,
            "labels": table.labels or table.headers,
            "rows": table.rows,
            "numbers": table.numbers,
            "mapped": mapped,
        },
        status=Status.MAPPING if mapped else Status.QUEUED,
        total=len(table.rows),
    )
    _forget_old(record)
    return record


def _forget_old(record: TableImport) -> None:
    """Only the last imports of an event keep their record; a finished one keeps no file."""
    finished = [Status.DONE, Status.REFUSED, Status.FAILED, Status.MAPPING]
    old = TableImport.objects.filter(event_id=record.event_id, status__in=finished).order_by("-created_at", "-pk")
    for stale in old[KEEP_IMPORTS:]:
        stale.delete()


def _claim(import_id: int) -> TableImport | None:
    """QUEUED → CHECKING for exactly one runner; a run found half-way (its worker died) is undone."""
    with transaction.atomic():
        record = TableImport.objects.select_for_update().get(pk=import_id)
        if record.status in (Status.CHECKING, Status.WRITING):
            interrupted = True
        elif record.status == Status.QUEUED:
            interrupted = False
            record.status = Status.CHECKING
            record.save(update_fields=["status", "updated_at"])
        else:
            return None
    if interrupted:
        _undo_and_fail(record, _("The import was interrupted (the server stopped); what it had written was undone."))
        return None
    return record


def _finish(record: TableImport, status: str, **values: Any) -> None:
    TableImport.objects.filter(pk=record.pk).update(status=status, finished_at=timezone.now(), **values)


def _undo_and_fail(record: TableImport, reason: str, errors: list[Any] | None = None) -> None:
    journal.undo_import(record.pk)
    _finish(record, Status.FAILED, failure=reason[:2000], errors=errors or [], written=0, created=0, updated=0)


def run(import_id: int, *, kinds: Callable[[str], ImportKind] = kind_of) -> TableImport:
    """Check, then write the import; idempotent (a repeated or late call changes nothing).

    ``kinds`` finds the import's kind by its key: the registry (``kinds.kind_of``) unless a test
    hands in its own, e.g. one that wraps the real kind to hold the check until requests were timed
    (tests/concurrency/import_stall.py)."""
    record = _claim(import_id)
    if record is not None:
        with translation.override(record.language):
            _run(record, kinds(record.kind))
    return TableImport.objects.get(pk=import_id)


def _run(record: TableImport, kind: ImportKind) -> None:
    event = record.event
    last = [0.0]

    def tick(done: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY:
            last[0] = now
            TableImport.objects.filter(pk=record.pk).update(checked=done, updated_at=timezone.now())

    try:
        table = source_table(record)
        checked = kind.check(event, table, tick)
    except TableError as err:
        _finish(record, Status.REFUSED, errors=[[None, None, str(err)]])
        return
    except Exception:
        logger.exception("import %s could not be checked", record.pk)
        _finish(record, Status.FAILED, failure=_("The file could not be checked; nothing was imported."))
        return
    warnings = [list(w) for w in checked.warnings]
    if checked.errors:
        _finish(record, Status.REFUSED, errors=_suggested(kind, event, table, checked.errors), warnings=warnings)
        return
    TableImport.objects.filter(pk=record.pk).update(
        status=Status.WRITING, checked=len(table.rows), warnings=warnings, updated_at=timezone.now()
    )
    try:
        _write(record, kind, event, table, checked)
    except ImportStopped as stop:
        _undo_and_fail(
            record,
            _("The data changed while the file was being written; what it had written was undone."),
            [list(e) for e in stop.errors],
        )
        return
    except Exception as err:
        logger.exception("import %s stopped while writing", record.pk)
        _undo_and_fail(
            record,
            _("The import stopped while writing (%(reason)s); what it had written was undone.")
            % {"reason": str(err)[:300]},
        )
        return
    _finish(record, Status.DONE)


def _suggested(kind: Any, event: Any, table: Table, errors: list[Any]) -> list[list[Any]]:
    """The errors, each unknown name with the closest known one (events/imports/suggest.py)."""
    lookups = kind.lookups(event)
    wanted = {(row, column) for row, column, *_rest in errors if column in lookups and row is not None}
    cells = {}
    for column in {column for _row, column in wanted}:
        if column in table.headers:
            index = table.headers.index(column)
            for number, row in zip(table.numbers, table.rows, strict=True):
                if (number, column) in wanted:
                    cells[(number, column)] = row[index]
    return with_suggestions(errors, cells, lookups)


def next_batch(rows: int, seconds: float) -> int:
    """The next batch's size: what takes ``TARGET_SECONDS`` at this batch's pace, never more than doubling."""
    return max(1, min(MAX_BATCH, rows * 2, int(rows * TARGET_SECONDS / max(seconds, 1e-3))))


def _write(record: TableImport, kind: Any, event: Any, table: Table, checked: Checked) -> None:
    units = checked.units
    size, begin, number = FIRST_BATCH, 0, 0
    pause = pause_seconds()
    while begin < units:
        stop = min(units, begin + size)
        started = time.monotonic()
        with transaction.atomic():
            entry = journal.new_entry()
            created, updated = kind.write(event, table, checked, begin, stop, entry)
            ImportBatch.objects.create(table_import=record, number=number, entry=entry)
            TableImport.objects.filter(pk=record.pk).update(
                written=stop * record.total // max(units, 1),
                created=F("created") + created,
                updated=F("updated") + updated,
                updated_at=timezone.now(),
            )
        size = next_batch(stop - begin, time.monotonic() - started)
        begin, number = stop, number + 1
        if begin < units:
            time.sleep(pause)

"""A step's fixed statements as SQL written here, not compiled by the ORM on every step (issue 24).

The referee's step sends the same few statements every time: the row's lock
and read, the newest log entries, the log insert, the state update, and the
staff check before them. Compiling them (``as_sql``, ``get_select``,
``pre_sql_setup``) was ~25 % of a step's CPU (docs/performance.md). Here they
are plain parameterised SQL through Django's connection cursor (so Django's
transactions, error wrapping and query capture in tests see them as any
other), and the rows become model instances exactly as the ORM would make
them: the same columns, the fields' own converters (``from_db_value``, the
backend's datetime and boolean handling) and ``Model.from_db``; the values
written go through the fields' ``get_db_prep_save``. tests/services/test_rows.py
holds each to what the ORM reads and writes, on SQLite and PostgreSQL.

PostgreSQL takes the row lock (``FOR UPDATE OF``, ``NOWAIT`` for a refresh);
SQLite has no row locks (its IMMEDIATE transactions serialise every writer),
so there the clause is left out, as the ORM's ``select_for_update`` does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import DatabaseError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.utils import timezone

from duels.models import LogEntry, Situation
from events.models import Event, StaffRole
from helpers.columns import Columns, WithParent, quoted
from helpers.columns import db as _db

# The situation a step changes: everything but the opening snapshot (~40 KB a step never reads).
SITUATION = Columns(Situation, leave=("opening",))
# What the staff check reads first: the version columns; the state loads on first use.
SITUATION_META = Columns(Situation, only=("id", "event_id", "kind", "version", "next_deadline", "ended"))
EVENT = Columns(Event)
# Each with its event's row (the ORM's ``select_related("event")``).
WHOLE, META = WithParent(SITUATION, EVENT, "event"), WithParent(SITUATION_META, EVENT, "event")
ENTRY = Columns(LogEntry)
ACTOR = Columns(User)
# The columns a step's update writes (``store.store_state``), ``updated_at`` as ``auto_now`` would.
STEP_UPDATE = ("state", "version", "next_deadline", "ended", "ended_at", "updated_at")


def _lock_clause(db: BaseDatabaseWrapper, nowait: bool) -> str:
    if not db.features.has_select_for_update:
        return ""
    clause = " FOR UPDATE"
    if db.features.has_select_for_update_of:
        clause += f" OF {quoted(Situation._meta.db_table)}"
    if nowait and db.features.has_select_for_update_nowait:
        clause += " NOWAIT"
    return clause


def locked_situation(situation_id: int, *, nowait: bool = False) -> Situation | None:
    """The situation row with its event, locked until the transaction ends (the event stays unlocked); None if missing.

    ``nowait``: a lock another transaction holds is refused at once
    (PostgreSQL's lock_not_available, an ``OperationalError``) instead of waited for.
    """
    db = _db()
    where = f"{quoted(Situation._meta.db_table)}.{quoted('id')} = %s"
    sql = f"{WHOLE.select} WHERE {where}{_lock_clause(db, nowait)}"
    with db.cursor() as cursor:
        cursor.execute(sql, [situation_id])
        row = cursor.fetchone()
    return None if row is None else WHOLE.build(row, db)


def situation_by_id(situation_id: int, *, whole: bool) -> Situation | None:
    """The situation with its event, or None: a public page's read (``whole``: but the opening; else the meta)."""
    read = WHOLE if whole else META
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(f"{read.select} WHERE {quoted(Situation._meta.db_table)}.{quoted('id')} = %s", [situation_id])
        row = cursor.fetchone()
    return None if row is None else read.build(row, db)


def unfinished_for(character_id: int, *, whole: bool) -> list[Situation]:
    """The character's unfinished situations with their events, newest first (``whole``: as ``situation_by_id``)."""
    read = WHOLE if whole else META
    through = Situation.participants.through
    s, p = quoted(Situation._meta.db_table), quoted(through._meta.db_table)
    situation_col = quoted(through._meta.get_field("situation").column)
    character_col = quoted(through._meta.get_field("character").column)
    sql = (
        f"{read.select} INNER JOIN {p} ON ({p}.{situation_col} = {s}.{quoted('id')}) "
        f"WHERE {p}.{character_col} = %s AND {s}.{quoted('ended')} = %s ORDER BY {s}.{quoted('id')} DESC"
    )
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(sql, [character_id, False])
        return [read.build(row, db) for row in cursor.fetchall()]


def _staff_sql(read: WithParent) -> str:
    s, r = quoted(Situation._meta.db_table), quoted(StaffRole._meta.db_table)
    return (
        f"{read.select} WHERE {s}.{quoted('id')} = %s AND EXISTS (SELECT 1 FROM {r} "
        f"WHERE {r}.{quoted('event_id')} = {s}.{quoted('event_id')} AND {r}.{quoted('user_id')} = %s "
        f"AND {r}.{quoted('role')} IN (%s, %s))"
    )


def situation_for_staff(user_id: int, situation_id: int, roles: tuple[str, str], *, whole: bool) -> Situation | None:
    """The situation with its event if the user holds one of ``roles`` in its event, in one statement; else None.

    ``whole``: every column but the opening; else only the version columns
    (the rest loads on first use, as the ORM's ``only`` leaves it).
    """
    read = WHOLE if whole else META
    db = _db()
    with db.cursor() as cursor:
        cursor.execute(_staff_sql(read), [situation_id, user_id, *roles])
        row = cursor.fetchone()
    return None if row is None else read.build(row, db)


class Entries(Sequence[LogEntry]):
    """Log entries, newest first: some built already (``head``), the rest read as rows and built on first use.

    A step reads its fight's newest entries for the next ``seq`` and for the
    page it answers with; most answers describe only the step's own lines
    (``Performed.added``), so building the twenty older ones as models (their
    JSON decoded, each with its actor and situation) was ~8 % of a step spent
    on nothing. An entry is built when it is asked for, once. ``undone()``
    builds only the undone ones (a duel's answer tells an instant attack that
    repeats an undone one, IA3).
    """

    def __init__(self, situation: Situation, head: Sequence[LogEntry], rows: Sequence[Sequence[Any]]) -> None:
        self.situation = situation
        self._head = list(head)
        self._rows = list(rows)
        self._built: dict[int, LogEntry] = {}
        self._actors: dict[Any, User | None] = {None: None}

    def __len__(self) -> int:
        return len(self._head) + len(self._rows)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            wanted = range(len(self))[index]
            if index.step in (None, 1) and wanted.start == 0:
                # The newest ``n``: still lazy (a page's bound on what it shows).
                kept = len(wanted)
                head = self._head[:kept]
                rows = self._rows[: max(0, kept - len(self._head))]
                cut = Entries(self.situation, head, rows)
                cut._built, cut._actors = self._built, self._actors  # the same rows, the same indices
                return cut
            return [self[i] for i in wanted]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index < len(self._head):
            return self._head[index]
        return self._row(index - len(self._head))

    def __iter__(self) -> Iterator[LogEntry]:
        yield from self._head
        for i in range(len(self._rows)):
            yield self._row(i)

    @property
    def newest_seq(self) -> int | None:
        """The newest entry's ``seq`` without building it (None: no entry)."""
        if self._head:
            return int(self._head[0].seq)
        return int(self._rows[0][_SEQ]) if self._rows else None

    def undone(self) -> list[LogEntry]:
        """The undone entries among these, newest first (only they are built)."""
        found = [e for e in self._head if e.undone]
        found.extend(self._row(i) for i, row in enumerate(self._rows) if row[_UNDONE])
        return found

    def with_command(self, word: str) -> list[LogEntry]:
        """The entries whose command may mention ``word``, newest first: only they are built.

        A pre-filter on the command's stored JSON text (the caller still reads the decoded command): an entry
        whose text does not contain ``word`` is left unbuilt; one read as already decoded is built.
        """
        found = [e for e in self._head if e.command and word in json.dumps(e.command)]
        for i, row in enumerate(self._rows):
            raw = row[_COMMAND]
            if raw is not None and (not isinstance(raw, str) or word in raw):
                found.append(self._row(i))
        return found

    def after(self, added: Sequence[LogEntry], limit: int) -> Entries:
        """``added`` (newest first) before these, the newest ``limit`` of all, the rows not yet built left so."""
        whole = Entries(self.situation, [*added, *self._head], self._rows)
        whole._built, whole._actors = self._built, self._actors
        return whole[:limit]

    def _row(self, i: int) -> LogEntry:
        entry = self._built.get(i)
        if entry is None:
            entry = self._built[i] = _entry(self._rows[i], self.situation, self._actors)
        return entry


def _entry(row: Sequence[Any], situation: Situation, actors: dict[Any, User | None]) -> LogEntry:
    db = _db()
    entry = ENTRY.build(row[: len(ENTRY)], db)
    actor_id = row[len(ENTRY)]
    if actor_id not in actors:
        # A fight's lines are mostly one or two referees': one instance each, not one per line.
        actors[actor_id] = ACTOR.build(row[len(ENTRY) :], db)
    _ACTOR_FIELD.set_cached_value(entry, actors[actor_id])
    _SITUATION_FIELD.set_cached_value(entry, situation)
    return entry


_ACTOR_FIELD = LogEntry._meta.get_field("actor")
_SITUATION_FIELD = LogEntry._meta.get_field("situation")
_SEQ = ENTRY.attnames.index("seq")
_UNDONE = ENTRY.attnames.index("undone")
_COMMAND = ENTRY.attnames.index("command")


def undone_of(entries: Iterable[LogEntry]) -> list[LogEntry]:
    """The undone ones among ``entries`` (of ``Entries``, only they are built)."""
    return entries.undone() if isinstance(entries, Entries) else [e for e in entries if e.undone]


def with_command(entries: Iterable[LogEntry], word: str) -> list[LogEntry]:
    """The entries among ``entries`` whose command may mention ``word`` (of ``Entries``, only they are built)."""
    if isinstance(entries, Entries):
        return entries.with_command(word)
    return [e for e in entries if e.command and word in json.dumps(e.command)]


def newest_entries(situation: Situation, limit: int) -> Entries:
    """The situation's newest ``limit`` log entries, newest first, each with its actor (or None) and situation.

    Read at once, built as models when used (``Entries``).
    """
    le, u = quoted(LogEntry._meta.db_table), quoted(User._meta.db_table)
    sql = (
        f"SELECT {ENTRY.select}, {ACTOR.select} FROM {le} LEFT OUTER JOIN {u} "
        f"ON ({le}.{quoted('actor_id')} = {u}.{quoted('id')}) "
        f"WHERE {le}.{quoted('situation_id')} = %s ORDER BY {le}.{quoted('seq')} DESC LIMIT {int(limit)}"
    )
    with _db().cursor() as cursor:
        cursor.execute(sql, [situation.pk])
        rows = cursor.fetchall()
    return Entries(situation, (), rows)


_INSERTED = [f for f in ENTRY.fields if not f.primary_key]


def insert_entries(entries: Sequence[LogEntry]) -> None:
    """``LogEntry.objects.bulk_create(entries)`` in one statement; each entry gets its id, as bulk_create gives it."""
    if not entries:
        return
    db = _db()
    if not db.features.can_return_rows_from_bulk_insert:
        LogEntry.objects.bulk_create(entries)
        return
    le = quoted(LogEntry._meta.db_table)
    row = "(" + ", ".join(["%s"] * len(_INSERTED)) + ")"
    sql = (
        f"INSERT INTO {le} ({', '.join(quoted(f.column) for f in _INSERTED)}) "
        f"VALUES {', '.join([row] * len(entries))} RETURNING {le}.{quoted('id')}"
    )
    params = [f.get_db_prep_save(f.pre_save(entry, True), db) for entry in entries for f in _INSERTED]
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        ids = [r[0] for r in cursor.fetchall()]
    for entry, pk in zip(entries, ids, strict=True):
        entry.pk = pk
        entry._state.adding = False
        entry._state.db = db.alias


_UPDATED = [f for name in STEP_UPDATE for f in SITUATION.fields if f.name == name]
assert len(_UPDATED) == len(STEP_UPDATE)


def update_state(situation: Situation) -> None:
    """``situation.save(update_fields=STEP_UPDATE)`` without its bookkeeping: the step's one UPDATE.

    ``updated_at`` is set to now as ``auto_now`` sets it. The snapshots the
    state names are the caller's (``Situation.store_named_snapshots``).
    """
    situation.updated_at = timezone.now()
    s = quoted(Situation._meta.db_table)
    sets = ", ".join(f"{quoted(f.column)} = %s" for f in _UPDATED)
    db = _db()
    params = [f.get_db_prep_save(getattr(situation, f.attname), db) for f in _UPDATED]
    with db.cursor() as cursor:
        cursor.execute(f"UPDATE {s} SET {sets} WHERE {s}.{quoted('id')} = %s", [*params, situation.pk])
        if cursor.rowcount == 0:
            raise DatabaseError("Save with update_fields did not affect any rows.")

"""Changing a running situation: commands, undo, and applying deadlines on read."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as Person
from django.db import IntegrityError, transaction
from django.utils import timezone

from duels.models import LogEntry, Situation
from duels.services import rows
from duels.services.errors import NothingToUndo, ReasonRequired, SituationEnded, StaleVersion
from duels.services.grace import graced
from duels.services.kinds import SituationKind, kind_of, replay
from duels.services.store import (
    RECENT_ENTRIES,
    Performed,
    Transition,
    actor_of,
    check_nonce,
    lock,
    nonce_used,
    store_state,
    stored_events,
)
from rules import RuleError

logger = logging.getLogger(__name__)

# Who acts: the request's user (signed in or not), or None for the server itself.
User = Person | AnonymousUser | None
# What a replay never reads of a log entry: the events are the largest part of a long log.
REPLAY_UNNEEDED = ("events", "reason", "nonce", "actor")


@contextmanager
def commit_then_refuse(*refusals: type[Exception]) -> Iterator[None]:
    """One transaction that commits even when one of ``refusals`` ends it, then raises that refusal.

    Every change first applies the overdue deadlines (D8, S2). A command that
    is then refused must not take them back: they are facts any read would
    have applied. So the block saves what it has before a refusal leaves it
    (``except RuleError: tx.save(); raise``), and a refusal of one of these kinds
    commits the transaction on its way out instead of rolling it back. Any
    other exception rolls everything back as usual (DESIGN.md §4).
    """
    refused: Exception | None = None
    with transaction.atomic():
        try:
            yield
        except refusals as err:
            refused = err
    if refused is not None:
        raise refused


def _begin(
    situation_id: int, *, nonce: str, seen_version: int, now: dt.datetime, expire: bool = True
) -> tuple[Situation, Transition | None]:
    """The common start of every change, inside the caller's transaction (DESIGN.md §4).

    Lock the row; a repeated nonce gives no transition (nothing to do); a stale
    version is refused; overdue deadlines are applied before anything else.

    One read of the log's newest entries gives both the next ``seq`` and what
    the page shows after the change (``Performed.recent``). The nonce is
    looked up only when the version is stale: a repeated submission carries
    the version its first submission changed, so a fresh version means a
    fresh nonce - and if not, the log's unique nonce refuses the insert
    (IntegrityError, handled by the callers as a repeat).
    """
    situation = lock(situation_id)
    recent = rows.newest_entries(situation, RECENT_ENTRIES)
    if seen_version != situation.version:
        if nonce_used(nonce):
            return situation, None
        raise StaleVersion(situation)
    newest = recent.newest_seq
    tx = Transition(situation, now, next_seq=0 if newest is None else newest + 1)
    tx.recent = recent
    if expire:
        tx.expire()
    return situation, tx


def perform(
    situation_id: int,
    command: Any,
    *,
    user: User,
    seen_version: int,
    nonce: str,
    now: dt.datetime | None = None,
    lag_ms: int | None = None,
) -> Performed:
    """Apply one engine command to a situation; see the package docstring.

    Raises ``StaleVersion`` (nothing applied) or the engine's ``RuleError``
    (the command saved nothing; deadlines found overdue on the way are still
    applied and logged, exactly as any read would have done).

    ``lag_ms``: how long after the tablet received the answer window the tap
    was made; an answer it shows was tapped in time may be accepted within
    the event's lag grace (D8, duels/services/grace.py).
    """
    now = now or timezone.now()
    nonce = check_nonce(nonce)
    try:
        with commit_then_refuse(RuleError):
            situation, tx = _begin(situation_id, nonce=nonce, seen_version=seen_version, now=now, expire=False)
            if tx is None:
                return Performed(situation, repeated=True)
            used = graced(tx, command, lag_ms)
            if used is None:
                tx.expire()
            try:
                tx.command(command, actor=actor_of(user), nonce=nonce, noted=[used] if used else [])
            except RuleError:
                tx.save()  # the expiries stay, and commit with the refusal
                raise
            if used is not None:
                # The answer stands at the deadline; whatever else is overdue now follows.
                tx.now = now
                tx.expire()
            tx.save()
    except IntegrityError:
        # The same nonce raced through another situation: it was used, so
        # this submission is a repeat. Anything else is a real error.
        if nonce and nonce_used(nonce):
            return Performed(Situation.objects.get(pk=situation_id), repeated=True)
        raise
    added = list(reversed(tx.entries))
    if isinstance(tx.recent, rows.Entries):
        recent: Sequence[LogEntry] = tx.recent.after(added, RECENT_ENTRIES)  # the older ones built when used
    else:
        recent = [*added, *tx.recent][:RECENT_ENTRIES]
    return Performed(situation, tx.events, state=tx.state, recent=recent, added=added)


@dataclass
class _UndoPlan:
    """An undo worked out before taking the lock: valid only if the fight did not move since."""

    version: int
    last_seq: int
    targets: list[LogEntry]
    after: Any


def _plan_undo(situation_id: int) -> _UndoPlan | None:
    """Read the log and replay what an undo would leave, without any lock.

    Replay is linear now, but a 2,000-entry log still takes a while to read
    and decode; done here, the fight's lock is held only to check that
    nothing changed meanwhile and to write (see undo_last).
    """
    row = Situation.objects.filter(pk=situation_id).only("id", "kind", "version", "opening", "ended").first()
    if row is None or row.ended:
        return None
    kind = kind_of(row)
    log = list(row.log.order_by("seq").defer(*REPLAY_UNNEEDED))
    targets = _undo_targets(log, kind)
    if not targets:
        return None
    undone = {e.seq for e in targets}
    after = replay(kind, row.opening, [e for e in log if e.seq not in undone])
    return _UndoPlan(row.version, log[-1].seq, targets, after)


def undo_last(
    situation_id: int,
    *,
    user: User,
    reason: str,
    seen_version: int,
    nonce: str,
    now: dt.datetime | None = None,
) -> Performed:
    """The referee takes back the last command (DESIGN.md §4); the view checks the role.

    Marks the last command entry ``undone`` - with the joins of the same start
    and any deadline entries after it - appends an undo record with the
    reason, and replays the rest of the log. Refused on an ended situation.

    The replay runs before the lock is taken (``_plan_undo``); under the lock
    the plan is used only if the version and the log's end are still those it
    was made from and no deadline had to be applied first - otherwise the
    undo is worked out again under the lock, as before.
    """
    now = now or timezone.now()
    nonce = check_nonce(nonce)
    reason = (reason or "").strip()
    if not reason:
        raise ReasonRequired()
    plan = _plan_undo(situation_id)
    try:
        return _undo(situation_id, plan, user=user, reason=reason, seen_version=seen_version, nonce=nonce, now=now)
    except IntegrityError:
        if nonce and nonce_used(nonce):
            return Performed(Situation.objects.get(pk=situation_id), repeated=True)
        raise


def _undo(
    situation_id: int,
    plan: _UndoPlan | None,
    *,
    user: User,
    reason: str,
    seen_version: int,
    nonce: str,
    now: dt.datetime,
) -> Performed:
    with commit_then_refuse(SituationEnded, NothingToUndo):
        situation, tx = _begin(situation_id, nonce=nonce, seen_version=seen_version, now=now)
        if tx is None:
            return Performed(situation, repeated=True)
        # Deadlines that passed before the undo are facts: they are kept
        # (and undone with the command they followed, if any).
        fresh = plan is not None and not tx.changed and plan.version == situation.version
        fresh = fresh and plan is not None and plan.last_seq == tx.next_seq - 1
        tx.save()
        if situation.ended:
            raise SituationEnded()
        kind = tx.kind
        before = tx.state
        after = None
        if fresh and plan is not None:
            targets, after, next_seq = plan.targets, plan.after, plan.last_seq + 1
        else:
            log = list(situation.log.order_by("seq").defer(*REPLAY_UNNEEDED))
            targets, next_seq = _undo_targets(log, kind), (log[-1].seq + 1 if log else 0)
        if not targets:
            raise NothingToUndo()
        seqs = [e.seq for e in targets]
        LogEntry.objects.filter(situation=situation, seq__in=seqs).update(undone=True)
        for entry in targets:
            entry.undone = True
        LogEntry.objects.create(
            situation=situation,
            seq=next_seq,
            kind=LogEntry.Kind.UNDO,
            command={"undid": seqs},
            actor=actor_of(user),
            at=now,
            nonce=nonce,
            reason=reason,
        )
        if after is None:
            after = replay(kind, situation.opening, log)
        # A window the undo reopens may have closed meanwhile (D8: it is not given back):
        # its timeout applies now, so the page it returns never offers a closed window's answer.
        expired, events = kind.expire(after, now)
        if events:
            LogEntry.objects.create(
                situation=situation,
                seq=next_seq + 1,
                kind=LogEntry.Kind.EXPIRE,
                command=None,
                at=now,
                events=stored_events(events),
            )
            after = expired
        store_state(situation, kind, before, after, now)
        if kind.is_empty(after):
            _give_back_grown(situation, user=user, reason=reason, now=now)
    return Performed(situation, state=after)


# The opening's note of the duel a battle grew out of by an instant attack (duels/services/opening.py).
GROWN_FROM = "grown_from"


def _give_back_grown(situation: Situation, *, user: User, reason: str, now: dt.datetime) -> None:
    """IA1: undoing the instant attack that grew a duel into a battle gives the duel back, exactly.

    The battle's start went with its strike (its joins and begin, one start); the duel was
    closed by that growth (its last command, ``end_situation``), so that command is undone
    too, with the same reason, and the duel's row opens again at the replay of its log.
    """
    opening = Situation.objects.filter(pk=situation.pk).values_list("opening", flat=True).first() or {}
    grown = opening.get(GROWN_FROM)
    # S2: a fight that took on open situations (duels/services/opening.py ``carry_over``) names them all.
    for pk in grown if isinstance(grown, list) else [] if grown is None else [grown]:
        _reopen(int(pk), user=user, reason=reason, now=now)


# The commands that close a situation for the fight that takes it on: a duel's, a battle's.
_CLOSES = ("end_situation", "close_situation")


def _reopen(pk: int, *, user: User, reason: str, now: dt.datetime) -> None:
    """The situation a fight took on, open again as it was (its closing command undone), if nothing followed."""
    duel = lock(pk)
    if not duel.ended:
        return
    log = list(duel.log.order_by("seq").defer(*REPLAY_UNNEEDED))
    live = [e for e in log if not e.undone and e.kind != LogEntry.Kind.UNDO]
    last = live[-1] if live else None
    if last is None or last.kind != LogEntry.Kind.COMMAND or (last.command or {}).get("type") not in _CLOSES:
        return  # something happened since: the duel stays as it is
    kind = kind_of(duel)
    before = kind.from_dict(duel.state)
    last.undone = True
    LogEntry.objects.filter(pk=last.pk).update(undone=True)
    LogEntry.objects.create(
        situation=duel,
        seq=log[-1].seq + 1,
        kind=LogEntry.Kind.UNDO,
        command={"undid": [last.seq]},
        actor=actor_of(user),
        at=now,
        reason=reason,
    )
    duel.opening = Situation.objects.values_list("opening", flat=True).get(pk=duel.pk)
    after = replay(kind, duel.opening, log)
    duel.ended, duel.ended_at = False, None
    store_state(duel, kind, before, after, now)


def _undo_targets(log: list[LogEntry], kind: SituationKind) -> list[LogEntry]:
    live = [e for e in log if not e.undone and e.kind != LogEntry.Kind.UNDO]
    last = next((i for i in range(len(live) - 1, -1, -1) if live[i].kind == LogEntry.Kind.COMMAND), None)
    if last is None:
        return []
    first = last
    # Joins are not actions of their own: they go with the start they were
    # logged for (same instant), so undoing a start empties the situation.
    while (
        first > 0
        and live[first - 1].kind == LogEntry.Kind.COMMAND
        and kind.is_join(live[first - 1].command)
        and live[first - 1].at == live[last].at
    ):
        first -= 1
    if kind.is_join(live[last].command):
        return []
    return live[first:]


def state_of(situation: Situation) -> Any:
    """The engine state of a situation (plain dataclasses; read-only for views)."""
    return kind_of(situation).from_dict(situation.state)


class ReplayRow(NamedTuple):
    """What a kind's ``replay`` reads of a log entry: a row, not a model (500 models cost ~8 ms to build)."""

    kind: str
    undone: bool
    command: dict[str, Any] | None
    at: dt.datetime
    draw: int | None


def replayed(situation: Situation) -> Any:
    """The state rebuilt from the log alone: equals ``state_of`` (tests, audits, bench/probe.py)."""
    rows = situation.log.order_by("seq").values_list(*ReplayRow._fields)
    return replay(kind_of(situation), situation.opening, [ReplayRow(*row) for row in rows])

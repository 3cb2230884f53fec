"""Changing a running situation: commands, undo, and applying deadlines on read."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.models import User as Person
from django.db import IntegrityError, OperationalError, transaction
from django.utils import timezone

from duels.models import LogEntry, Situation
from duels.services.errors import NothingToUndo, ReasonRequired, SituationEnded, StaleVersion
from duels.services.kinds import kind_of
from duels.services.store import Performed, Transition, actor_of, check_nonce, lock, nonce_used, store_state
from rules import RuleError

logger = logging.getLogger(__name__)

# Who acts: the request's user (signed in or not), or None for the server itself.
User = Person | AnonymousUser | None
# Situations one sweep refreshes at most: a beat every few seconds stays short.
SWEEP_BATCH = 100


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
    situation_id: int, *, nonce: str, seen_version: int, now: dt.datetime
) -> tuple[Situation, Transition | None]:
    """The common start of every change, inside the caller's transaction (DESIGN.md §4).

    Lock the row; a repeated nonce gives no transition (nothing to do); a stale
    version is refused; overdue deadlines are applied before anything else.
    """
    situation = lock(situation_id)
    if nonce_used(nonce):
        return situation, None
    if seen_version != situation.version:
        raise StaleVersion(situation)
    tx = Transition(situation, now)
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
) -> Performed:
    """Apply one engine command to a situation; see the package docstring.

    Raises ``StaleVersion`` (nothing applied) or the engine's ``RuleError``
    (the command saved nothing; deadlines found overdue on the way are still
    applied and logged, exactly as any read would have done).
    """
    now = now or timezone.now()
    nonce = check_nonce(nonce)
    try:
        with commit_then_refuse(RuleError):
            situation, tx = _begin(situation_id, nonce=nonce, seen_version=seen_version, now=now)
            if tx is None:
                return Performed(situation, repeated=True)
            try:
                tx.command(command, actor=actor_of(user), nonce=nonce)
            except RuleError:
                tx.save()  # the expiries stay, and commit with the refusal
                raise
            tx.save()
            return Performed(situation, tx.events)
    except IntegrityError:
        # The same nonce raced through another situation: it was used, so
        # this submission is a repeat. Anything else is a real error.
        if nonce and nonce_used(nonce):
            return Performed(Situation.objects.get(pk=situation_id), repeated=True)
        raise


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
    """
    now = now or timezone.now()
    nonce = check_nonce(nonce)
    reason = (reason or "").strip()
    if not reason:
        raise ReasonRequired()
    with commit_then_refuse(SituationEnded, NothingToUndo):
        situation, tx = _begin(situation_id, nonce=nonce, seen_version=seen_version, now=now)
        if tx is None:
            return Performed(situation, repeated=True)
        # Deadlines that passed before the undo are facts: they are kept
        # (and undone with the command they followed, if any).
        tx.save()
        if situation.ended:
            raise SituationEnded()
        kind = tx.kind
        log = list(situation.log.order_by("seq"))
        targets = _undo_targets(log, kind)
        if not targets:
            raise NothingToUndo()
        seqs = [e.seq for e in targets]
        LogEntry.objects.filter(situation=situation, seq__in=seqs).update(undone=True)
        for entry in targets:
            entry.undone = True
        LogEntry.objects.create(
            situation=situation,
            seq=log[-1].seq + 1,
            kind=LogEntry.Kind.UNDO,
            command={"undid": seqs},
            actor=actor_of(user),
            at=now,
            nonce=nonce,
            reason=reason,
        )
        after = kind.replay(situation.opening, log)
        store_state(situation, kind, tx.state, after, now)
        return Performed(situation)


def _undo_targets(log: list[LogEntry], kind: Any) -> list[LogEntry]:
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


def refresh(situation: Situation, *, now: dt.datetime | None = None) -> Situation:
    """Apply overdue deadlines on read, so a dead worker never changes an outcome.

    Cheap when nothing is due (no lock, no write). When something is due it
    locks the row without waiting: if another request holds the lock, that
    request applies the deadline itself before its command, so this read just
    returns the row as it is. Returns ``situation``, reloaded when it changed.
    """
    now = now or timezone.now()
    if not is_due(situation, now):
        return situation
    try:
        with transaction.atomic():
            locked = lock(situation.pk, nowait=True)
            if is_due(locked, now):
                tx = Transition(locked, now)
                tx.expire()
                tx.save()
    except OperationalError as err:
        if not _lock_busy(err):
            raise
        # The holder applies the deadline itself before its own command.
        logger.debug("situation %s is busy; not refreshed", situation.pk)
        return situation
    situation.refresh_from_db()
    return situation


def _lock_busy(err: OperationalError) -> bool:
    # PostgreSQL's lock_not_available, raised by NOWAIT.
    return getattr(err.__cause__, "sqlstate", None) == "55P03"


def refresh_by_id(situation_id: int, *, now: dt.datetime | None = None) -> Situation | None:
    situation = Situation.objects.filter(pk=situation_id).first()
    return None if situation is None else refresh(situation, now=now)


def is_due(situation: Situation, now: dt.datetime) -> bool:
    return not situation.ended and situation.next_deadline is not None and situation.next_deadline < now


def sweep(now: dt.datetime | None = None, *, limit: int = SWEEP_BATCH) -> int:
    """Refresh up to ``limit`` unfinished situations whose deadline has passed, most overdue first.

    The beat sweeper. One run is bounded however many fights are overdue (the
    next beat takes the rest), and a situation that fails is logged and
    skipped, so one broken row never keeps the others from their deadlines.
    Returns how many it brought up to date.
    """
    now = now or timezone.now()
    due = list(
        Situation.objects.filter(ended=False, next_deadline__lt=now)
        .order_by("next_deadline", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    count = 0
    for situation_id in due:
        try:
            situation = refresh_by_id(situation_id, now=now)
        except Exception:
            logger.exception("the sweeper could not apply the deadlines of situation %s", situation_id)
            continue
        if situation is not None and not is_due(situation, now):
            count += 1
    return count


def state_of(situation: Situation) -> Any:
    """The engine state of a situation (plain dataclasses; read-only for views)."""
    return kind_of(situation).from_dict(situation.state)


def replayed(situation: Situation) -> Any:
    """The state rebuilt from the log alone: equals ``state_of`` (tests, audits)."""
    return kind_of(situation).replay(situation.opening, situation.log.order_by("seq"))

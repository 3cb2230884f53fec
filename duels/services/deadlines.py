"""Deadlines applied on read (D8, S2): ``refresh`` before every render, and the beat's ``sweep``.

Apart from the commands (duels/services/commands.py): they change a fight
only through a ``Transition`` of overdue deadlines, never waiting for a
lock another request holds.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.db import OperationalError, transaction
from django.utils import timezone

from duels.models import Situation
from duels.services.store import Transition, lock

logger = logging.getLogger(__name__)

# Situations one sweep refreshes at most: a beat every few seconds stays short.
SWEEP_BATCH = 100


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

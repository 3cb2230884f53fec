"""The Celery tasks that keep deadlines (D8, S2): thin nudges beside the services they call.

The database is the truth; these only call ``deadlines.refresh_by_id`` and
``deadlines.sweep``. Both tasks are idempotent: applying a deadline twice, or
one that moved or was already applied by a page load, changes nothing.

The task names stay ``duels.tasks.*`` (where the tasks used to live), so the
beat schedule and any timer already queued in the broker keep working.
``store.schedule_expiry`` sends the expiry task by that name rather than
importing this module: the services below never import the tasks above them,
so there is no import cycle to hold apart. ``DuelsConfig.ready`` imports this
module, which registers the tasks in every process (web and worker).
"""

from __future__ import annotations

import datetime as dt
import logging

from celery import Task, shared_task
from django.utils import timezone

from duels.services.deadlines import refresh_by_id, sweep
from duels.services.store import EXPIRE_TASK, TIMER_LAG

logger = logging.getLogger(__name__)

SWEEP_TASK = "duels.tasks.sweep_deadlines"

# A timer that wakes a little early (clock rounding) comes back at the
# deadline instead of waiting for the sweeper.
EARLY_WINDOW = dt.timedelta(seconds=2)


@shared_task(name=EXPIRE_TASK, bind=True, ignore_result=True, acks_late=True)
def expire_situation(self: Task[[int], None], situation_id: int) -> None:
    situation = refresh_by_id(situation_id)
    if situation is None or situation.ended or situation.next_deadline is None:
        return
    if self.request.is_eager:
        return
    ahead = situation.next_deadline - timezone.now()
    if dt.timedelta(0) <= ahead <= EARLY_WINDOW:
        self.apply_async((situation_id,), eta=situation.next_deadline + TIMER_LAG)
    elif ahead < dt.timedelta(0):
        # Still overdue: the row was busy (another request is applying it).
        # The sweeper would catch it; a quick retry is sooner.
        self.apply_async((situation_id,), countdown=1)


@shared_task(name=SWEEP_TASK, ignore_result=True)
def sweep_deadlines() -> int:
    """Beat, every SUMRAK_SWEEP_SECONDS: catch every deadline a lost timer missed."""
    count = sweep()
    if count:
        logger.info("sweeper applied deadlines of %s situation(s)", count)
    return count

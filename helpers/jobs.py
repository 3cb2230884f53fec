"""Background jobs an organizer starts (a print run, a lab run): sent to the job queue, or refused clearly.

While Celery's broker (Redis on a server) restarts, ``task.delay`` raises
after Celery's publish retries, and a page that sent the job answered 500
with a run left queued that no worker would ever take. Here:

- ``queue_reachable`` asks the broker once, quickly, before anything is
  written: the page answers "the job queue is unreachable" and changes nothing;
- ``send`` sends the job after its row is committed; if the broker went away
  in between, it says so (the caller marks the run failed, with the reason).

Both share the broker's ``Outage`` (helpers/outage.py) with the timers: one
warning per outage, and while it lasts the broker is asked once per
``retry_seconds`` only, so a refused page costs no retries.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import current_app

from helpers.outage import BROKER

logger = logging.getLogger("sumrak.jobs")


def _failed(error: BaseException, what: str) -> bool:
    if BROKER.failed(error):
        logger.warning("could not %s", what, exc_info=True)
    return False


def queue_reachable() -> bool:
    """Whether the job queue takes a job now (one connection, no retry; skipped while it is known away)."""
    if not BROKER.should_try():
        return False
    try:
        with current_app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    except Exception as error:
        return _failed(error, "reach the job queue")
    BROKER.answered()
    return True


def send(task: Any, *args: Any) -> bool:
    """``task.delay(*args)``; False (never an exception) when the job queue is away."""
    if not BROKER.should_try():
        return False
    try:
        task.delay(*args)
    except Exception as error:
        return _failed(error, f"send {getattr(task, 'name', task)}")
    BROKER.answered()
    return True

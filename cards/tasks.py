"""Celery tasks of the cards app: an event's print run in the background (cards/printing/runs.py)."""

from __future__ import annotations

from celery import shared_task

from cards.printing import runs


@shared_task(ignore_result=True, acks_late=True)
def print_run(run_id: int) -> None:
    # Idempotent: a run already started or done is left alone (a redelivered task does nothing).
    runs.execute(run_id)

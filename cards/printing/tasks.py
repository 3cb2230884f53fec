"""The print run in the background (cards/printing/runs.py): Celery tasks beside what they call.

Their names stay ``cards.tasks.*`` (where they were first defined), so a run queued
before an upgrade still finds its task; ``CardsConfig.ready`` imports this module.

``print_run`` plans the run and sends one ``print_part`` per part: the worker's
processes print them side by side, and the part that completes the set joins them.
Every task is idempotent: a repeated ``print_run`` finds the run claimed, a part of
a run that failed or is done does nothing.
"""

from __future__ import annotations

from celery import shared_task

from cards.printing import runs


@shared_task(name="cards.tasks.print_run", ignore_result=True, acks_late=True)
def print_run(run_id: int) -> None:
    run = runs.plan(run_id)
    if run is None:
        return
    if not run.parts:
        runs.join(run_id)
        return
    for index in range(len(run.parts)):
        print_part.delay(run_id, index)


@shared_task(name="cards.tasks.print_part", ignore_result=True, acks_late=True)
def print_part(run_id: int, index: int) -> None:
    if runs.print_part(run_id, index):
        runs.join(run_id)

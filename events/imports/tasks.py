"""A long import in the Celery worker (events/imports/runner.py); ``EventsConfig.ready`` imports it.

The task takes the import's id only and is idempotent: a repeated delivery finds the
import claimed or finished and does nothing; one delivered again after its worker died
(``acks_late``) finds it half-way and undoes what it had written.
"""

from __future__ import annotations

from celery import shared_task

from events.imports import runner


@shared_task(name="events.tasks.run_table_import", ignore_result=True, acks_late=True)
def run_table_import(import_id: int) -> None:
    runner.run(import_id)

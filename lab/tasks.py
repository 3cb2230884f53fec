"""The lab's Celery task: ids only, the database is the truth (DESIGN §4)."""

from celery import shared_task

from lab.runner import execute


@shared_task(ignore_result=True)
def run_lab(run_id: int) -> None:
    execute(run_id)

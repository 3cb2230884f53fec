"""Print runs, lab runs and long imports started while the job queue (Redis) is away (issue 26; helpers/jobs.py).

Measured on main: ``.delay`` raised after Celery's publish retries and the page
answered 500, leaving a run queued that no worker would ever take. Now, with a
Redis of the test's own stopped: the page says the job queue is unreachable and
writes nothing (no run, no forgotten old print); the same form goes through
once Redis is back; a queue that goes away between the check and the send
leaves the run failed with that reason, never waiting for ever.
"""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from cards.printing import render
from cards.printing.models import PrintRun
from events.imports import runner
from events.imports.models import TableImport
from events.models import Character
from helpers.outage import BROKER
from lab.models import LabRun
from tests.lab.lab_kit import start as start_lab
from tests.resilience.servers import OwnRedis, redis_broker

# A bound on wall time or real processes: runs alone, never beside an xdist worker (scripts/test.sh).
pytestmark = [pytest.mark.django_db, pytest.mark.serial]


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def away(tmp_path, monkeypatch):
    """Celery's broker on a Redis of the test's own, stopped; ``away.start()`` brings it back."""
    monkeypatch.setattr("helpers.outage.time.monotonic", clock := _Clock())
    monkeypatch.setattr(BROKER, "_since", None)
    server = OwnRedis(tmp_path)
    server.start()
    server.clock = clock  # type: ignore[attr-defined]
    with redis_broker(server.url):
        server.stop()
        yield server
    server.stop()


def back(server) -> None:
    server.start()
    server.clock.now += BROKER.retry_seconds + 0.1


@pytest.fixture
def large_print(monkeypatch, as_user, organizer, event, character, rival):
    if not render.pdf_available():
        pytest.skip("WeasyPrint's libraries (Pango) are not installed")
    monkeypatch.setattr("cards.printing.views.INLINE_LIMIT", 1)  # two characters go to the worker
    client = as_user(organizer)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"

    def post():
        return client.post(reverse("cards:print-event", args=[event.pk]), {"everyone": "on", "with_sheets": "on"})

    return client, post


def test_a_print_run_while_the_queue_is_away_says_so_and_starts_nothing(
    away, large_print, django_capture_on_commit_callbacks
):
    _client, post = large_print
    with django_capture_on_commit_callbacks(execute=True):
        response = post()
        again = post()  # while it is away: refused at once, without Celery's retries
    assert response.status_code == again.status_code == 503
    assert "The job queue is unreachable right now" in response.text and "nothing was started" in response.text
    assert not PrintRun.objects.exists()
    back(away)
    with django_capture_on_commit_callbacks(execute=True):
        response = post()
    run = PrintRun.objects.get()
    assert response.status_code == 302 and run.status == PrintRun.Status.QUEUED
    assert not BROKER.down  # sent: a worker takes it


def test_a_print_sent_as_the_queue_goes_away_fails_with_the_reason(
    away, large_print, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr("cards.printing.views.queue_reachable", lambda: True)  # it answered the check
    client, post = large_print
    with django_capture_on_commit_callbacks(execute=True):
        response = post()
    run = PrintRun.objects.get()
    assert response.status_code == 302 and run.status == PrintRun.Status.FAILED
    page = client.get(response["Location"])
    assert page.status_code == 200 and "The job queue was unreachable when the print was sent" in page.text


def test_a_lab_run_while_the_queue_is_away_says_so_and_starts_nothing(
    away, demo_organizer, demo_event, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = start_lab(demo_organizer, demo_event)
    assert response.status_code == 503 and "The job queue is unreachable right now" in response.text
    assert 'id="lab-form"' in response.text and 'value="First try"' in response.text  # the form as it was
    assert not LabRun.objects.exists()
    back(away)
    with django_capture_on_commit_callbacks(execute=True):
        response = start_lab(demo_organizer, demo_event)
    assert response.status_code == 302 and LabRun.objects.get().status == LabRun.Status.QUEUED
    assert not BROKER.down


def test_a_lab_run_sent_as_the_queue_goes_away_fails_with_the_reason(
    away, demo_organizer, demo_event, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr("lab.views.queue_reachable", lambda: True)
    with django_capture_on_commit_callbacks(execute=True):
        response = start_lab(demo_organizer, demo_event)
    run = LabRun.objects.get()
    assert response.status_code == 302 and run.status == LabRun.Status.FAILED and run.queue_unreachable
    page = demo_organizer.get(response["Location"])
    assert "The job queue was unreachable when the run was sent" in page.text


def test_a_long_import_sent_while_the_queue_is_away_fails_with_the_reason(
    away, as_user, organizer, event, monkeypatch, django_capture_on_commit_callbacks
):
    """The file was read and recorded; no worker will hear of it, so it says so at once (never a 500)."""
    monkeypatch.setattr(runner, "INLINE_ROWS", 2)
    client = as_user(organizer)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    rows = "name,side\n" + "".join(f"Персонаж {n},light\n" for n in range(5))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("events:characters-import", args=[event.pk]),
            {"file": SimpleUploadedFile("many.csv", rows.encode())},
        )
    record = TableImport.objects.get(event=event)
    assert response.status_code == 302 and record.status == TableImport.Status.FAILED
    assert not Character.objects.filter(event=event, name__startswith="Персонаж").exists()
    page = client.get(response["Location"])
    assert page.status_code == 200 and "The job queue was unreachable when the import was sent" in page.text

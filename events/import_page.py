"""The organizer's import pages: one protocol for every kind of table (events/imports/).

Every import page (characters, pools and arsenals, the catalogue, mass-battle data) hands
the uploaded file to ``receive``: the file is read within the bounds (helpers/tables.py)
and recorded (``TableImport``). A file in the import's own columns (an export of ours) is
run at once (events/imports/runner.py): during the request for a small file, answered as
before (the page with each bad row, status 400, or the success); in the Celery worker for a
long one, followed on its progress page (``import_progress``). Any other file goes first to
the column-mapping page (events/views_import.py), where nothing is written until the
organizer has seen how its columns and values will be read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from events.access import event_for_organizer
from events.forms import ImportForm
from events.imports import runner
from events.imports.kinds import kind_of
from events.imports.mapping import Mapping, labels_of
from events.imports.models import TableImport
from events.models import Event
from helpers import jobs, tables

Shown = tuple[Any, ...]  # (row, text) or (row, text, suggestion): what templates/_import_errors.html shows


@dataclass
class Outcome:
    """What became of an upload: refused (``errors``), imported, sent to the worker, or to be mapped."""

    record: TableImport | None = None
    errors: list[Shown] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.record is not None and self.record.status == TableImport.Status.DONE

    @property
    def mapping(self) -> bool:
        return self.record is not None and self.record.status == TableImport.Status.MAPPING

    @property
    def queued(self) -> bool:
        return self.record is not None and self.record.status in (
            TableImport.Status.QUEUED,
            TableImport.Status.CHECKING,
            TableImport.Status.WRITING,
        )

    def next_page(self) -> str | None:
        """Where the organizer goes next, unless the upload page answers itself (done or refused)."""
        if self.record is None:
            return None
        if self.mapping:
            return reverse("events:import-mapping", args=[self.record.event_id, self.record.pk])
        if self.queued:
            return progress_url(self.record)
        return None


def record_errors(record: TableImport) -> list[Shown]:
    """The import's errors, each column named as the file names it («Статус» (C)) when it was mapped."""
    labels = (
        labels_of(Mapping.from_json(record.mapping), record.source.get("labels", []))
        if record.source.get("mapped")
        else {}
    )
    shown: list[Shown] = []
    if record.failure:
        shown.append((None, record.failure))
    for error in record.errors:
        row, column, message = error[0], error[1], error[2]
        text = f"{labels.get(column, column)}: {message}" if column else message
        shown.append((row, text, error[3], f"{row}:{column}") if len(error) > 3 else (row, text))
    return shown


def correct_url(record: TableImport | None) -> str:
    """Where the ticked suggestions of a refused import go (events/views_import.py ``correct``), if it has any."""
    if record is None or not any(len(error) > 3 for error in record.errors):
        return ""
    return reverse("events:import-correct", args=[record.event_id, record.pk])


def read_upload(kind: str, content: bytes, name: str, file_format: str = "") -> tables.Table:
    """An uploaded file read within the bounds (helpers/tables.py), under its header as written."""
    kind_of(kind)  # an unknown kind is a programming error, raised before reading
    return tables.read_raw(content, tables.format_of(name, file_format) or "csv")


def launch(record: TableImport) -> Outcome:
    """Run a recorded import: now for a small file, in the worker for a long one."""
    if record.total <= runner.INLINE_ROWS:
        record = runner.run(record.pk)
        return Outcome(record=record, errors=[] if record.status == TableImport.Status.DONE else record_errors(record))
    from events.imports.tasks import run_table_import

    def send_or_fail() -> None:
        # The job queue away (Redis restarting): the import says so instead of waiting for ever (helpers/jobs.py).
        if not jobs.send(run_table_import, record.pk):
            note = _("The job queue was unreachable when the import was sent; nothing was imported. Start it again.")
            TableImport.objects.filter(pk=record.pk, status=TableImport.Status.QUEUED).update(
                status=TableImport.Status.FAILED, failure=note, finished_at=timezone.now()
            )

    transaction.on_commit(send_or_fail)
    return Outcome(record=record)


def own_columns(table: tables.Table) -> tables.Table:
    keep = [i for i, header in enumerate(table.headers) if header]
    return tables.Table(
        [table.headers[i] for i in keep], [[row[i] for i in keep] for row in table.rows], table.numbers, table.encoding
    )


def receive(request: HttpRequest, event: Event, kind: str, content: bytes, file_format: str, name: str) -> Outcome:
    """Read and record one uploaded file; run it if it is in our own columns, else send it to be mapped."""
    try:
        table = read_upload(kind, content, name, file_format)
    except tables.TableError as err:
        return Outcome(errors=[(None, str(err))])
    wanted = kind_of(kind)
    if tables.fits(table, wanted.columns, wanted.required):
        return launch(runner.start(event, kind, own_columns(table), user=request.user, file_name=name))
    return Outcome(record=runner.start(event, kind, table, user=request.user, file_name=name, mapped=True))


def progress_url(record: TableImport) -> str:
    return reverse("events:import-progress", args=[record.event_id, record.pk])


def table_import_page(
    request: HttpRequest,
    event: Event,
    *,
    template: str,
    kind: str,
    columns: Sequence[str],
    export_url: str,
    done: Callable[[TableImport], str],
) -> HttpResponse:
    """GET shows the form; POST imports the file all or nothing (``done`` words the success)."""
    form = ImportForm(request.POST or None, request.FILES or None)
    errors: list[Shown] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        outcome = receive(request, event, kind, upload.read(), form.file_format, upload.name)
        if next_page := outcome.next_page():
            return redirect(next_page)
        if outcome.done and outcome.record is not None:
            messages.success(request, done(outcome.record))
            return redirect("events:characters", event.pk)
        errors = outcome.errors
        suggestions = correct_url(outcome.record)
    else:
        suggestions = ""
    context = {
        "event": event,
        "form": form,
        "errors": errors,
        "correct_url": suggestions,
        "columns": columns,
        "limits": tables.page_limits(),
        "export_url": export_url,
    }
    return render(request, template, context, status=400 if errors else 200)


@never_cache
@login_required
@require_GET
def import_progress(request: HttpRequest, event_id: int, import_id: int) -> HttpResponse:
    """A long import's progress bar (polled while it runs), then its outcome."""
    event = event_for_organizer(request.user, event_id)
    try:
        record = TableImport.objects.get(pk=import_id, event=event)
    except TableImport.DoesNotExist:
        raise Http404 from None
    context: dict[str, Any] = {
        "event": event,
        "record": record,
        "kind": kind_of(record.kind),
        "errors": record_errors(record) if record.finished else [],
        "correct_url": correct_url(record),
    }
    if getattr(request, "htmx", False):
        return render(request, "events/import_progress.html#progress", context)
    return render(request, "events/import_progress.html", context)

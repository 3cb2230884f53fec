"""The column-mapping page of an import (issue 22; events/imports/mapping.py).

GET shows how the uploaded file would be read: each column matched to a field or ignored
(a preset's, the event's remembered mapping for this header, or matched by name), each value
of a column with choices matched to a choice, and the first rows as they would be imported.
POST ``preview`` shows the page again for a changed mapping; POST ``import`` remembers the
mapping for the event and runs the import (all or nothing, events/imports/runner.py). A
refusal comes back to this page with every bad row named by the file's row and column, and a
suggestion where a name is close to a known one (events/imports/suggest.py), applied only if
the organizer ticks it.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from events.access import event_for_organizer
from events.import_page import launch, progress_url
from events.imports import presets, runner
from events.imports.kinds import FieldSpec, kind_of
from events.imports.mapping import (
    MAX_DISTINCT,
    Mapping,
    apply,
    column_label,
    distinct_values,
    guess,
    guess_values,
    problems,
    signature,
)
from events.imports.models import ColumnMapping, TableImport
from events.models import Event
from helpers import tables

PREVIEW_ROWS = 5
OPEN = (TableImport.Status.MAPPING, TableImport.Status.REFUSED, TableImport.Status.FAILED)


def _record(event: Event, import_id: int) -> TableImport:
    try:
        return TableImport.objects.get(pk=import_id, event=event, source__mapped=True)
    except TableImport.DoesNotExist:
        raise Http404 from None


def posted_mapping(data: QueryDict, table: tables.Table, specs: list[FieldSpec], before: Mapping) -> Mapping:
    """The mapping the page's form says; a newly matched field with choices gets its values guessed."""
    known = {spec.key for spec in specs}
    columns = [value if (value := data.get(f"column-{i}", "")) in known else "" for i in range(len(table.labels))]
    mapping = Mapping(columns, {}, before.preset, dict(before.transforms or {}), dict(before.corrections or {}))
    preset = presets.by_key(before.preset)
    by_key = {spec.key: spec for spec in specs}
    for index, key in enumerate(columns):
        spec = by_key.get(key)
        if spec is None or not spec.choices:
            continue
        values = distinct_values(table, index)
        if len(values) > MAX_DISTINCT:
            continue
        if f"values-{key}" not in data:  # not on the page before: a first guess
            mapping.values[key] = guess_values(spec, values, preset.values.get(key, {}) if preset else {})
            continue
        allowed = {stored for stored, _label in spec.choices}
        chosen = {}
        for n, value in enumerate(values):
            picked = data.get(f"value-{key}-{n}", "")
            if picked.startswith("v:") and picked[2:] in allowed:
                chosen[value] = picked[2:]
        mapping.values[key] = chosen
    return mapping


def _context(event: Event, record: TableImport, specs: list[FieldSpec], mapping: Mapping) -> dict[str, Any]:
    table = runner.raw_table(record)
    by_key = {spec.key: spec for spec in specs}
    columns = []
    for index in range(len(table.labels)):
        samples = [str(row[index]) for row in table.rows if row[index] not in (None, "")][:3]
        columns.append(
            {
                "index": index,
                "name": column_label(table.labels, index),
                "samples": samples,
                "field": mapping.columns[index] if index < len(mapping.columns) else "",
            }
        )
    value_sections = []
    for index, key in enumerate(mapping.columns):
        spec = by_key.get(key)
        if spec is None or not spec.choices or key not in mapping.values:
            continue
        values = distinct_values(table, index)
        value_sections.append(
            {
                "key": key,
                "label": spec.label,
                "column": column_label(table.labels, index),
                "rows": [(n, value, mapping.values[key].get(value, "")) for n, value in enumerate(values)],
                "choices": spec.choices,
            }
        )
    preview_table = apply(mapping, table)
    preview = {
        "headers": [by_key[key].label if key in by_key else key for key in preview_table.headers],
        "rows": list(zip(preview_table.numbers, preview_table.rows, strict=True))[:PREVIEW_ROWS],
    }
    from events.import_page import correct_url, record_errors

    return {
        "event": event,
        "record": record,
        "kind": kind_of(record.kind),
        "specs": specs,
        "columns": columns,
        "value_sections": value_sections,
        "preview": preview,
        "preset": mapping.preset,
        "errors": record_errors(record)
        if record.status in (TableImport.Status.REFUSED, TableImport.Status.FAILED)
        else [],
        "correct_url": correct_url(record),
    }


@never_cache
@login_required
def import_mapping(request: HttpRequest, event_id: int, import_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    record = _record(event, import_id)
    if record.status not in OPEN:
        return redirect(progress_url(record))
    kind = kind_of(record.kind)
    try:
        specs = kind.fields(event)
    except tables.TableError as err:
        messages.error(request, str(err))
        return redirect(kind.done_view, event.pk)
    table = runner.raw_table(record)
    sig = signature(table.labels)
    if record.mapping.get("columns") is not None:
        mapping = Mapping.from_json(record.mapping)
    else:
        remembered = ColumnMapping.objects.filter(event=event, kind=kind.key, signature=sig).first()
        mapping = guess(kind, specs, table, remembered.mapping if remembered else None)
    status = 200
    notes: list[str] = []
    if request.method == "POST":
        mapping = posted_mapping(request.POST, table, specs, mapping)
        notes = problems(mapping, specs) if request.POST.get("action") == "import" else []
        if request.POST.get("action") == "import" and not notes:
            return _import(request, event, record, mapping, sig)
        status = 400 if notes else 200
    record.mapping = mapping.as_json()
    context = {**_context(event, record, specs, mapping), "notes": notes}
    return render(request, "events/import_mapping.html", context, status=status)


def _import(request: HttpRequest, event: Event, record: TableImport, mapping: Mapping, sig: str) -> HttpResponse:
    """Remember the mapping for the event and run the import; a refusal comes back to the page."""
    remembered = {**mapping.as_json(), "corrections": {}}
    ColumnMapping.objects.update_or_create(
        event=event, kind=record.kind, signature=sig, defaults={"mapping": remembered}
    )
    TableImport.objects.filter(pk=record.pk).update(
        mapping=mapping.as_json(),
        status=TableImport.Status.QUEUED,
        errors=[],
        warnings=[],
        failure="",
        checked=0,
        written=0,
        created=0,
        updated=0,
        finished_at=None,
    )
    record.refresh_from_db()
    outcome = launch(record)
    kind = kind_of(record.kind)
    if outcome.done and outcome.record is not None:
        messages.success(request, kind.done_message(outcome.record))
        for row, text in [(w[0], w[-1]) for w in outcome.record.warnings]:
            messages.warning(request, f"{row}: {text}")
        return redirect(kind.done_view, event.pk)
    if outcome.queued and outcome.record is not None:
        return redirect(progress_url(outcome.record))
    record.refresh_from_db()
    specs = kind.fields(event)
    context = {**_context(event, record, specs, Mapping.from_json(record.mapping)), "notes": []}
    return render(request, "events/import_mapping.html", context, status=400)


def mapping_url(record: TableImport) -> str:
    return reverse("events:import-mapping", args=[record.event_id, record.pk])


@login_required
@require_POST
def correct(request: HttpRequest, event_id: int, import_id: int) -> HttpResponse:
    """Apply the suggestions the organizer ticked to a refused import's cells, and check it again.

    Only suggestions the check itself made are applied (looked up in the import's errors by
    row and column); nothing else the form might say is taken.
    """
    event = event_for_organizer(request.user, event_id)
    try:
        record = TableImport.objects.get(pk=import_id, event=event, status=TableImport.Status.REFUSED)
    except TableImport.DoesNotExist:
        raise Http404 from None
    offered = {f"{error[0]}:{error[1]}": error[3] for error in record.errors if len(error) > 3}
    chosen = {key: offered[key] for key in request.POST.getlist("use") if key in offered}
    kind = kind_of(record.kind)
    if not chosen:
        messages.error(request, _("Tick at least one suggested name, or correct the file and upload it again."))
        return redirect(mapping_url(record) if record.source.get("mapped") else progress_url(record))
    mapping = dict(record.mapping)
    mapping["corrections"] = {**(mapping.get("corrections") or {}), **chosen}
    TableImport.objects.filter(pk=record.pk).update(
        mapping=mapping, status=TableImport.Status.QUEUED, errors=[], warnings=[], failure="", checked=0, written=0
    )
    record.refresh_from_db()
    outcome = launch(record)
    if outcome.done and outcome.record is not None:
        messages.success(request, kind.done_message(outcome.record))
        return redirect(kind.done_view, event.pk)
    if outcome.record is not None and outcome.record.source.get("mapped") and not outcome.queued:
        return redirect(mapping_url(outcome.record))
    return redirect(progress_url(record))

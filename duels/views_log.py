"""A fight's whole log, for the event's staff, for every kind: the log page, its CSV/XLSX, and the record as JSON.

The lines are the kind's own words (``KindPages.log_lines``); the table is one
row per line, through the exports' one helper (helpers/tables.py), so a card or
character name that a spreadsheet would run as a formula is written as text.
"""

from __future__ import annotations

import json

import tablib
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from duels import services
from duels.services.export import export_situation
from duels.web.access import situation_for_staff
from duels.web.pages import pages_of, refuse_other_kinds
from helpers.tables import CONTENT_TYPES, export_bytes

LOG_PAGE = 100
COLUMNS = ["seq", "at", "actor", "kind", "undone", "line"]


@login_required
@require_GET
def log_page(request: HttpRequest, situation_id: int) -> HttpResponse:
    """The whole log, newest first, a page at a time (the tablet shows the latest lines only)."""
    situation = services.refresh(situation_for_staff(request.user, situation_id, whole=True))
    refuse_other_kinds(request, situation)
    pages = pages_of(situation)
    state = services.state_of(situation)
    page = Paginator(situation.log.select_related("actor").order_by("-seq"), LOG_PAGE).get_page(request.GET.get("page"))
    context = {
        "situation": situation,
        "event": situation.event,
        "page": page,
        "tablet": pages.tablet_url_name,
        "log_lines": pages.log_lines(situation, state, page.object_list, whole=True),
    }
    return render(request, "duels/log.html", context)


@login_required
@require_GET
def log_table(request: HttpRequest, situation_id: int, file_format: str) -> HttpResponse:
    situation = services.refresh(situation_for_staff(request.user, situation_id, whole=True))
    state = services.state_of(situation)
    entries = situation.log.select_related("actor").order_by("seq")
    data = tablib.Dataset(headers=COLUMNS)
    for entry in pages_of(situation).log_lines(situation, state, entries, whole=True):
        at = timezone.localtime(entry.at).isoformat(timespec="seconds")
        for line in entry.lines or [""]:
            data.append([entry.seq, at, entry.actor, entry.kind, "yes" if entry.undone else "no", line])
    response = HttpResponse(export_bytes(data, file_format), content_type=CONTENT_TYPES[file_format])
    response["Content-Disposition"] = f'attachment; filename="situation-{situation.pk}-log.{file_format}"'
    return response


@login_required
@require_GET
def export(request: HttpRequest, situation_id: int) -> HttpResponse:
    situation = services.refresh(situation_for_staff(request.user, situation_id, whole=True))
    data = export_situation(situation)
    response = HttpResponse(json.dumps(data, ensure_ascii=False, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="situation-{situation.pk}.json"'
    return response

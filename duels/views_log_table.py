"""A fight's log as a table (CSV or XLSX), for organizers and referees after the game.

The same lines as the log page (duels/duel/log.py), one row per line, and
through the exports' one helper (helpers/tables.py): a card or character name
that a spreadsheet would run as a formula is written as text.
"""

from __future__ import annotations

import tablib
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from duels import services
from duels.duel.log import describe
from duels.duel.presenters import card_ids, card_names
from duels.web.access import situation_for_staff
from helpers.tables import CONTENT_TYPES, export_bytes

COLUMNS = ["seq", "at", "actor", "kind", "undone", "line"]


@login_required
@require_GET
def log_table(request: HttpRequest, situation_id: int, file_format: str) -> HttpResponse:
    situation = services.refresh(situation_for_staff(request.user, situation_id))
    state = services.state_of(situation)
    entries = situation.log.select_related("actor").order_by("seq")
    data = tablib.Dataset(headers=COLUMNS)
    for entry in describe(entries, state, card_names(card_ids(state))):
        at = timezone.localtime(entry.at).isoformat(timespec="seconds")
        for line in entry.lines or [""]:
            data.append([entry.seq, at, entry.actor, entry.kind, "yes" if entry.undone else "no", line])
    response = HttpResponse(export_bytes(data, file_format), content_type=CONTENT_TYPES[file_format])
    response["Content-Disposition"] = f'attachment; filename="situation-{situation.pk}-log.{file_format}"'
    return response

"""Import and export of an event's characters as CSV, XLSX or JSON (the shared pipeline, helpers/tables.py)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from events.access import event_for_organizer
from events.import_page import table_import_page
from events.resources import COLUMNS, export_characters
from helpers import tables


@login_required
def import_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    return table_import_page(
        request,
        event,
        template="events/import.html",
        columns=COLUMNS,
        export_url=reverse("events:characters-export", args=[event.pk]),
        kind="characters",
        done=lambda record: (
            _("Imported: %(created)d new characters, %(updated)d updated.")
            % {"created": record.created, "updated": record.updated}
        ),
    )


@login_required
def export(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    file_format = request.GET.get("format", "csv")
    if file_format not in tables.FORMATS:
        file_format = "csv"
    response = HttpResponse(export_characters(event, file_format), content_type=tables.CONTENT_TYPES[file_format])
    filename = f"{slugify(event.name) or 'event'}-characters.{file_format}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

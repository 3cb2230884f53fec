"""Catalogue import and export (CSV, XLSX, JSON) for organizers.

An import is all or nothing (the shared pipeline, helpers/tables.py): any bad
row leaves the catalogue as it was, and the page lists every bad row.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from cards.arsenal_import import COLUMNS, done_message, export_arsenals
from cards.forms import ExportForm, ImportForm
from cards.models import Catalogue
from cards.resources import export_file
from events.access import event_for_organizer
from events.import_page import correct_url, receive, table_import_page
from events.models import Event
from helpers import tables


def _event_catalogue(request: HttpRequest, event_id: int) -> tuple[Event, Catalogue]:
    event = event_for_organizer(request.user, event_id)
    if event.catalogue is None:
        raise Http404
    return event, event.catalogue


@login_required
def catalogue_import(request: HttpRequest, event_id: int) -> HttpResponse:
    event, catalogue = _event_catalogue(request, event_id)
    form = ImportForm(request.POST or None, request.FILES or None)
    context: dict[str, object] = {
        "event": event,
        "catalogue": catalogue,
        "can_edit": True,  # the layout's organizer links: only organizers reach this page
        "form": form,
        "export_form": ExportForm(),
        "limits": tables.page_limits(),
    }
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        kind = "cards" if data["what"] == "cards" else "counter_rules"
        upload = data["file"]
        file_format = data["file_format"] or tables.format_of(upload.name) or "csv"
        outcome = receive(request, event, kind, upload.read(), file_format, upload.name)
        if next_page := outcome.next_page():
            return redirect(next_page)
        if outcome.errors or outcome.record is None:
            context["errors"] = outcome.errors
            context["correct_url"] = correct_url(outcome.record)
            return render(request, "cards/import.html", context, status=400)
        counts = {"new": outcome.record.created, "updated": outcome.record.updated}
        messages.success(request, _("Imported: %(new)s new, %(updated)s updated.") % counts)
        context["form"] = ImportForm()
    return render(request, "cards/import.html", context)


@login_required
def catalogue_export(request: HttpRequest, event_id: int) -> HttpResponse:
    event, catalogue = _event_catalogue(request, event_id)
    form = ExportForm(request.GET)
    if not form.is_valid():
        messages.error(request, _("Choose what to export and the file format."))
        return redirect("cards:catalogue-import", event.pk)
    what, file_format = form.cleaned_data["what"], form.cleaned_data["file_format"]
    response = HttpResponse(export_file(catalogue, what, file_format), content_type=tables.CONTENT_TYPES[file_format])
    response["Content-Disposition"] = f'attachment; filename="catalogue-{catalogue.pk}-{what}.{file_format}"'
    return response


@login_required
def arsenal_import(request: HttpRequest, event_id: int) -> HttpResponse:
    """Pools, arsenals and prepared arsenals of many characters from one table (cards/arsenal_import.py)."""
    event = event_for_organizer(request.user, event_id)
    return table_import_page(
        request,
        event,
        template="cards/arsenal_import.html",
        columns=COLUMNS,
        export_url=reverse("cards:arsenals-export", args=[event.pk]),
        kind="arsenals",
        done=lambda record: done_message(record.updated),
    )


@login_required
def arsenal_export(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    file_format = request.GET.get("format", "csv")
    if file_format not in tables.FORMATS:
        file_format = "csv"
    response = HttpResponse(export_arsenals(event, file_format), content_type=tables.CONTENT_TYPES[file_format])
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-arsenals.{file_format}"'
    return response

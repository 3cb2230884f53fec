"""Import and export of an event's characters as CSV, XLSX or JSON (the shared pipeline, events/tables.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _

from events import tables
from events.access import event_for_organizer
from events.forms import ImportForm
from events.resources import COLUMNS, export_characters, import_characters, read_characters


@login_required
def import_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    form = ImportForm(request.POST or None, request.FILES or None)
    errors: list[tuple[int | None, str]] = []
    if request.method == "POST" and form.is_valid():
        try:
            table = read_characters(form.cleaned_data["file"].read(), form.file_format)
        except tables.TableError as exc:
            errors = [(None, str(exc))]
        else:
            report = import_characters(event, table)
            errors = report.errors
            if not errors:
                messages.success(
                    request,
                    _("Imported: %(created)d new characters, %(updated)d updated.")
                    % {"created": report.created, "updated": report.updated},
                )
                return redirect("events:characters", event.pk)
    context = {"event": event, "form": form, "errors": errors, "columns": COLUMNS, "limits": tables.page_limits()}
    return render(request, "events/import.html", context, status=400 if errors else 200)


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

"""Import and export of an event's characters as CSV or XLSX."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _

from events.access import event_for_organizer
from events.forms import ImportForm
from events.resources import COLUMNS, ImportFileError, export_characters, import_characters, load_dataset

CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


@login_required
def import_page(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    form = ImportForm(request.POST or None, request.FILES or None)
    errors: list[tuple[int | None, str]] = []
    if request.method == "POST" and form.is_valid():
        try:
            dataset = load_dataset(form.cleaned_data["file"].read(), form.file_format)
        except ImportFileError as exc:
            errors = [(None, str(exc))]
        else:
            report = import_characters(event, dataset)
            errors = report.errors
            if not errors:
                messages.success(
                    request,
                    _("Imported: %(created)d new characters, %(updated)d updated.")
                    % {"created": report.created, "updated": report.updated},
                )
                return redirect("events:characters", event.pk)
        messages.error(request, _("Nothing was imported: correct the file and upload it again."))
    return render(request, "events/import.html", {"event": event, "form": form, "errors": errors, "columns": COLUMNS})


@login_required
def export(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    file_format = request.GET.get("format", "csv")
    if file_format not in CONTENT_TYPES:
        file_format = "csv"
    content = export_characters(event, file_format)
    if isinstance(content, str):
        # The byte order mark tells spreadsheet programs that the file is UTF-8.
        content = "\ufeff" + content
    response = HttpResponse(content, content_type=CONTENT_TYPES[file_format])
    filename = f"{slugify(event.name) or 'event'}-characters.{file_format}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

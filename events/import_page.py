"""The organizer's page that imports one table into an event (characters; pools and arsenals).

Both imports run the same protocol through the shared pipeline (helpers/tables.py):
read the uploaded file, import every row or none, list each bad row by its number
on the same page (status 400), or go back to the character list with a message.
The template extends ``events/_table_import.html``.
"""

from collections.abc import Callable, Sequence

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from events.forms import ImportForm
from events.models import Event
from helpers import tables


def table_import_page(
    request: HttpRequest,
    event: Event,
    *,
    template: str,
    columns: Sequence[str],
    export_url: str,
    read: Callable[[bytes, str], tables.Table],
    apply: Callable[[Event, tables.Table], tables.ImportReport],
    done: Callable[[tables.ImportReport], str],
) -> HttpResponse:
    """GET shows the form; POST imports the file all or nothing (``done`` words the success)."""
    form = ImportForm(request.POST or None, request.FILES or None)
    errors: list[tuple[int | None, str]] = []
    if request.method == "POST" and form.is_valid():
        try:
            table = read(form.cleaned_data["file"].read(), form.file_format)
        except tables.TableError as err:
            errors = [(None, str(err))]
        else:
            report = apply(event, table)
            errors = report.errors
            if not errors:
                messages.success(request, done(report))
                return redirect("events:characters", event.pk)
    context = {
        "event": event,
        "form": form,
        "errors": errors,
        "columns": columns,
        "limits": tables.page_limits(),
        "export_url": export_url,
    }
    return render(request, template, context, status=400 if errors else 200)

"""Catalogue import and export (CSV, XLSX, JSON) for organizers.

An import is all or nothing: any bad row rolls the whole file back, and the
page lists every bad row with its errors.
"""

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from import_export.formats import base_formats
from import_export.results import Result

from cards.forms import ExportForm, ImportForm
from cards.models import Catalogue
from cards.resources import expected_columns, required_columns, resource_for
from events.access import event_for_organizer
from events.models import Event

FORMATS: dict[str, type[base_formats.TablibFormat]] = {
    "csv": base_formats.CSV,
    "xlsx": base_formats.XLSX,
    "json": base_formats.JSON,
}


@dataclass
class RowReport:
    number: int
    errors: list[str]


class UnreadableFile(ValueError):
    pass


def _event_catalogue(request: HttpRequest, event_id: int) -> tuple[Event, Catalogue]:
    event = event_for_organizer(request.user, event_id)
    if event.catalogue is None:
        raise Http404
    return event, event.catalogue


def _dataset(raw: bytes, file_format: str, what: str):  # type: ignore[no-untyped-def]
    fmt = FORMATS[file_format]()
    try:
        content: bytes | str = raw if fmt.is_binary() else raw.decode("utf-8-sig")
        dataset = fmt.create_dataset(content)
    except UnicodeDecodeError:
        raise UnreadableFile(_("The file is not UTF-8 text; save the CSV or JSON as UTF-8.")) from None
    except Exception:
        # tablib and openpyxl raise many kinds of errors for a damaged file; all mean the same to the user.
        raise UnreadableFile(_("The file cannot be read as %(format)s.") % {"format": file_format.upper()}) from None
    headers = [str(h).strip() if h is not None else "" for h in (dataset.headers or [])]
    missing = [c for c in required_columns(what) if c not in headers]
    if missing or not len(dataset):
        raise UnreadableFile(
            _("The file needs a header row with the columns %(columns)s, and at least one row below it.")
            % {"columns": ", ".join(expected_columns(what))}
        )
    dataset.headers = headers
    return dataset


def _report(result: Result) -> list[RowReport]:
    rows: dict[int, list[str]] = {}
    for invalid in result.invalid_rows:
        for column, errors in invalid.field_specific_errors.items():
            rows.setdefault(invalid.number, []).extend(f"{column}: {e}" for e in errors)
        rows.setdefault(invalid.number, []).extend(invalid.non_field_specific_errors)
    for number, errors in result.row_errors():
        rows.setdefault(number, []).extend(str(e.error) for e in errors)
    report = [RowReport(number, errors) for number, errors in sorted(rows.items())]
    if result.base_errors:
        report.insert(0, RowReport(0, [str(e.error) for e in result.base_errors]))
    return report


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
    }
    if request.method == "POST" and form.is_valid():
        what, file_format = form.cleaned_data["what"], form.cleaned_data["file_format"]
        try:
            dataset = _dataset(form.cleaned_data["file"].read(), file_format, what)
        except UnreadableFile as err:
            messages.error(request, str(err))
            return render(request, "cards/import.html", context, status=400)
        resource = resource_for(what, catalogue)
        with transaction.atomic():
            result = resource.import_data(dataset, use_transactions=True, rollback_on_validation_errors=True)
            failed = result.has_errors() or result.has_validation_errors()
            if failed:
                transaction.set_rollback(True)
        if failed:
            messages.error(request, _("The file has errors; nothing was imported. Fix the rows below and try again."))
            context["report"] = _report(result)
            return render(request, "cards/import.html", context, status=400)
        totals = result.totals
        messages.success(
            request,
            _("Imported: %(new)s new, %(updated)s updated.")
            % {"new": totals.get("new", 0), "updated": totals.get("update", 0)},
        )
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
    fmt = FORMATS[file_format]()
    data = fmt.export_data(resource_for(what, catalogue).export())
    response = HttpResponse(data, content_type=fmt.get_content_type())
    filename = f"catalogue-{catalogue.pk}-{what}.{fmt.get_extension()}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

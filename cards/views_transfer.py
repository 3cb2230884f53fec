"""Catalogue import and export (CSV, XLSX, JSON) for organizers.

An import is all or nothing: any bad row rolls the whole file back, and the
page lists every bad row with its errors.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from cards.forms import ExportForm, ImportForm
from cards.models import Catalogue
from cards.resources import UnreadableFile, export_file, import_file
from events.access import event_for_organizer
from events.models import Event


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
    }
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            outcome = import_file(catalogue, data["what"], data["file"].read(), data["file_format"])
        except UnreadableFile as err:
            messages.error(request, str(err))
            return render(request, "cards/import.html", context, status=400)
        if outcome.report:
            messages.error(request, _("The file has errors; nothing was imported. Fix the rows below and try again."))
            context["report"] = outcome.report
            return render(request, "cards/import.html", context, status=400)
        counts = {"new": outcome.created, "updated": outcome.updated}
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
    what = form.cleaned_data["what"]
    content, content_type, extension = export_file(catalogue, what, form.cleaned_data["file_format"])
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="catalogue-{catalogue.pk}-{what}.{extension}"'
    return response

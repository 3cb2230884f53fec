"""Mass battles' data for organizers: magic cards by deck, the armlist and the armies, with import and export.

Editing single rows is the admin's; here an organizer sees everything at once
and moves it in and out as CSV, XLSX or JSON (all or nothing, like the catalogue).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from cards.forms import FILE_FORMATS
from cards.models_mass import Army, MagicCard, Warrior, WarriorType
from cards.resources import UnreadableFile
from cards.resources_mass import COLUMNS, export_file, import_file
from events.access import event_for_organizer
from events.models import Event, new_link_token

WHAT = [
    ("magic_cards", gettext_lazy("magic cards")),
    ("warrior_types", gettext_lazy("armlist (warrior types)")),
    ("warriors", gettext_lazy("warriors of the armies")),
]


class MassImportForm(forms.Form):
    what = forms.ChoiceField(label=gettext_lazy("what"), choices=WHAT)
    file = forms.FileField(label=gettext_lazy("file"), help_text=gettext_lazy("CSV (UTF-8), XLSX or JSON."))
    MAX_BYTES = 2 * 1024 * 1024

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        upload = cleaned.get("file")
        if upload is None:
            return cleaned
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is too large (at most 2 MB)."))
        suffix = upload.name.rsplit(".", 1)[-1].lower() if "." in upload.name else ""
        if suffix not in dict(FILE_FORMATS):
            raise forms.ValidationError(_("Upload a .csv, .xlsx or .json file."))
        cleaned["file_format"] = suffix
        return cleaned


class MassExportForm(forms.Form):
    what = forms.ChoiceField(label=gettext_lazy("what"), choices=WHAT)
    file_format = forms.ChoiceField(label=gettext_lazy("format"), choices=FILE_FORMATS)


def _context(event: Event) -> dict[str, Any]:
    cards = MagicCard.objects.filter(catalogue=event.catalogue).order_by("deck", "name_ru") if event.catalogue else []
    decks = {deck: [c for c in cards if c.deck == deck] for deck in (2, 4, 5, 6)}
    warriors = Warrior.objects.select_related("warrior_type", "character").order_by("name")
    armies = Army.objects.filter(event=event).prefetch_related(Prefetch("warriors", queryset=warriors))
    return {
        "event": event,
        "can_edit": True,
        "decks": decks,
        "warrior_types": WarriorType.objects.filter(event=event),
        "armies": armies,
        "columns": COLUMNS,
        "export_form": MassExportForm(),
    }


@login_required
def mass_data(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    form = MassImportForm(request.POST or None, request.FILES or None)
    context = {**_context(event), "form": form}
    if request.method != "POST":
        return render(request, "cards/mass_data.html", context)
    if not form.is_valid():
        return render(request, "cards/mass_data.html", context, status=400)
    data = form.cleaned_data
    try:
        outcome = import_file(event, data["what"], data["file"].read(), data["file_format"])
    except UnreadableFile as err:
        messages.error(request, str(err))
        return render(request, "cards/mass_data.html", context, status=400)
    if outcome.report:
        messages.error(request, _("The file has errors; nothing was imported. Fix the rows below and try again."))
        return render(request, "cards/mass_data.html", {**context, "report": outcome.report}, status=400)
    messages.success(
        request, _("Imported: %(new)s new, %(updated)s updated.") % {"new": outcome.created, "updated": outcome.updated}
    )
    return redirect("cards:mass-data", event.pk)


@login_required
def mass_export(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    form = MassExportForm(request.GET)
    if not form.is_valid():
        messages.error(request, _("Choose what to export and the file format."))
        return redirect("cards:mass-data", event.pk)
    what = form.cleaned_data["what"]
    try:
        content, content_type, extension = export_file(event, what, form.cleaned_data["file_format"])
    except UnreadableFile as err:
        messages.error(request, str(err))
        return redirect("cards:mass-data", event.pk)
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-{what}.{extension}"'
    return response


@login_required
@require_POST
def army_new_link(request: HttpRequest, event_id: int, army_id: int) -> HttpResponse:
    """A leaked or lost army QR code: a new secret link, the old one opens nothing any more."""
    event = event_for_organizer(request.user, event_id)
    army = get_object_or_404(Army, pk=army_id, event=event)
    army.link_token = new_link_token()
    army.save(update_fields=["link_token"])
    messages.success(request, _("%(army)s has a new secret link; the old one no longer works.") % {"army": army.name})
    return redirect("cards:mass-data", event.pk)

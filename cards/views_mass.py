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

from cards.models_mass import Army, MagicCard, Warrior, WarriorType, in_natural_order
from cards.printing.mass import army_link_url
from cards.resources_mass import COLUMNS, export_file
from events.access import event_for_organizer
from events.forms import ImportForm as TableForm
from events.import_page import correct_url, receive
from events.models import MAGIC_DECKS, Event, new_link_token
from events.public_url import address_note
from helpers import tables

WHAT = [
    ("magic_cards", gettext_lazy("magic cards")),
    ("warrior_types", gettext_lazy("armlist (warrior types)")),
    ("warriors", gettext_lazy("warriors of the armies")),
]


class MassImportForm(TableForm):
    what = forms.ChoiceField(label=gettext_lazy("what"), choices=WHAT)

    field_order = ["what", "file"]


class MassExportForm(forms.Form):
    what = forms.ChoiceField(label=gettext_lazy("what"), choices=WHAT)
    file_format = forms.ChoiceField(label=gettext_lazy("format"), choices=[(f, f.upper()) for f in tables.FORMATS])


def _context(event: Event) -> dict[str, Any]:
    cards = MagicCard.objects.filter(catalogue=event.catalogue).order_by("deck", "name_ru") if event.catalogue else []
    decks = {deck: [c for c in cards if c.deck == deck] for deck in (2, 4, 5, 6)}
    warriors = Warrior.objects.select_related("warrior_type", "character").order_by("name")
    armies = list(Army.objects.filter(event=event).prefetch_related(Prefetch("warriors", queryset=warriors)))
    for army in armies:
        army.warrior_rows = in_natural_order(army.warriors.all())  # type: ignore[attr-defined]  # issue 20
    return {
        **address_note(event),
        "event": event,
        "can_edit": True,
        "decks": decks,
        "warrior_types": WarriorType.objects.filter(event=event),
        # The commander's link on the public address, as its printed QR code says it (never the browser's host).
        "armies": [(army, army_link_url(army, event)) for army in armies],
        "decks_to_print": MAGIC_DECKS,
        "columns": COLUMNS,
        "export_form": MassExportForm(),
        "limits": tables.page_limits(),
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
    upload = data["file"]
    outcome = receive(request, event, data["what"], upload.read(), form.file_format, upload.name)
    if next_page := outcome.next_page():
        return redirect(next_page)
    if outcome.errors or outcome.record is None:
        context = {**context, "errors": outcome.errors, "correct_url": correct_url(outcome.record)}
        return render(request, "cards/mass_data.html", context, status=400)
    counts = {"new": outcome.record.created, "updated": outcome.record.updated}
    messages.success(request, _("Imported: %(new)s new, %(updated)s updated.") % counts)
    return redirect("cards:mass-data", event.pk)


@login_required
def mass_export(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    form = MassExportForm(request.GET)
    if not form.is_valid():
        messages.error(request, _("Choose what to export and the file format."))
        return redirect("cards:mass-data", event.pk)
    what, file_format = form.cleaned_data["what"], form.cleaned_data["file_format"]
    try:
        content = export_file(event, what, file_format)
    except tables.TableError as err:
        messages.error(request, str(err))
        return redirect("cards:mass-data", event.pk)
    response = HttpResponse(content, content_type=tables.CONTENT_TYPES[file_format])
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-{what}.{file_format}"'
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

"""Organizers' prints for mass battles: the magic decks and the army rosters (issue 14, M1-M3).

Only the event's organizers print them: a roster carries the commander's secret
link. Bad choices (a deck that is not 2, 4, 5 or 6, an army of another event)
come back to the mass-battle page with a message, never a 500.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from cards.forms_print import ArmyForm, MagicDeckForm
from cards.printing import mass
from cards.views_print import deliver, file_name
from events.access import event_for_organizer


@never_cache
@login_required
@require_GET
def magic_decks(request: HttpRequest, event_id: int) -> HttpResponse:
    """Every copy of the chosen decks' cards: fronts, then backs with the deck's number (M1)."""
    event = event_for_organizer(request.user, event_id)
    form = MagicDeckForm(request.GET)
    if not form.is_valid():
        messages.error(request, _("Choose the magic decks to print: 2, 4, 5 or 6."))
        return redirect("cards:mass-data", event.pk)
    decks = form.decks()
    pages = mass.deck_pages(event, decks)
    if not pages:
        messages.warning(request, _("These decks hold no magic cards yet: nothing to print."))
        return redirect("cards:mass-data", event.pk)
    name = file_name(event.name, "magic-decks", *map(str, decks))
    return deliver(request, name, title=event.name, event=event, pages=pages)


@never_cache
@login_required
@require_GET
def army_rosters(request: HttpRequest, event_id: int) -> HttpResponse:
    """The roster of each chosen army (all of them without ``?army=``), with the commander's QR code."""
    event = event_for_organizer(request.user, event_id)
    form = ArmyForm(request.GET, event=event)
    if not form.is_valid():
        messages.error(request, _("Choose armies of this event to print."))
        return redirect("cards:mass-data", event.pk)
    rosters = mass.rosters(event, form.army_ids())
    if not rosters:
        messages.warning(request, _("This event has no armies yet: nothing to print."))
        return redirect("cards:mass-data", event.pk)
    parts = [r.army.name for r in rosters] if len(rosters) == 1 else ["armies"]
    return deliver(request, file_name(event.name, *parts), title=event.name, event=event, rosters=rosters)

"""Check-in at the gate: a phone-friendly list of accepted characters with a big "arrived" button."""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events.access import ORGANIZER, character_for_staff, event_for_organizer
from events.models import Character
from events.search import name_matches
from helpers.requests import HtmxRequest


def _check_in_list(event, query: str):
    queryset = Character.objects.filter(event=event, status=Character.Status.ACCEPTED).select_related("player")
    if query:
        queryset = queryset.filter(name_matches(query))
    return queryset.order_by("name", "pk")


@login_required
def check_in(request: HtmxRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    # A NUL byte means nothing in a name, and PostgreSQL refuses it in a query (a 500).
    query = request.GET.get("q", "").replace("\x00", "").strip()[:120]
    context = {"event": event, "rows": _check_in_list(event, query), "q": query}
    if request.htmx and request.htmx.target == "check-in-list":
        return render(request, "events/check_in.html#list", context)
    context["arrived_count"] = _arrived_count(event.pk)
    return render(request, "events/check_in.html", context)


@login_required
@require_POST
def check_in_set(request: HtmxRequest, character_id: int) -> HttpResponse:
    """Set "arrived" to the value the button carries: a repeated tap changes nothing more."""
    character = character_for_staff(request.user, character_id, ORGANIZER)
    wanted = request.POST.get("arrived")
    if wanted not in ("0", "1"):
        # The buttons carry 0 or 1; anything else must not undo an arrival.
        return _malformed(request, character)
    arrived = wanted == "1"
    if character.status != Character.Status.ACCEPTED:
        # Only accepted characters are on the list; a stale page gets the row as it is now.
        arrived = character.arrived
    if arrived != character.arrived:
        # The conditional update makes two people tapping at once record one arrival time.
        Character.objects.filter(pk=character.pk, arrived=not arrived).update(
            arrived=arrived, arrived_at=timezone.now() if arrived else None
        )
        character.refresh_from_db(fields=["arrived", "arrived_at"])
    if request.htmx:
        # The row, and the counter above the list as an out-of-band swap: it changes with every tap.
        context = {"row": character, "oob": True, "arrived_count": _arrived_count(character.event_id)}
        return render(request, "events/check_in.html#row", context)
    return _back_to_list(request, character)


def _arrived_count(event_id: int) -> int:
    return Character.objects.filter(event_id=event_id, status=Character.Status.ACCEPTED, arrived=True).count()


def _malformed(request: HtmxRequest, character: Character) -> HttpResponse:
    if request.htmx:
        return render(request, "events/check_in.html#row", {"row": character}, status=400)
    messages.error(request, _("Nothing was changed: the request did not say whether the character has arrived."))
    return _back_to_list(request, character)


def _back_to_list(request: HttpRequest, character: Character) -> HttpResponse:
    url = reverse("events:check-in", args=[character.event_id])
    query = request.POST.get("q", "").strip()
    if query:
        url += "?" + urlencode({"q": query})
    return HttpResponseRedirect(url + f"#character-{character.pk}")

"""Check-in at the gate: a phone-friendly list of accepted characters with a big "arrived" button,
and per character a tick for each handout (sheet, cards, QR link, magic decks: events/handouts.py)."""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events import handouts
from events.access import ORGANIZER, character_for_staff, event_for_organizer, person
from events.models import Character, Handout
from events.search import name_matches
from helpers.requests import HtmxRequest


def _accepted(event_id: int):
    return Character.objects.filter(event_id=event_id, status=Character.Status.ACCEPTED)


def _check_in_list(event, query: str, only_lacking: bool) -> list[Character]:
    queryset = _accepted(event.pk).select_related("player").prefetch_related("handouts")
    if query:
        queryset = queryset.filter(name_matches(query))
    if only_lacking:
        queryset = handouts.still_lacking(queryset)
    return [_with_handouts(row) for row in queryset.order_by("name", "pk")]


def _with_handouts(row: Character) -> Character:
    """The row's tick buttons and what it still lacks (from its prefetched handouts)."""
    row.desk_items = handouts.items_of(row)  # type: ignore[attr-defined]
    row.lacks = handouts.lacking(row)  # type: ignore[attr-defined]
    return row


@login_required
def check_in(request: HtmxRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    # A NUL byte means nothing in a name, and PostgreSQL refuses it in a query (a 500).
    query = request.GET.get("q", "").replace("\x00", "").strip()[:120]
    only_lacking = request.GET.get("lacking") == "1"
    rows = _check_in_list(event, query, only_lacking)
    context = {"event": event, "rows": rows, "q": query, "lacking": only_lacking}
    if request.htmx and request.htmx.target == "check-in-list":
        return render(request, "events/check_in.html#list", context)
    context.update(arrived_count=_arrived_count(event.pk), lacking_count=_lacking_count(event.pk))
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
    return _row_answer(request, character)


@login_required
@require_POST
def handout_set(request: HtmxRequest, character_id: int) -> HttpResponse:
    """Tick (or untick) one handout to the value the button carries: a repeated tap changes nothing more."""
    character = character_for_staff(request.user, character_id, ORGANIZER)
    item, wanted = request.POST.get("item"), request.POST.get("handed")
    if item not in Handout.Item.values or wanted not in ("0", "1"):
        return _malformed(request, character, _("Nothing was changed: the request did not say what was handed out."))
    if character.status == Character.Status.ACCEPTED:
        # Only accepted characters are on the list; a stale page gets the row as it is now.
        handouts.set_handed(character, item, wanted == "1", person(request))
    return _row_answer(request, character)


def _row_answer(request: HtmxRequest, character: Character) -> HttpResponse:
    if request.htmx:
        # The row, and the counters above the list as out-of-band swaps: they change with every tap.
        context = {
            "row": _fresh_row(character),
            "oob": True,
            "arrived_count": _arrived_count(character.event_id),
            "lacking_count": _lacking_count(character.event_id),
        }
        return render(request, "events/check_in.html#row", context)
    return _back_to_list(request, character)


def _fresh_row(character: Character) -> Character:
    return _with_handouts(Character.objects.select_related("player").prefetch_related("handouts").get(pk=character.pk))


def _arrived_count(event_id: int) -> int:
    return _accepted(event_id).filter(arrived=True).count()


def _lacking_count(event_id: int) -> int:
    return handouts.still_lacking(_accepted(event_id)).count()


def _malformed(request: HtmxRequest, character: Character, message: str | None = None) -> HttpResponse:
    if request.htmx:
        return render(request, "events/check_in.html#row", {"row": _fresh_row(character)}, status=400)
    messages.error(
        request, message or _("Nothing was changed: the request did not say whether the character has arrived.")
    )
    return _back_to_list(request, character)


def _back_to_list(request: HttpRequest, character: Character) -> HttpResponse:
    url = reverse("events:check-in", args=[character.event_id])
    query = request.POST.get("q", "").replace("\x00", "").strip()[:120]
    params = {"q": query} if query else {}
    if request.POST.get("lacking") == "1":
        params["lacking"] = "1"
    if params:
        url += "?" + urlencode(params)
    return HttpResponseRedirect(url + f"#character-{character.pk}")

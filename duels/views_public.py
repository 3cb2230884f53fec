"""Fights beyond one situation's page (issue 10): the public list of an event's running fights (each with
its own QR), the big screen that follows the latest fight, and the staff's history of finished fights.

The public pages show what the spectator page shows (D4: no unplayed card): the
presenter's spectator viewer, never a hand. History is for the event's staff:
its log lines name drawn cards.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.views.decorators.http import require_GET

from duels import services
from duels.duel.presenters import SituationView, card_ids, card_names, present
from duels.models import LogEntry, Situation
from duels.web.live import quoted_hash, render_live, situation_etag
from duels.web.viewers import SPECTATOR, Viewer
from events.access import ORGANIZER, REFEREE, character_for_staff, event_for_referee
from events.models import Character, Event
from events.public_url import public_url as public_address
from events.views_characters import qr_svg
from helpers.requests import HtmxRequest

SPECTATOR_VIEW = Viewer(SPECTATOR)
HISTORY_PAGE = 30
RUNNING_MAX = 50


def _running(event: Event) -> list[tuple[Situation, SituationView]]:
    """Unfinished situations, newest activity first, each brought up to date first (S2)."""
    rows = []
    # Mass battles have their own spectator page (duels:mass-watch); the duel presenter cannot show them.
    running = Situation.objects.filter(event=event, ended=False).exclude(kind=Situation.Kind.MASS_BATTLE)
    for situation in running.order_by("-updated_at", "-pk")[:RUNNING_MAX]:
        situation = services.refresh(situation)
        if not situation.ended:
            state = services.state_of(situation)
            rows.append((situation, present(state, SPECTATOR_VIEW, card_names(card_ids(state)))))
    return rows


def public_url(event: Event, path: str) -> str:
    """The address a QR code points to: the public base address (events/public_url.py), never the request's host."""
    return public_address(path, event)


@require_GET
def event_fights(request: HtmxRequest, event_id: int) -> HttpResponse:
    """Public: an event's running fights, each with a link and a QR code to its spectator page."""
    event = get_object_or_404(Event, pk=event_id)
    rows = []
    for situation, view in _running(event):
        watch = reverse("duels:watch", args=[situation.pk])
        rows.append({"situation": situation, "view": view, "url": watch, "qr": qr_svg(public_url(event, watch), 3)})
    context = {"event": event, "rows": rows}
    template = "duels/event_fights.html#list" if request.htmx else "duels/event_fights.html"
    return render(request, template, context)


@require_GET
def big_screen(request: HtmxRequest, event_id: int) -> HttpResponse:
    """Public: the spectator view of the fight with the latest activity, switching as fights start and end."""
    event = get_object_or_404(Event, pk=event_id)
    running = _running(event)
    situation, view = running[0] if running else (None, None)
    if situation is None:
        etag = quoted_hash(f"screen:{event.pk}:none:{request.LANGUAGE_CODE}")
    else:
        etag = situation_etag(situation, SPECTATOR_VIEW, f"screen-{event.pk}")
    context: dict[str, Any] = {"event": event, "situation": situation, "view": view, "others": running[1:]}
    template = "duels/big_screen.html#live" if request.htmx else "duels/big_screen.html"
    return render_live(request, template, context, etag)


def _history_rows(situations: Any) -> list[dict[str, Any]]:
    ids = [s.pk for s in situations]
    referees: dict[int, set[str]] = {}
    actors = (
        LogEntry.objects.filter(situation_id__in=ids, actor__isnull=False)
        .values_list("situation_id", "actor__username")
        .distinct()
    )
    for situation_id, username in actors:
        referees.setdefault(situation_id, set()).add(username)
    rows = []
    for situation in situations:
        state = services.state_of(situation)
        view = present(state, SPECTATOR_VIEW, card_names(card_ids(state)))
        rows.append({"situation": situation, "view": view, "referees": sorted(referees.get(situation.pk, ()))})
    return rows


@login_required
@require_GET
def event_history(request: HtmxRequest, event_id: int) -> HttpResponse:
    """The event's finished fights, newest first: result, date, referees, and a link to each log."""
    event = event_for_referee(request.user, event_id)
    finished = (
        Situation.objects.filter(event=event, ended=True)
        .exclude(kind=Situation.Kind.MASS_BATTLE)  # listed on the mass-battle page, with their own log
        .order_by("-ended_at", "-pk")
    )
    page = Paginator(finished, HISTORY_PAGE).get_page(request.GET.get("page"))
    context = {"event": event, "page": page, "rows": _history_rows(page.object_list), "character": None}
    return render(request, "duels/history.html", context)


@login_required
@require_GET
def character_history(request: HtmxRequest, character_id: int) -> HttpResponse:
    """One character's fights (running and finished), for the event's staff."""
    character: Character = character_for_staff(request.user, character_id, ORGANIZER, REFEREE)
    fights = Situation.objects.filter(participants=character).order_by("-created_at", "-pk")
    page = Paginator(fights, HISTORY_PAGE).get_page(request.GET.get("page"))
    context = {
        "event": character.event,
        "page": page,
        "rows": _history_rows(page.object_list),
        "character": character,
    }
    return render(request, "duels/history.html", context)

"""Fights beyond one tablet, for every kind: the spectator page and the record, the public list of an
event's running fights (each with its own QR), the big screen, and the staff's history.

Every kind answers through its pages (``duels.web.pages``): these views never
ask which kind a fight is. The public pages show what the spectator page shows
(D4: no unplayed card, no kept magic card, no deck order). History is for the
event's staff: it links each fight's log, whose lines name drawn cards.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET

from duels import services
from duels.models import LogEntry, Situation
from duels.services.live import Meta, meta_from, meta_from_db, remember
from duels.services.record import whole_state
from duels.web.access import public_situation
from duels.web.live import cached_fragment, not_modified, polled, quoted_hash, render_live, shared_fragment
from duels.web.pages import FightSummary, pages_of, refuse_other_kinds, refused, url_name
from duels.web.polls import cached_meta, seen_for, spectator_etag, watch_fragment
from events.access import ORGANIZER, REFEREE, character_for_staff, event_for_referee
from events.models import Character, Event
from events.public_url import public_url as public_address
from events.views_characters import qr_svg
from helpers.requests import HtmxRequest

HISTORY_PAGE = 30
RUNNING_MAX = 50
# How many running fights the big screen shows whole; the rest are counted (a 1080p screen holds about four).
BIG_SCREEN_FIGHTS = 4


# --- one fight: the spectator page and the record ------------------------------------------------


def watch_context(situation: Situation) -> dict[str, Any]:
    pages = pages_of(situation)
    return {
        "situation": situation,
        "event": situation.event,
        "card": f"{pages.templates.watch}#card",
        **pages.watch_context(situation, services.state_of(situation)),
    }


@require_GET
def watch(request: HtmxRequest, situation_id: int) -> HttpResponse:
    """A fight of any kind as spectators see it (its URL names stay: duels:watch, duels:mass-watch)."""
    # A page renders; so does a poll of a version no spectator had rendered yet: both read the whole row at once.
    whole, missed, meta = not polled(request), "", None
    if polled(request):
        # The page is public, so a poll is answered from the cached version
        # alone, no database at all (see services.live): a 304, or the
        # fragment of the new version once one spectator had it rendered.
        seen = seen_for(request, str(situation_id))
        found = seen.cached if seen is not None else cached_meta(situation_id)
        meta = found if isinstance(found, Meta) else meta_from_db(situation_id)
        if meta is None:
            raise Http404
        if not meta.is_due(timezone.now()) and meta.kind and not refused(meta.kind, url_name(request)):
            etag = spectator_etag(meta)
            # ``missed``: the early path (config/early.py) found it unchanged by neither ETag nor cached fragment.
            if seen is None or seen.missed != etag:
                fast = not_modified(request, etag) or cached_fragment(request, watch_fragment(meta.kind), etag)
                if fast is not None:
                    return fast
            whole, missed = True, etag
    situation = services.refresh(public_situation(situation_id, whole=whole))
    refuse_other_kinds(request, situation)
    if meta != meta_from(situation):  # what the cache holds already (or the database's answer, kept then)
        remember(situation)
    etag = spectator_etag(situation)
    if request.htmx and (unchanged := not_modified(request, etag)) is not None:
        return unchanged
    template = pages_of(situation).templates.watch
    if request.htmx:
        # Every spectator of this version gets the same fragment, rendered once.
        build = lambda: watch_context(situation)  # noqa: E731 - read once, if at all
        return shared_fragment(request, f"{template}#live", etag, build, missed=etag == missed)
    return render_live(request, template, watch_context(situation), etag)


@require_GET
def record(request: HttpRequest, situation_id: int) -> HttpResponse:
    """Every finished step (paginated) and every played card of a fight: public like the spectator page (D4)."""
    situation = services.refresh(public_situation(situation_id, whole=True))
    pages = pages_of(situation)
    context = {
        "situation": situation,
        "event": situation.event,
        # Every finished step: the stored state keeps only the newest, the log has them all.
        **pages.record_context(situation, whole_state(situation), request.GET.get("page")),
    }
    return render(request, pages.templates.record, context)


# --- an event's fights: the running ones, the big screen, history ---------------------------------


def _running(event: Event) -> list[Situation]:
    """Unfinished fights of every kind, newest activity first, each brought up to date first (S2)."""
    rows = []
    running = Situation.objects.filter(event=event, ended=False).select_related("event")
    for situation in running.order_by("-updated_at", "-pk")[:RUNNING_MAX]:
        situation = services.refresh(situation)
        if not situation.ended:
            rows.append(situation)
    return rows


def summary_of(situation: Situation) -> FightSummary:
    return pages_of(situation).summary(situation, services.state_of(situation))


def public_url(event: Event, path: str) -> str:
    """The address a QR code points to: the public base address (events/public_url.py), never the request's host."""
    return public_address(path, event)


@require_GET
def event_fights(request: HtmxRequest, event_id: int) -> HttpResponse:
    """Public: an event's running fights, each with a link and a QR code to its spectator page."""
    event = get_object_or_404(Event, pk=event_id)
    rows = []
    for situation in _running(event):
        url = reverse("duels:watch", args=[situation.pk])
        rows.append(
            {
                "situation": situation,
                "summary": summary_of(situation),
                "url": url,
                "qr": qr_svg(public_url(event, url), 3),
            }
        )
    context = {"event": event, "rows": rows}
    template = "duels/event_fights.html#list" if request.htmx else "duels/event_fights.html"
    return render(request, template, context)


@require_GET
def big_screen(request: HtmxRequest, event_id: int) -> HttpResponse:
    """Public: the fights with the latest activity, as spectators see them, switching as fights start and end."""
    event = get_object_or_404(Event, pk=event_id)
    running = _running(event)
    shown = []
    for situation in running[:BIG_SCREEN_FIGHTS]:
        fight = watch_context(situation)
        html = render_to_string(fight["card"], fight, request)
        summary = summary_of(situation)
        shown.append({"situation": situation, "title": summary.title, "summary": summary, "html": html})
    parts = [f"{s.pk}:{s.version}:{s.ended}:{s.next_deadline}" for s in running]
    etag = quoted_hash(f"screen:{event.pk}:{parts}:{request.LANGUAGE_CODE}")
    context: dict[str, Any] = {"event": event, "shown": shown, "others": running[len(shown) :]}
    template = "duels/big_screen.html#live" if request.htmx else "duels/big_screen.html"
    if request.htmx and (unchanged := not_modified(request, etag)) is not None:
        return unchanged
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
    return [
        {
            "situation": situation,
            "summary": summary_of(situation),
            "tablet": pages_of(situation).tablet_url_name,
            "referees": sorted(referees.get(situation.pk, ())),
        }
        for situation in situations
    ]


@login_required
@require_GET
def event_history(request: HtmxRequest, event_id: int) -> HttpResponse:
    """The event's finished fights of every kind, newest first: result, date, referees, and a link to each log."""
    event = event_for_referee(request.user, event_id)
    finished = Situation.objects.filter(event=event, ended=True).select_related("event").order_by("-ended_at", "-pk")
    page = Paginator(finished, HISTORY_PAGE).get_page(request.GET.get("page"))
    context = {"event": event, "page": page, "rows": _history_rows(page.object_list), "character": None}
    return render(request, "duels/history.html", context)


@login_required
@require_GET
def character_history(request: HtmxRequest, character_id: int) -> HttpResponse:
    """One character's fights of every kind (running and finished), for the event's staff."""
    character: Character = character_for_staff(request.user, character_id, ORGANIZER, REFEREE)
    fights = Situation.objects.filter(participants=character).select_related("event").order_by("-created_at", "-pk")
    page = Paginator(fights, HISTORY_PAGE).get_page(request.GET.get("page"))
    context = {
        "event": character.event,
        "page": page,
        "rows": _history_rows(page.object_list),
        "character": character,
    }
    return render(request, "duels/history.html", context)

"""The referee's home for an event: its running fights of every kind, and finding a character."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import get_language

from duels import services
from duels.models import Situation
from duels.web.forms import SearchForm
from duels.web.live import live_headers, not_modified, quoted_hash
from duels.web.pages import FightSummary, pages_of
from events.access import event_for_referee
from events.models import Character, Event
from events.search import name_matches
from helpers.requests import HtmxRequest

SEARCH_LIMIT = 20
RUNNING_TTL = 600


@dataclass(frozen=True)
class RunningRow:
    """One line of the running-fights list: small, so it is cached per situation, version and language."""

    pk: int
    tablet: str  # the URL name of its tablet
    summary: FightSummary


def _running_versions(event: Event) -> list[tuple[int, int, Any]]:
    """(id, version, deadline) of the unfinished situations, each brought up to date first (S2).

    Reads three columns per fight; only an overdue fight is refreshed (which
    may end it and drop it from the list).
    """
    rows = list(
        Situation.objects.filter(event=event, ended=False).order_by("-pk").values_list("pk", "version", "next_deadline")
    )
    now = timezone.now()
    if not any(deadline is not None and deadline < now for _pk, _v, deadline in rows):
        return rows
    for pk, _version, deadline in rows:
        if deadline is not None and deadline < now:
            services.refresh_by_id(pk, now=now)
    return list(
        Situation.objects.filter(event=event, ended=False).order_by("-pk").values_list("pk", "version", "next_deadline")
    )


def _row(situation: Situation) -> RunningRow:
    pages = pages_of(situation)
    return RunningRow(situation.pk, pages.tablet_url_name, pages.summary(situation, services.state_of(situation)))


def _running(versions: list[tuple[int, int, Any]]) -> list[RunningRow]:
    """The rows, from the cache where the same version was shown before; only changed fights are read."""
    language = get_language()
    keys = {pk: f"sumrak:running-row:{pk}:{version}:{language}" for pk, version, _deadline in versions}
    found = cache.get_many(list(keys.values()))
    missing = [pk for pk, key in keys.items() if key not in found]
    if missing:
        rows = Situation.objects.filter(pk__in=missing).select_related("event").only("id", "kind", "state", "event")
        fresh = {s.pk: _row(s) for s in rows}
        cache.set_many({keys[pk]: row for pk, row in fresh.items()}, RUNNING_TTL)
        found.update({keys[pk]: row for pk, row in fresh.items()})
    return [found[keys[pk]] for pk, _v, _d in versions if keys[pk] in found]


def _search(event: Event, q: str) -> list[tuple[Character, int | None]]:
    found = list(
        Character.objects.filter(name_matches(q), event=event, status=Character.Status.ACCEPTED).order_by("name")[
            :SEARCH_LIMIT
        ]
    )
    fighting: dict[int, int] = {}
    running = Situation.objects.filter(event=event, ended=False, participants__in=found).distinct()
    for situation in running.prefetch_related("participants"):
        # S2: a gap that ran out while nobody looked has ended the fight; no link to it.
        if not services.refresh(situation).ended:
            fighting.update((c.pk, situation.pk) for c in situation.participants.all())
    return [(c, fighting.get(c.pk)) for c in found]


@login_required
def referee_home(request: HtmxRequest, event_id: int) -> HttpResponse:
    event = event_for_referee(request.user, event_id)
    form = SearchForm(request.GET or None)
    q = form.cleaned_data["q"].strip() if form.is_valid() else ""
    context: dict[str, Any] = {"event": event, "form": form, "q": q, "results": _search(event, q) if q else None}
    if request.htmx and request.htmx.target == "search-results":
        return render(request, "duels/referee_home.html#results", context)
    versions = _running_versions(event)
    # The list changes only with a fight's version (or its end): a poll that
    # saw the same versions gets a 304 from three columns per fight.
    etag = quoted_hash(repr([event.pk, versions, get_language()]))
    context["running_etag"] = etag
    if request.htmx and request.htmx.target == "running":
        if (unchanged := not_modified(request, etag)) is not None:
            return unchanged
        context["running"] = _running(versions)
        return live_headers(render(request, "duels/referee_home.html#running", context), etag)
    context["running"] = _running(versions)
    return render(request, "duels/referee_home.html", context)

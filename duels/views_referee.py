"""The referee's home for an event: its running fights of every kind, and finding a character."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from duels import services
from duels.models import Situation
from duels.web.forms import SearchForm
from duels.web.live import live_headers, not_modified, quoted_hash
from duels.web.pages import FightSummary, Person, pages_of
from events.access import event_for_referee
from events.models import Character, Event
from events.search import name_matches
from helpers.requests import HtmxRequest

SEARCH_LIMIT = 20
RUNNING_TTL = 600


@dataclass(frozen=True)
class RunningRow:
    """One line of the running-fights list: small, so it is cached per situation, version and language.

    ``html`` is the line as the list shows it, written once when the row is
    cached: a list of 200 running fights was 200 loops of template nodes
    for every change of any of them (issue 24, ~37 ms of CPU); it is now a join.
    """

    pk: int
    tablet: str  # the URL name of its tablet
    summary: FightSummary
    html: str = ""


def _person(person: Person, last: bool) -> str:
    badge = ""
    if person.note:
        tone = "text-bg-danger" if person.out else "text-bg-secondary"
        badge = f' <span class="badge condition-badge {tone}">{escape(person.note)}</span>'
    return f"{escape(person.name)}{badge}{'' if last else ' · '}"


def row_html(pk: int, tablet: str, summary: FightSummary) -> str:
    """One running fight as a link to its tablet: its kind, its people with their notes, what stands now."""
    people = "".join(_person(p, n == len(summary.people) - 1) for n, p in enumerate(summary.people))
    lines = "".join(f'<span class="d-block">{escape(line)}</span>' for line in summary.lines)
    href = escape(reverse(tablet, args=[pk]))
    return (
        f'<a class="list-group-item list-group-item-action py-3 running-fight" href="{href}">'
        f'<span class="small text-muted d-block">{escape(summary.kind_label)}</span>'
        f'<span class="fs-5 fw-bold">{people}</span>{lines}</a>'
    )


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
    summary = pages.summary(situation, services.state_of(situation))
    return RunningRow(
        situation.pk, pages.tablet_url_name, summary, row_html(situation.pk, pages.tablet_url_name, summary)
    )


def _running(versions: list[tuple[int, int, Any]]) -> list[RunningRow]:
    """The rows, from the cache where the same version was shown before; only changed fights are read."""
    language = get_language()
    keys = {pk: f"sumrak:running-row:2:{pk}:{version}:{language}" for pk, version, _deadline in versions}
    found = cache.get_many(list(keys.values()))
    missing = [pk for pk, key in keys.items() if key not in found]
    if missing:
        rows = Situation.objects.filter(pk__in=missing).select_related("event").only("id", "kind", "state", "event")
        fresh = {s.pk: _row(s) for s in rows}
        cache.set_many({keys[pk]: row for pk, row in fresh.items()}, RUNNING_TTL)
        found.update({keys[pk]: row for pk, row in fresh.items()})
    return [found[keys[pk]] for pk, _v, _d in versions if keys[pk] in found]


def _list_context(context: dict[str, Any], versions: list[tuple[int, int, Any]]) -> None:
    """The running rows, and their lines joined once (each escaped in ``row_html``) for the list."""
    rows = _running(versions)
    context["running"] = rows
    context["running_html"] = mark_safe("".join(row.html for row in rows))  # each part escaped in row_html


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
        _list_context(context, versions)
        return live_headers(render(request, "duels/referee_home.html#running", context), etag)
    _list_context(context, versions)
    return render(request, "duels/referee_home.html", context)

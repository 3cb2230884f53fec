"""The battle's pages: the referee's tablet, starting a battle, adding a combatant, the player's
fragment and the spectator page. Thin: a well-formed request becomes one service call; the
engine decides. Polling, ETags and errors are the duel pages' own (views_common).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from cards.arsenal import CARD_ORDER
from cards.models import PoolEntry, PreparedArsenal
from cards.words import OUTCOME_LABELS
from duels import services
from duels.battle.forms import SIDES, BattleActForm, GrowForm, JoinBattleForm, RoundBreakArsenalForm, StartBattleForm
from duels.battle.log import describe_battle
from duels.battle.presenters import present_battle
from duels.battle.start import (
    add_combatant,
    build_between_rounds,
    grow_into_battle,
    start_battle,
    take_prepared_between_rounds,
)
from duels.models import Situation
from duels.web.access import situation_for_staff
from duels.web.alerts import Alert, conflict, form_problem, refusal
from duels.web.forms import UndoForm
from duels.web.live import new_nonce, not_modified, render_live, situation_etag
from duels.web.viewers import REFEREE, SPECTATOR, Viewer
from events.access import event_for_referee
from events.models import Character
from helpers.requests import HtmxRequest
from rules import RuleError

REFEREE_VIEW = Viewer(REFEREE)
SPECTATOR_VIEW = Viewer(SPECTATOR)
LOG_LINES = 12


class NotABattlePage(Exception):
    """A duel's id on a battle URL: the caller sends the referee to the duel's own page."""


def _battle_for_staff(user: Any, situation_id: int) -> Situation:
    situation = situation_for_staff(user, situation_id)
    if situation.kind != Situation.Kind.BATTLE:
        raise NotABattlePage(situation.pk)
    return situation


def _or_duel_page(view: Callable[[HtmxRequest, int], HttpResponse]) -> Callable[[HtmxRequest, int], HttpResponse]:
    """A battle URL with a duel's id redirects to the duel's page and changes nothing."""

    @wraps(view)
    def wrapped(request: HtmxRequest, situation_id: int) -> HttpResponse:
        try:
            return view(request, situation_id)
        except NotABattlePage:
            return redirect("duels:situation", situation_id)

    return wrapped


def referee_context(situation: Situation, alert: Alert | None = None) -> dict[str, Any]:
    # Bounded queries: the cached state, the last LOG_LINES log rows, and the join choices.
    state = services.state_of(situation)
    view = present_battle(state, REFEREE_VIEW)
    entries = situation.log.select_related("actor").order_by("-seq")[:LOG_LINES]
    return {
        "situation": situation,
        "event": situation.event,
        "view": view,
        "version": situation.version,
        "log_lines": describe_battle(entries, state),
        "alert": alert,
        "act_url": reverse("duels:battle-act", args=[situation.pk]),
        "undo_url": reverse("duels:battle-undo", args=[situation.pk]),
        "join_url": reverse("duels:battle-join", args=[situation.pk]),
        "arsenal_url": reverse("duels:battle-arsenal", args=[situation.pk]),
        "help_anchor": "battle",
        "outcomes": list(OUTCOME_LABELS.items()),
        "sides": SIDES,
    }


def _render(request: HtmxRequest, situation: Situation, alert: Alert | None = None, status: int = 200) -> HttpResponse:
    etag = situation_etag(situation, REFEREE_VIEW, "battle")
    template = "duels/battle/tablet.html#live" if request.htmx else "duels/battle/tablet.html"
    context = referee_context(situation, alert)
    context["joinable"] = _joinable(situation)
    context["round_break"] = _round_break(situation, context["view"])
    return render_live(request, template, context, etag, status=status)


def _round_break(situation: Situation, view: Any) -> list[RoundBreakChoice]:
    """D3: each fighter's prepared arsenals, pool and limit, only at a round break (three queries)."""
    if view.phase != "between_rounds":
        return []
    fighters = [c for c in view.combatants if c.can_fight]
    ids = [c.id for c in fighters]
    prepared: dict[int, list[PreparedArsenal]] = {}
    for arsenal in PreparedArsenal.objects.filter(character_id__in=ids).order_by("name"):
        prepared.setdefault(arsenal.character_id, []).append(arsenal)
    pools: dict[int, list[PoolEntry]] = {}
    for entry in PoolEntry.objects.filter(character_id__in=ids).select_related("card").order_by(*CARD_ORDER):
        pools.setdefault(entry.character_id, []).append(entry)
    people = Character.objects.filter(pk__in=ids, event_id=situation.event_id)
    limits = {c.pk: c.effective_arsenal_limit for c in people}
    return [RoundBreakChoice(c, prepared.get(c.id, []), pools.get(c.id, []), limits.get(c.id)) for c in fighters]


@dataclass(frozen=True)
class RoundBreakChoice:
    """What the tablet offers one fighter at a round break (D3)."""

    fighter: Any
    prepared: list[PreparedArsenal]
    pool: list[PoolEntry]
    limit: int | None


def _joinable(situation: Situation) -> list[Character]:
    """Accepted characters of the event who are in no running fight (one query)."""
    busy = Situation.objects.filter(event_id=situation.event_id, ended=False).values("participants")
    return list(
        Character.objects.filter(event_id=situation.event_id, status=Character.Status.ACCEPTED)
        .exclude(pk__in=busy)
        .order_by("name")
    )


@login_required
@require_GET
@_or_duel_page
def battle_page(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = services.refresh(_battle_for_staff(request.user, situation_id))
    if request.htmx:
        unchanged = not_modified(request, situation_etag(situation, REFEREE_VIEW, "battle"))
        if unchanged is not None:
            return unchanged
    return _render(request, situation)


def _after(request: HtmxRequest, situation: Situation, call: Any, form: Any) -> HttpResponse:
    if not form.is_valid():
        return _render(request, _fresh(situation), form_problem(form), 400)
    try:
        call(form.cleaned_data)
    except services.StaleVersion:
        return _render(request, _fresh(situation), conflict(), 409)
    except (RuleError, services.ServiceError) as err:
        return _render(request, _fresh(situation), refusal(err), 422)
    if request.htmx:
        return _render(request, _fresh(situation))
    return redirect("duels:battle", situation.pk)


def _fresh(situation: Situation) -> Situation:
    return services.refresh(Situation.objects.select_related("event").get(pk=situation.pk))


@login_required
@require_POST
@_or_duel_page
def battle_act(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = _battle_for_staff(request.user, situation_id)
    form = BattleActForm(request.POST)
    return _after(
        request,
        situation,
        lambda d: services.perform(
            situation.pk, form.command(), user=request.user, seen_version=d["version"], nonce=d["nonce"]
        ),
        form,
    )


@login_required
@require_POST
@_or_duel_page
def battle_undo(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = _battle_for_staff(request.user, situation_id)
    return _after(
        request,
        situation,
        lambda d: services.undo_last(
            situation.pk, user=request.user, reason=d["reason"], seen_version=d["version"], nonce=d["nonce"]
        ),
        UndoForm(request.POST),
    )


@login_required
@require_POST
@_or_duel_page
def battle_join(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = _battle_for_staff(request.user, situation_id)
    form = JoinBattleForm(request.POST, event_id=situation.event_id)
    return _after(
        request,
        situation,
        lambda d: add_combatant(
            situation,
            d["character"],
            side=d.get("side") or None,
            user=request.user,
            seen_version=d["version"],
            nonce=d["nonce"],
        ),
        form,
    )


@login_required
@require_POST
@_or_duel_page
def battle_arsenal(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = _battle_for_staff(request.user, situation_id)
    form = RoundBreakArsenalForm(request.POST, event_id=situation.event_id)

    def take(d: dict[str, Any]) -> Any:
        if d["character"] is not None:
            return build_between_rounds(
                situation, d["character"], d["card_ids"], user=request.user, seen_version=d["version"], nonce=d["nonce"]
            )
        prepared = (
            PreparedArsenal.objects.filter(pk=d["prepared"], character__event_id=situation.event_id)
            .select_related("character")
            .first()
        )
        if prepared is None:
            raise services.NotInEvent(name="#" + str(d["prepared"]))
        return take_prepared_between_rounds(
            situation, prepared.character, prepared, user=request.user, seen_version=d["version"], nonce=d["nonce"]
        )

    return _after(request, situation, take, form)


@login_required
def grow(request: HtmxRequest, situation_id: int) -> HttpResponse:
    """A running duel becomes a battle when a third Other joins (issue 11)."""
    situation = services.refresh(situation_for_staff(request.user, situation_id))
    if situation.kind != Situation.Kind.DUEL:
        return redirect("duels:battle", situation.pk)
    event = situation.event
    fighters = list(situation.participants.order_by("name"))
    form = GrowForm(request.POST or None, event_id=event.pk)
    context: dict[str, Any] = {
        "situation": situation,
        "event": event,
        "fighters": fighters,
        "joinable": _joinable(situation),
        "sides": SIDES,
        "version": situation.version,
        "new_nonce": new_nonce,
    }
    if situation.ended or not event.battles_on:
        context["alert"] = Alert("warning", gettext("Only a running duel of an event with battles can grow into one."))
        return render(request, "duels/battle/grow.html", context, status=409 if request.method == "POST" else 200)
    if request.method != "POST":
        return render(request, "duels/battle/grow.html", context)
    if not form.is_valid():
        context["alert"] = form_problem(form)
        return render(request, "duels/battle/grow.html", context, status=400)
    d = form.cleaned_data
    declarer = (
        d["character"] if d["declarer"] == "third" else next((f for f in fighters if str(f.pk) == d["declarer"]), None)
    )
    if declarer is None:
        context["alert"] = Alert("danger", gettext("The request was incomplete."))
        return render(request, "duels/battle/grow.html", context, status=400)
    try:
        performed = grow_into_battle(
            situation,
            d["character"],
            declarer=declarer,
            side=d.get("side") or None,
            user=request.user,
            seen_version=d["version"],
            nonce=d["nonce"],
        )
    except services.StaleVersion:
        context["alert"] = conflict()
        return render(request, "duels/battle/grow.html", context, status=409)
    except (RuleError, services.ServiceError) as err:
        context["alert"] = refusal(err)
        return render(request, "duels/battle/grow.html", context, status=422)
    return redirect("duels:battle", performed.situation.pk)


@login_required
def battle_start(request: HtmxRequest, event_id: int) -> HttpResponse:
    event = event_for_referee(request.user, event_id)
    form = StartBattleForm(request.POST or None, event_id=event.pk, initial={"nonce": new_nonce()})
    posted = request.POST
    rows = [
        (
            c,
            str(c.pk) in posted.getlist("combatants"),
            posted.get(f"side_{c.pk}") or c.side,
            posted.get("declarer") == str(c.pk),
        )
        for c in form.people
    ]
    context: dict[str, Any] = {"event": event, "form": form, "new_nonce": new_nonce, "rows": rows, "sides": SIDES}
    if not event.battles_on:
        context["alert"] = Alert("warning", gettext("Battles are switched off for this event."))
        return render(request, "duels/battle/start.html", context, status=403 if request.method == "POST" else 200)
    if request.method != "POST":
        return render(request, "duels/battle/start.html", context)
    if not form.is_valid():
        context["alert"] = form_problem(form)
        return render(request, "duels/battle/start.html", context, status=400)
    d = form.cleaned_data
    try:
        performed = start_battle(
            event,
            list(d["combatants"]),
            declarer=d["declarer"],
            sides=d["sides"],
            max_rounds=d["max_rounds"],
            user=request.user,
            nonce=d["nonce"],
        )
    except (RuleError, services.ServiceError) as err:
        context["alert"] = refusal(err)
        return render(request, "duels/battle/start.html", context, status=422)
    return redirect("duels:battle", performed.situation.pk)


# --- players and spectators (dispatched here from views_live for battle situations) --------------

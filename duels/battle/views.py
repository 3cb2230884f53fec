"""The battle's pages: its tablet's context and actions, starting a battle, a duel growing into one,
and its part of every shared page (``BattlePages``).

Thin: a well-formed request becomes one service call through the one submit
path (duels/web/submit.py); the engine decides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.translation import gettext, pgettext
from django.views.decorators.http import require_POST

from cards.arsenal import CARD_ORDER
from cards.models import PoolEntry, PreparedArsenal
from cards.words import OUTCOME_LABELS
from duels import services
from duels.battle import live, start_page
from duels.battle.forms import SIDES, BattleActForm, GrowForm, JoinBattleForm, RoundBreakArsenalForm, StartBattleForm
from duels.battle.kind import KIND
from duels.battle.log import describe_battle
from duels.battle.presenters import present_battle
from duels.battle.start import (
    add_combatant,
    build_between_rounds,
    grow_into_battle,
    start_battle,
    take_prepared_between_rounds,
)
from duels.models import LogEntry, Situation
from duels.web.access import situation_for_staff
from duels.web.alerts import Alert, conflict, form_problem, refusal
from duels.web.live import new_nonce
from duels.web.log import LogLine
from duels.web.notes import Note, clock_says, gap_ended
from duels.web.oob import Part
from duels.web.pages import FightSummary, Person, Wing, refuse_other_kinds
from duels.web.submit import act_on, submit
from duels.web.viewers import REFEREE_VIEW, SPECTATOR_VIEW
from events.access import event_for_referee
from events.models import Character
from helpers.requests import HtmxRequest
from rules import RuleError
from rules import battle as B

# The battle's tablet shows fewer log lines: its reaction bar takes the room.
LOG_LINES = live.LOG_LINES  # 12


class BattlePages(Wing):
    """The battle's answers to the shared pages (duels/web/pages.py)."""

    def tablet_context(
        self,
        situation: Situation,
        state: B.Battle,
        recent: Iterable[LogEntry] | None,
        alert: Alert | None,
        *,
        added: Sequence[LogEntry] | None = None,
    ) -> dict[str, Any]:
        # The tablet shows no answered-window records (the spectators' page and the record page do).
        view = present_battle(state, REFEREE_VIEW, records=0)
        # S2: the kind says whether the situation is over (``closed``); ``view.ended`` is the battle's end (BP5).
        over = KIND.is_ended(state)
        return {
            "view": view,
            # A step's answer: only its own new lines (duels/web/oob.py ``log_part``).
            "log_lines": describe_battle(list(recent or [] if added is None else added)[:LOG_LINES], state),
            **_urls(get_script_prefix(), get_urlconf(), situation.pk),
            "help_anchor": "battle",
            "outcomes": list(OUTCOME_LABELS.items()),
            "sides": SIDES,
            # Read only when the join form is rendered (a whole page, a bout's end): a step skips it.
            "joinable": partial(_joinable, situation),
            "round_break": _round_break(situation, view),
            "situation_over": over,
            "ended_note": gap_ended(state.settings.gap_s) if over else None,
            # The live root's id and its data attributes, for the regions a step sends alone (live.py).
            "live_id": "battle",
            "live_marks": [("phase", view.phase)],
        }

    def tablet_parts(self, context: Mapping[str, Any], events: Sequence[Any]) -> list[Part] | None:
        return live.tablet_parts(context, events)

    def clock_note(self, state: B.Battle, command: Any, err: Exception | None) -> Note | None:
        """S2 for any tap on a battle the gap closed; D8 for a target's answer its window's clock overtook.

        Only the gap closes a battle's situation (``KIND.is_ended``), also one whose battle was over before it."""
        gap_ended_it = KIND.is_ended(state)
        overtaken = isinstance(command, B.AnswerAttack) and B.answer_overtaken(state, command.frame, command.defender)
        window_s = state.settings.answer_window_s
        return clock_says(
            err, gap_s=state.settings.gap_s, window_s=window_s, gap_ended_it=gap_ended_it, overtaken=overtaken
        )

    def watch_context(self, situation: Situation, state: B.Battle) -> dict[str, Any]:
        return live.watch_context(state)

    def player_context(self, character_id: int, situation: Situation, state: B.Battle) -> dict[str, Any]:
        return live.player_context(character_id, state)

    def summary(self, situation: Situation, state: B.Battle) -> FightSummary:
        view = present_battle(state, SPECTATOR_VIEW, reactions=False, records=0)
        people = tuple(
            Person(c.name, f"{c.side_label}, {c.condition_label}", out=not c.can_fight) for c in view.combatants
        )
        if view.ended:
            line = gettext("ended: %(result)s") % {"result": view.result_label}
        elif view.turn_of is not None:
            line = gettext("Round %(round)s, %(name)s's turn") % {"round": view.round, "name": view.turn_of.name}
        else:
            line = pgettext("battle", "Round %(round)s") % {"round": view.round}
        return FightSummary(
            kind_label=gettext("battle"),
            title=gettext("Battle %(number)s") % {"number": situation.pk},
            people=people,
            lines=(line,),
            result=view.result_label if view.ended else "",
            extra={"winner": view.winner_label},
        )

    def log_lines(
        self, situation: Situation, state: B.Battle, entries: Iterable[LogEntry], *, whole: bool
    ) -> list[LogLine]:
        return describe_battle(entries, state)

    def record_context(self, situation: Situation, state: B.Battle, page: str | None) -> dict[str, Any]:
        return live.record_context(state, page)


PAGES = BattlePages(
    KIND.key,
    "battle",
    "duels:battle",
    own_urls=("duels:battle", "duels:battle-act", "duels:battle-undo", "duels:battle-join", "duels:battle-arsenal"),
)


@lru_cache(maxsize=2048)
def _urls(prefix: str, urlconf: Any, pk: int) -> dict[str, str]:
    """The tablet's three form URLs: three reverse() a step (~1 %), the same for a fight's whole life.

    Kept by script prefix and URLconf as Django keeps its resolvers (a changed setting clears both);
    callers copy the dict into their context."""
    return {
        "act_url": reverse("duels:battle-act", args=[pk]),
        "join_url": reverse("duels:battle-join", args=[pk]),
        "arsenal_url": reverse("duels:battle-arsenal", args=[pk]),
    }


@receiver(setting_changed)
def _forget_urls(**kwargs: Any) -> None:
    _urls.cache_clear()


@login_required
@require_POST
def battle_act(request: HtmxRequest, situation_id: int) -> HttpResponse:
    return act_on(request, situation_id, lambda situation: BattleActForm(request.POST))


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
    """Accepted characters of the event who are in no running fight (one query), by side, checked in first.

    The tablet groups them by side (``regroup``) and filters them as the referee types (issue 20).
    """
    busy = Situation.objects.filter(event_id=situation.event_id, ended=False).values("participants")
    return list(
        Character.objects.filter(event_id=situation.event_id, status=Character.Status.ACCEPTED)
        .exclude(pk__in=busy)
        .order_by("side", "-arrived", "name")
    )


@login_required
@require_POST
def battle_join(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = situation_for_staff(request.user, situation_id)
    refuse_other_kinds(request, situation)
    form = JoinBattleForm(request.POST, event_id=situation.event_id)
    return submit(
        request,
        situation,
        form,
        lambda d: add_combatant(
            situation,
            d["character"],
            side=d.get("side") or None,
            strike=bool(d.get("strike")),
            user=request.user,
            seen_version=d["version"],
            nonce=d["nonce"],
        ),
    )


@login_required
@require_POST
def battle_arsenal(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = situation_for_staff(request.user, situation_id)
    refuse_other_kinds(request, situation)
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

    return submit(request, situation, form, take)


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
    data = request.POST if request.method == "POST" else request.GET
    redraw = start_page.intent_of(request.POST) != start_page.START
    context: dict[str, Any] = {
        "event": event,
        "form": form,
        # Adding or taking out keeps the attempt's nonce: the battle it starts is started once.
        "new_nonce": request.POST.get("nonce")
        if start_page.intent_of(request.POST) != start_page.START
        else new_nonce(),
        "sides": SIDES,
        **start_page.context(event, data),
    }
    if not event.battles_on:
        context["alert"] = Alert("warning", gettext("Battles are switched off for this event."))
        return render(request, "duels/battle/start.html", context, status=403 if request.method == "POST" else 200)
    if request.method != "POST" or redraw:
        # Adding or taking out a combatant redraws the page: no battle yet.
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

"""The referee's home for an event (running fights, find a character) and starting a fight (S1)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import get_language, gettext

import rules
from duels import services
from duels.battle.presenters import present_battle
from duels.duel.forms import ChooseFightersForm, SearchForm, StartForm
from duels.duel.presenters import card_ids, card_names, present
from duels.duel.start import declare_aggression, start_instant_attack
from duels.models import LogEntry, Situation
from duels.web.alerts import Alert, form_problem, refusal
from duels.web.live import live_headers, new_nonce, not_modified, quoted_hash
from duels.web.viewers import REFEREE, CardView, Viewer, arsenal_hand
from events.access import event_for_referee
from events.models import Character, Event
from events.search import name_matches
from helpers.requests import HtmxRequest
from rules import duel as engine

SEARCH_LIMIT = 20
RUNNING_TTL = 600
REFEREE_VIEW = Viewer(REFEREE)


@dataclass(frozen=True)
class RunningFighter:
    name: str
    can_fight: bool
    condition_label: str


@dataclass(frozen=True)
class RunningDuel:
    round: int
    phase_label: str
    attacker_name: str


@dataclass(frozen=True)
class RunningRow:
    """One line of the running-fights list: small, so it is cached per situation, version and language."""

    pk: int
    fighters: tuple[RunningFighter, ...]
    open_duels: tuple[RunningDuel, ...]
    battle: Any = None  # a battle's own summary (BattleView); such rows are not cached


def _running_versions(event: Event) -> list[tuple[int, int, Any]]:
    """(id, version, deadline) of the unfinished situations, each brought up to date first (S2).

    Reads three columns per fight; only an overdue fight is refreshed (which
    may end it and drop it from the list).
    """
    rows = list(
        Situation.objects.filter(event=event, ended=False)
        .exclude(kind=Situation.Kind.MASS_BATTLE)  # listed on the mass-battle page
        .order_by("-pk")
        .values_list("pk", "version", "next_deadline")
    )
    now = timezone.now()
    if not any(deadline is not None and deadline < now for _pk, _v, deadline in rows):
        return rows
    for pk, _version, deadline in rows:
        if deadline is not None and deadline < now:
            services.refresh_by_id(pk, now=now)
    return list(
        Situation.objects.filter(event=event, ended=False)
        .exclude(kind=Situation.Kind.MASS_BATTLE)  # listed on the mass-battle page
        .order_by("-pk")
        .values_list("pk", "version", "next_deadline")
    )


def _row(situation: Situation) -> RunningRow:
    state = services.state_of(situation)
    if situation.kind == Situation.Kind.BATTLE:
        battle = present_battle(state, REFEREE_VIEW, reactions=False, records=0)
        return RunningRow(pk=situation.pk, fighters=(), open_duels=(), battle=battle)
    view = present(state, REFEREE_VIEW)
    return RunningRow(
        pk=situation.pk,
        fighters=tuple(RunningFighter(f.name, f.can_fight, f.condition_label) for f in view.fighters),
        open_duels=tuple(RunningDuel(d.round, d.phase_label, d.attacker.name) for d in view.open_duels),
    )


def _running(versions: list[tuple[int, int, Any]]) -> list[RunningRow]:
    """The rows, from the cache where the same version was shown before; only changed fights are read."""
    language = get_language()
    keys = {pk: f"sumrak:running-row:{pk}:{version}:{language}" for pk, version, _deadline in versions}
    found = cache.get_many(list(keys.values()))
    missing = [pk for pk, key in keys.items() if key not in found]
    if missing:
        fresh = {s.pk: _row(s) for s in Situation.objects.filter(pk__in=missing).only("id", "kind", "state")}
        cache.set_many({keys[pk]: row for pk, row in fresh.items() if row.battle is None}, RUNNING_TTL)
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


@dataclass
class StartingFighter:
    """One of the two characters as the start page shows them to the referee."""

    character: Character
    situation: Situation | None = None
    hand: list[CardView] = field(default_factory=list)
    focus: CardView | None = None

    @property
    def attack_choices(self) -> list[tuple[int, str]]:
        seen: dict[int, str] = {}
        for card in self.hand:
            if card.is_attack:
                seen.setdefault(card.card_id, card.name)
        return list(seen.items())


def _starting_fighter(character: Character) -> StartingFighter:
    """The hand the fight will use: the running situation's, or the character's current arsenal."""
    situation = services.active_situation_for(character)
    fighter = StartingFighter(character=character, situation=situation)
    if situation is not None and situation.kind == Situation.Kind.DUEL:
        state = services.state_of(situation)
        if character.pk in state.fighters:
            view = present(state, REFEREE_VIEW, card_names(card_ids(state))).by_id[character.pk]
            fighter.hand, fighter.focus = view.hand or [], view.focus
            return fighter
    fighter.hand = arsenal_hand(character)
    fighter.focus = next((card for card in fighter.hand if card.focused), None)
    return fighter


def _start(event: Event, attacker: Character, target: Character, form: StartForm, user: Any) -> Any:
    d = form.cleaned_data
    if d["kind"] == "instant":
        return start_instant_attack(
            event,
            attacker,
            target,
            d["card"],
            out_of_sight=d["out_of_sight"],
            within_reach=d["within_reach"],
            max_rounds=d["max_rounds"],
            parry=d["parry"],
            focus_held=d["focus_held"],
            user=user,
            nonce=d["nonce"],
        )
    return declare_aggression(
        event, attacker, target, d["card"], max_rounds=d["max_rounds"], user=user, nonce=d["nonce"]
    )


def _recent_fighters(event: Event, user: Any) -> list[int]:
    """The characters of this referee's latest fights in the event, latest first."""
    seen: list[int] = []
    rows = (
        LogEntry.objects.filter(situation__event=event, actor=user, kind=LogEntry.Kind.COMMAND)
        .order_by("-pk")
        .values_list("situation_id", flat=True)[:50]
    )
    situations = list(dict.fromkeys(rows))[:4]
    links = Situation.participants.through.objects.filter(situation_id__in=situations)
    order = {sid: i for i, sid in enumerate(situations)}
    for link in sorted(links, key=lambda row: (order[row.situation_id], row.pk)):
        if link.character_id not in seen:
            seen.append(link.character_id)
    return seen


def _already_running(attacker: Character, target: Character) -> Situation | None:
    """A start form sent again after its fight began (the Back button): the fight it started."""
    situation = services.active_situation_for(attacker)
    if situation is None:
        return None
    pair = {attacker.pk, target.pk}
    running = any(d.phase != engine.ENDED and {d.a, d.b} == pair for d in services.state_of(situation).duels)
    return situation if running else None


@login_required
def start(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_referee(request.user, event_id)
    params = request.POST if request.method == "POST" else request.GET
    a, b = params.get("a") or params.get("with"), params.get("b")
    choose = ChooseFightersForm(
        {"a": a, "b": b} if a and b else None,
        event_id=event.pk,
        initial={"a": a},
        recent=_recent_fighters(event, request.user),
    )
    context: dict[str, Any] = {"event": event, "choose": choose, "new_nonce": new_nonce}
    if not (a and b and choose.is_valid()):
        return render(request, "duels/duel/start.html", context, status=400 if request.method == "POST" else 200)
    attacker, target = choose.cleaned_data["a"], choose.cleaned_data["b"]
    fighters = (_starting_fighter(attacker), _starting_fighter(target))
    cards = fighters[0].attack_choices
    posted = request.POST.get("kind") if request.method == "POST" else None
    forms = {
        kind: StartForm(request.POST if posted == kind else None, cards=cards, auto_id=f"id_{kind}_%s")
        for kind in ("aggression", "instant")
    }
    status = 200
    if posted in forms:
        form = forms[posted]
        alert: Alert | None = None
        if form.is_valid():
            try:
                performed = _start(event, attacker, target, form, request.user)
            except (rules.RuleError, services.ServiceError) as err:
                alert, status = refusal(err), 422
            else:
                return redirect("duels:situation", performed.situation.pk)
        elif posted == "instant" and {"out_of_sight", "within_reach", "card"} & form.errors.keys():
            # The IA checklist's errors stand at their questions; the top only points there.
            alert, status = Alert("danger", gettext("Some answers are missing: see the marked questions.")), 400
        else:
            alert, status = form_problem(form), 400
        running = _already_running(attacker, target)
        if running is not None:
            # A form sent again after its fight began (the Back button): not the
            # referee's error, the page was older than the fight. Say so and link it.
            context["running_fight"] = running
            alert, status = (
                Alert("warning", gettext("This fight has already started; the form you sent was out of date.")),
                409,
            )
            forms[posted] = StartForm(None, cards=cards, auto_id=f"id_{posted}_%s")
        context["alert"] = alert
    context.update(
        attacker=fighters[0],
        target=fighters[1],
        aggression_form=forms["aggression"],
        instant_form=forms["instant"],
        posted=posted,
    )
    return render(request, "duels/duel/start.html", context, status=status)

"""The duel's pages: its tablet's context and actions, its part of every shared page (``DuelPages``).

Views build a command from a well-formed request and hand it to the services
through the one submit path (duels/web/submit.py): the engine decides, a
refusal changes nothing and comes back as a message over the fresh state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

import rules
from cards.models import PoolEntry, PreparedArsenal
from cards.words import OUTCOME_LABELS
from duels import services
from duels.duel import live, notes
from duels.duel.draws import related_undone
from duels.duel.forms import ACTION_FORMS, ChooseFightersForm, StartForm
from duels.duel.kind import KIND
from duels.duel.log import describe
from duels.duel.presenters import ChoiceView, SituationView, card_ids, card_names, present
from duels.duel.record import fight_record
from duels.duel.start import declare_aggression, start_instant_attack
from duels.models import LogEntry, Situation
from duels.services.kinds import kind_of
from duels.services.opening import fight_over
from duels.services.rows import undone_of
from duels.web.alerts import Alert, form_problem, refusal
from duels.web.live import new_nonce
from duels.web.log import LogLine
from duels.web.notes import Note
from duels.web.oob import Part
from duels.web.pages import FightSummary, Person, Wing
from duels.web.submit import act_on
from duels.web.viewers import REFEREE_VIEW, SPECTATOR_VIEW, CardView, arsenal_hand, catalogue_hand
from events.access import event_for_referee
from events.models import Character, Event
from helpers.requests import HtmxRequest
from rules import duel as engine


def _round_options(view: SituationView, event_id: int) -> None:
    """Prepared arsenals and pools for the D3 choice, only while some duel is between rounds."""
    choices = [c for d in view.duels for c in d.choices]
    if not choices:
        return
    ids = {c.fighter.id for c in choices}
    prepared: dict[int, list[PreparedArsenal]] = {}
    for arsenal in PreparedArsenal.objects.filter(character_id__in=ids, character__event_id=event_id):
        prepared.setdefault(arsenal.character_id, []).append(arsenal)
    pools: dict[int, list[PoolEntry]] = {}
    for entry in (
        PoolEntry.objects.filter(character_id__in=ids).select_related("card").order_by("card__kind", "card_id")
    ):
        pools.setdefault(entry.character_id, []).append(entry)
    limits = {c.pk: c.effective_arsenal_limit for c in Character.objects.filter(pk__in=ids, event_id=event_id)}
    for choice in choices:
        choice.prepared = prepared.get(choice.fighter.id, [])
        choice.pool = pools.get(choice.fighter.id, [])
        choice.limit = limits.get(choice.fighter.id)
        choice.picked = _picked(choice)


def _picked(choice: ChoiceView) -> str | int:
    """The arsenal radio that matches the saved choice, so the form never contradicts its badge."""
    if not (choice.chosen and choice.go_on and choice.new_arsenal):
        return "keep"
    named = [p.pk for p in choice.prepared if p.name == choice.label]
    return named[0] if choice.label and named else "new"


class DuelPages(Wing):
    """The duel's answers to the shared pages (duels/web/pages.py)."""

    def tablet_context(
        self,
        situation: Situation,
        state: engine.Situation,
        recent: Iterable[LogEntry] | None,
        alert: Alert | None,
        *,
        added: Sequence[LogEntry] | None = None,
    ) -> dict[str, Any]:
        names = card_names(card_ids(state))
        view = present(state, REFEREE_VIEW, names)
        _round_options(view, situation.event_id)
        entries = recent if isinstance(recent, Sequence) else list(recent or [])
        if added is None:
            lines = describe(entries, state, names)
        else:
            # A step's new lines only; an instant attack among them that repeats an undone one
            # (IA3) is told as the full page tells it, from the undone ones among these entries
            # (only they are built: services.rows.Entries).
            new = {e.seq for e in added}
            lines = describe(added, state, names, [e for e in undone_of(entries) if e.seq not in new])
        return {
            "view": view,
            # The full log page also links a repeated instant attack to an undone one
            # outside these lines; the fight page keeps its fixed number of queries.
            "log_lines": lines,
            "notes": notes.conversions(entries, view),
            "ended_note": notes.ended_note(state),
            "outcomes": list(OUTCOME_LABELS.items()),
            "act_url": reverse("duels:act", args=[situation.pk]),
        }

    def clock_note(self, state: engine.Situation, command: Any, err: Exception | None) -> Note | None:
        return notes.clock_note(state, command, err)

    def tablet_parts(self, context: Mapping[str, Any], events: Sequence[Any]) -> list[Part] | None:
        return live.tablet_parts(context, events)

    def watch_context(self, situation: Situation, state: engine.Situation) -> dict[str, Any]:
        return live.watch_context(state)

    def player_context(self, character_id: int, situation: Situation, state: engine.Situation) -> dict[str, Any]:
        return live.player_context(character_id, state)

    def summary(self, situation: Situation, state: engine.Situation) -> FightSummary:
        view = present(state, SPECTATOR_VIEW)
        people = tuple(Person(f.name, f.condition_label, out=not f.can_fight) for f in view.fighters)
        lines = tuple(_duel_line(d) for d in view.duels)
        running = [d for d in view.duels if d.is_open]
        return FightSummary(
            kind_label=gettext("duel"),
            title=gettext("Combat situation %(number)s") % {"number": situation.pk},
            people=people,
            lines=lines or (gettext("no duel"),),
            result="" if running or not view.duels else view.duels[-1].result_label,
        )

    def log_lines(
        self, situation: Situation, state: engine.Situation, entries: Iterable[LogEntry], *, whole: bool
    ) -> list[LogLine]:
        earlier = related_undone(situation) if whole else ()
        return describe(entries, state, card_names(card_ids(state)), earlier)

    def record_context(self, situation: Situation, state: engine.Situation, page: str | None) -> dict[str, Any]:
        return {"record": fight_record(state, card_names(card_ids(state)), page)}


def _duel_line(duel: Any) -> str:
    """One duel in a list: who against whom, and its bout and phase, or its result."""
    if not duel.is_open:
        return gettext("%(a)s — %(b)s: %(result)s") % {"a": duel.a.name, "b": duel.b.name, "result": duel.result_label}
    return gettext("%(a)s — %(b)s, bout %(round)s: %(phase)s (%(attacker)s attacks)") % {
        "a": duel.a.name,
        "b": duel.b.name,
        "round": duel.round,
        "phase": duel.phase_label,
        "attacker": duel.attacker.name,
    }


PAGES = DuelPages(KIND.key, "duel", "duels:situation", own_urls=("duels:situation", "duels:act"))


@login_required
@require_POST
def act(request: HtmxRequest, situation_id: int) -> HttpResponse:
    def form_for(situation: Situation) -> Any:
        form_class = ACTION_FORMS.get(request.POST.get("action", ""))
        return None if form_class is None else form_class(request.POST, event_id=situation.event_id)

    return act_on(request, situation_id, form_for)


@dataclass
class StartingFighter:
    """One of the two characters as the start page shows them to the referee."""

    character: Character
    situation: Situation | None = None
    hand: list[CardView] = field(default_factory=list)
    focus: CardView | None = None

    @property
    def draw_choices(self) -> list[tuple[int, str]]:
        """IA3 "draws from real cards": each catalogue card of the hand once, for the referee to tap the drawn one."""
        seen: dict[int, str] = {}
        for card in self.hand:
            seen.setdefault(card.card_id, card.name)
        return list(seen.items())

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
    elif situation is not None:
        # IA1: a combatant of another kind of fight (a battle) holds the hand that fight left them, not
        # their saved arsenal: what "draws from real cards" offers (IA3) and the focus (F1) come from it.
        held = kind_of(situation).results(services.state_of(situation)).get(character.pk)
        if held is not None:
            fighter.hand = catalogue_hand(held.hand, held.focus_card_id)
            fighter.focus = next((card for card in fighter.hand if card.focused), None)
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
            drawn_card_id=d["drawn_card_id"] if event.physical_draws else None,
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


def _joins_fight(victims: Situation | None, attackers: Situation | None) -> bool:
    """IA1: the victim fights others and the attacker does not; a battle over in its gap is not joined (S2)."""
    if victims is None or attackers is not None:
        return False
    return victims.kind == Situation.Kind.DUEL or not fight_over(victims, now=timezone.now())


def _already_running(attacker: Character, target: Character) -> Situation | None:
    """A start form sent again after its fight began (the Back button): the fight it started."""
    situation = services.active_situation_for(attacker)
    if situation is None:
        return None
    if situation.kind != Situation.Kind.DUEL:
        if fight_over(situation, now=timezone.now()):
            return None  # S2: a battle over within its gap; a new fight would take it on, none began
        # IA1: the strike joined them in a battle (grown from their duel or running): that fight.
        return situation if situation.participants.filter(pk=target.pk).exists() else None
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
        # IA1: the victim fights others and the attacker does not - the strike joins their fight.
        joins_fight=_joins_fight(fighters[1].situation, fighters[0].situation),
    )
    return render(request, "duels/duel/start.html", context, status=status)

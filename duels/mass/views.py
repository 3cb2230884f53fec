"""The mass battle's pages: starting one (M1), its tablet's context and actions (M4-M8), and its part
of every shared page (``MassPages``).

Thin views: a well-formed request becomes one engine command handed to the
services through the one submit path (duels/web/submit.py): 400 malformed,
409 stale, 422 refused, each over the fresh state.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

import rules.mass as magic
from cards import catalogue_version
from cards.models_mass import Army
from duels import services
from duels.mass import live
from duels.mass.forms import MASS_FORMS, CarryOutForm, MassActionForm, StartMassForm
from duels.mass.kind import KIND
from duels.mass.log import describe
from duels.mass.presenters import REFEREE, SPECTATOR, MassViewer, deck_beliefs, present, state_cards
from duels.mass.rolls import undone_roll
from duels.mass.start import start_mass_battle
from duels.models import LogEntry, Situation
from duels.web.access import situation_for_staff
from duels.web.alerts import Alert, form_problem, refusal
from duels.web.live import new_nonce
from duels.web.log import LogLine
from duels.web.notes import Note
from duels.web.oob import Part
from duels.web.pages import FightSummary, Person, Wing
from duels.web.submit import act_on
from events.access import event_for_referee
from helpers.requests import HtmxRequest

LOG_LINES = live.LOG_LINES  # 20
REFEREE_VIEW = MassViewer(REFEREE)
SPECTATOR_VIEW = MassViewer(SPECTATOR)


class MassPages(Wing):
    """The mass battle's answers to the shared pages (duels/web/pages.py)."""

    def tablet_context(
        self,
        situation: Situation,
        state: magic.MassBattle,
        recent: Iterable[LogEntry] | None,
        alert: Alert | None,
        *,
        added: Sequence[LogEntry] | None = None,
    ) -> dict[str, Any]:
        version = catalogue_version.current()  # once for the cards' and the warrior types' words
        names = state_cards(state, version)
        view = present(state, REFEREE_VIEW, names, version)
        return {
            "view": view,
            # A step's answer: only its own new lines (duels/web/oob.py ``log_part``); a repeated roll's
            # M4 line reads the undone rolls before it from the log, so it is the same either way.
            "log_lines": describe(list(recent or [] if added is None else added)[:LOG_LINES], state, names),
            # Casualties of the physical battle are recorded between magic phases.
            "casualties": magic.casualties_open(state),
            # M4: the dice an undone roll of this cycle had, kept if it is repeated.
            "undone_roll": (
                undone_roll(situation, *magic.next_roll(state))
                if not view.ended and view.stage == magic.INITIATIVE
                else None
            ),
            "act_url": reverse("duels:mass-act", args=[situation.pk]),
            "decks_url": reverse("duels:mass-decks", args=[situation.pk]),
            "commander_urls": [
                # Both sides always have an army (start.py): no need to load the opening for its ``armies``.
                (view.sides[key].name, reverse("duels:mass-commander", args=[situation.pk, key]))
                for key in view.sides
            ],
            # The live root's id and its data attributes, for the regions a step sends alone (live.py).
            "live_id": "mass",
            "live_marks": [("stage", view.stage), ("cycle", view.cycle)],
        }

    def tablet_parts(self, context: Mapping[str, Any], events: Sequence[Any]) -> list[Part] | None:
        return live.tablet_parts(context, events)

    def clock_note(self, state: magic.MassBattle, command: Any, err: Exception | None) -> Note | None:
        return None  # the magic phase keeps no clock (M1-M8): only a person moves it on

    def watch_context(self, situation: Situation, state: magic.MassBattle) -> dict[str, Any]:
        return {"view": present(state, SPECTATOR_VIEW)}

    def player_context(self, character_id: int, situation: Situation, state: magic.MassBattle) -> dict[str, Any]:
        # Never asked: no character takes part (a commander has the side's page, duels:mass-commander).
        return {}

    def summary(self, situation: Situation, state: magic.MassBattle) -> FightSummary:
        view = present(state, SPECTATOR_VIEW)
        # M4: ``view.winner`` is the winner of the cycle's initiative, who only chooses who starts; the magic phase
        # decides no winner of the battle, so an ended one names none and puts no side out.
        people = tuple(Person(side.name, side.commander) for side in view.sides.values())
        line = gettext("Cycle %(cycle)s: %(stage)s") % {"cycle": view.cycle, "stage": view.stage_label}
        result = ""
        if view.ended:
            result = gettext("The mass battle is over in cycle %(cycle)s.") % {"cycle": view.cycle}
        return FightSummary(
            kind_label=gettext("mass battle"),
            title=gettext("Mass battle %(number)s") % {"number": situation.pk},
            people=people,
            lines=(result or line,),
            result=result,
        )

    def log_lines(
        self, situation: Situation, state: magic.MassBattle, entries: Iterable[LogEntry], *, whole: bool
    ) -> list[LogLine]:
        return describe(entries, state, state_cards(state))

    def record_context(self, situation: Situation, state: magic.MassBattle, page: str | None) -> dict[str, Any]:
        return live.record_context(situation, state, page)


PAGES = MassPages(
    KIND.key,
    "mass",
    "duels:mass",
    own_urls=(
        "duels:mass",
        "duels:mass-act",
        "duels:mass-decks",
        "duels:mass-undo",
        "duels:mass-log",
        "duels:mass-watch",
    ),
)


@login_required
def start(request: HtmxRequest, event_id: int) -> HttpResponse:
    """Running mass battles of the event, and a new one between two armies."""
    event = event_for_referee(request.user, event_id)
    form = StartMassForm(request.POST or None, event_id=event.pk)
    context: dict[str, Any] = {"event": event, "form": form, "new_nonce": new_nonce}
    status = 200
    if request.method == "POST":
        if not form.is_valid():
            context["alert"] = form_problem(form)
            status = 400
        else:
            d = form.cleaned_data
            try:
                done = start_mass_battle(event, d["army_a"], d["army_b"], user=request.user, nonce=d["nonce"].hex)
            except (services.RuleError, services.ServiceError) as err:
                context["alert"] = refusal(err)
                status = 422
            else:
                return redirect("duels:mass", done.situation.pk)
    running = Situation.objects.filter(event=event, kind=KIND.key).order_by("ended", "-pk")[:20]
    context.update(running=running, armies=Army.objects.filter(event=event).order_by("name"))
    return render(request, "duels/mass/start.html", context, status=status)


@login_required
@require_GET
def deck_order(request: HtmxRequest, situation_id: int) -> HttpResponse:
    """M1, M7: each deck as the record has it, to print and check against the real decks (the referee's only)."""
    situation = situation_for_staff(request.user, situation_id, whole=True)
    if situation.kind != KIND.key:
        raise Http404
    state = services.state_of(situation)
    context = {"situation": situation, "event": situation.event, "view": present(state, REFEREE_VIEW)}
    return render(request, "duels/mass/decks.html", {**context, "decks": deck_beliefs(state)})


@login_required
@require_POST
def act(request: HtmxRequest, situation_id: int) -> HttpResponse:
    def form_for(situation: Situation) -> MassActionForm | None:
        form_class = MASS_FORMS.get(request.POST.get("action", ""))
        if form_class is CarryOutForm:
            return CarryOutForm(request.POST, warriors=list(services.state_of(situation).warriors))
        return None if form_class is None else form_class(request.POST)

    return act_on(request, situation_id, form_for)

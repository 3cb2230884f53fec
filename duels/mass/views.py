"""The referee's mass battle: starting one (M1) and the tablet that runs its magic phase (M4-M8).

Thin views: a well-formed request becomes one engine command handed to the
services; a refusal changes nothing and comes back as a message over the
fresh state (400 malformed, 409 stale, 422 refused), as on the duel's page.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

import rules.mass as magic
from cards.models_mass import Army
from duels import services
from duels.mass.forms import MASS_FORMS, CarryOutForm, MassActionForm, StartMassForm
from duels.mass.log import describe
from duels.mass.presenters import REFEREE, MassViewer, magic_cards, present
from duels.mass.start import start_mass_battle
from duels.models import Situation
from duels.web.access import situation_for_staff
from duels.web.alerts import Alert, conflict, form_problem, refusal
from duels.web.forms import UndoForm
from duels.web.live import new_nonce, not_modified, render_live, situation_etag
from events.access import event_for_referee
from helpers.requests import HtmxRequest

LOG_LINES = 30
LOG_PAGE = 100
REFEREE_VIEW = MassViewer(REFEREE)


def mass_for_staff(request: HtmxRequest, situation_id: int) -> Situation:
    situation = situation_for_staff(request.user, situation_id)
    if situation.kind != Situation.Kind.MASS_BATTLE:
        raise Http404
    return situation


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
    running = Situation.objects.filter(event=event, kind=Situation.Kind.MASS_BATTLE).order_by("ended", "-pk")[:20]
    context.update(running=running, armies=Army.objects.filter(event=event).order_by("name"))
    return render(request, "duels/mass/start.html", context, status=status)


def _context(situation: Situation, alert: Alert | None = None) -> dict[str, Any]:
    state = services.state_of(situation)
    view = present(state, REFEREE_VIEW)
    entries = situation.log.select_related("actor").order_by("-seq")[:LOG_LINES]
    names = magic_cards(face.card_id for face in state.cards.values())
    armies = situation.opening.get("armies") or {}
    return {
        "situation": situation,
        "event": situation.event,
        "view": view,
        "version": situation.version,
        "alert": alert,
        "log_lines": describe(entries, state, names),
        # Casualties of the physical battle are recorded between magic phases.
        "casualties": not view.ended and view.stage in (magic.OVER, magic.INITIATIVE),
        "act_url": reverse("duels:mass-act", args=[situation.pk]),
        "undo_url": reverse("duels:mass-undo", args=[situation.pk]),
        "commander_urls": [
            (view.sides[key].name, reverse("duels:mass-commander", args=[situation.pk, key])) for key in armies
        ],
    }


def _render(request: HtmxRequest, situation: Situation, alert: Alert | None = None, status: int = 200) -> HttpResponse:
    etag = situation_etag(situation, REFEREE_VIEW, "mass")  # type: ignore[arg-type]
    template = "duels/mass/tablet.html#live" if request.htmx else "duels/mass/tablet.html"
    return render_live(request, template, _context(situation, alert), etag, status=status)


@login_required
@require_GET
def battle(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = mass_for_staff(request, situation_id)
    if request.htmx and (unchanged := not_modified(request, situation_etag(situation, REFEREE_VIEW, "mass"))):  # type: ignore[arg-type]
        return unchanged
    return _render(request, situation)


def _fresh(situation: Situation) -> Situation:
    return Situation.objects.select_related("event").get(pk=situation.pk)


def _submit(request: HtmxRequest, situation: Situation, form: Any, call: Any) -> HttpResponse:
    if not form.is_valid():
        return _render(request, _fresh(situation), form_problem(form), 400)
    try:
        call(form.cleaned_data)
    except services.StaleVersion:
        return _render(request, _fresh(situation), conflict(), 409)
    except (services.RuleError, services.ServiceError) as err:
        return _render(request, _fresh(situation), refusal(err), 422)
    if request.htmx:
        return _render(request, _fresh(situation))
    return redirect("duels:mass", situation.pk)


@login_required
@require_POST
def act(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = mass_for_staff(request, situation_id)
    form_class = MASS_FORMS.get(request.POST.get("action", ""))
    if form_class is None:
        return _render(request, situation, Alert("danger", gettext("Unknown action.")), 400)
    form: MassActionForm
    if form_class is CarryOutForm:
        form = CarryOutForm(request.POST, warriors=list(services.state_of(situation).warriors))
    else:
        form = form_class(request.POST)
    return _submit(
        request,
        situation,
        form,
        lambda d: services.perform(
            situation.pk,
            form.command(),
            user=request.user,
            seen_version=d["version"],
            nonce=d["nonce"],
        ),
    )


@login_required
@require_POST
def undo(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = mass_for_staff(request, situation_id)
    return _submit(
        request,
        situation,
        UndoForm(request.POST),
        lambda d: services.undo_last(
            situation.pk, user=request.user, reason=d["reason"], seen_version=d["version"], nonce=d["nonce"]
        ),
    )


@login_required
@require_GET
def log_page(request: HtmxRequest, situation_id: int) -> HttpResponse:
    """The whole log, newest first, a page at a time (the tablet shows the latest lines only)."""
    situation = mass_for_staff(request, situation_id)
    state = services.state_of(situation)
    page = Paginator(situation.log.select_related("actor").order_by("-seq"), LOG_PAGE).get_page(request.GET.get("page"))
    names = magic_cards(face.card_id for face in state.cards.values())
    context = {
        "situation": situation,
        "event": situation.event,
        "page": page,
        "log_lines": describe(page.object_list, state, names),
    }
    return render(request, "duels/mass/log.html", context)

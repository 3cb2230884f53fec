"""A character's condition set and its records: the referee or an organizer adds or clears one, with a reason."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

import rules as engine
from duels.services.conditions import change_condition
from duels.services.errors import ServiceError
from duels.web.access import situation_for_staff
from duels.web.alerts import form_problem, refusal
from duels.web.forms import ActionForm, ConditionChangeForm
from duels.web.submit import submit
from events.access import event_for_referee
from events.models import Character, Condition
from helpers.requests import HtmxRequest
from rules.errors import gettext_noop

RECORDS_SHOWN = 50


@login_required
def character_condition(request: HttpRequest, character_id: int) -> HttpResponse:
    character = get_object_or_404(Character, pk=character_id)
    event = event_for_referee(request.user, character.event_id)  # referees and organizers; 404 otherwise
    form = ConditionChangeForm(request.POST if request.method == "POST" else None)
    alert, status = None, 200
    if form.is_bound:
        if form.is_valid():
            d = form.cleaned_data
            change = {d["change"]: d["condition"]}
            try:
                change_condition(character, **change, reason=d["reason"], user=request.user)
            except (engine.RuleError, ServiceError) as err:
                alert, status = refusal(err), 422
            else:
                return redirect("duels:condition", character.pk)
        else:
            alert, status = form_problem(form), 400
    character.refresh_from_db()
    context = {
        "event": event,
        "character": character,
        "conditions": [Condition(c).label for c in engine.parts(character.condition)],
        "can_fight": engine.can_fight(character.condition),
        "form": form,
        "alert": alert,
        "records": character.condition_records.select_related("actor")[:RECORDS_SHOWN],
    }
    return render(request, "duels/condition.html", context, status=status)


class FightConditionForm(ConditionChangeForm, ActionForm):
    """The same change from a fight's tablet: whose (a participant), with the tap's version and nonce."""

    character = forms.IntegerField(min_value=1)


@login_required
@require_POST
def fight_condition(request: HtmxRequest, situation_id: int) -> HttpResponse:
    """CR1, D11 from any kind's tablet (templates/duels/_condition_controls.html), through the one submit path.

    The same service as the character page: in the fight's log, out of the turn
    order when they can no longer fight, refused while their step is open (D9);
    a tap sent again after a lost connection is applied once (its nonce).
    """
    situation = situation_for_staff(request.user, situation_id)

    def call(d: dict[str, Any]) -> object:
        character = situation.participants.filter(pk=d["character"]).first()
        if character is None:
            raise ServiceError(gettext_noop("Only someone in this running fight can be chosen here."))
        change = {d["change"]: d["condition"]}
        return change_condition(
            character, **change, reason=d["reason"], user=request.user, nonce=d["nonce"], seen_version=d["version"]
        )

    return submit(request, situation, FightConditionForm(request.POST), call)

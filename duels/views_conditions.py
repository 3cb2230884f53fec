"""A character's condition set and its records: the referee or an organizer adds or clears one, with a reason."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

import rules as engine
from duels.services.conditions import change_condition
from duels.services.errors import ServiceError
from duels.web.alerts import form_problem, refusal
from duels.web.forms import ConditionChangeForm
from events.access import event_for_referee
from events.models import Character, Condition

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

"""TODO docstring."""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from django.views.decorators.http import require_GET

from duels import services
from duels.battle.presenters import present_battle
from duels.battle.views import (
    SPECTATOR_VIEW,
)
from duels.models import Situation
from duels.web.live import not_modified, render_live, situation_etag
from duels.web.viewers import PLAYER, Viewer
from events.models import Character
from helpers.requests import HtmxRequest


def player_battle_context(character: Character, situation: Situation) -> dict[str, Any]:
    view = present_battle(services.state_of(situation), Viewer(PLAYER, character.pk))
    me = view.by_id.get(character.pk)
    attacked = [w for f in view.frames for w in f.windows if w.defender.id == character.pk and not w.answered]
    return {"battle": view, "me": me, "hand": (me.hand if me else None) or [], "attacked": attacked}


@require_GET
def battle_watch(request: HtmxRequest, situation: Situation) -> HttpResponse:
    etag = situation_etag(situation, SPECTATOR_VIEW, "battle-watch")
    if request.htmx and (unchanged := not_modified(request, etag)) is not None:
        return unchanged
    view = present_battle(services.state_of(situation), SPECTATOR_VIEW, reactions=False)
    context = {"situation": situation, "event": situation.event, "battle": view}
    template = "duels/battle/watch.html#live" if request.htmx else "duels/battle/watch.html"
    return render_live(request, template, context, etag)

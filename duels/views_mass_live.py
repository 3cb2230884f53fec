"""The mass battle off the referee's tablet: a commander's phone and the public spectator page.

Both poll every 2 s with an ETag (304 when nothing changed). A commander sees
their own side's kept cards and never the other side's; a spectator sees no
kept card and no deck order (presenters_mass decides, the templates display).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from cards.models_mass import Army
from duels import services
from duels.models import Situation
from duels.presenters_mass import COMMANDER, SPECTATOR, MassViewer, present
from duels.views_common import not_modified, public_situation, render_live, situation_etag
from events.access import is_referee

SPECTATOR_VIEW = MassViewer(SPECTATOR)


@login_required
@require_GET
def commander(request: HttpRequest, situation_id: int, side: str) -> HttpResponse:
    """The commander of the army on ``side`` (or the event's staff, to hand the phone over)."""
    situation = public_situation(situation_id)
    army_id = (
        (situation.opening.get("armies") or {}).get(side) if situation.kind == Situation.Kind.MASS_BATTLE else None
    )
    if army_id is None:
        raise Http404
    army = Army.objects.filter(pk=army_id).first()
    mine = army is not None and army.commander_id == request.user.pk
    if not mine and not is_referee(request.user, situation.event):
        raise Http404
    viewer = MassViewer(COMMANDER, side)
    etag = situation_etag(situation, viewer, "mass-commander")  # type: ignore[arg-type]
    if request.htmx and (unchanged := not_modified(request, etag)) is not None:
        return unchanged
    view = present(services.state_of(situation), viewer)
    context = {"situation": situation, "event": situation.event, "view": view, "me": view.sides[side]}
    template = "duels/mass_commander.html#live" if request.htmx else "duels/mass_commander.html"
    return render_live(request, template, context, etag)


@require_GET
def watch(request: HttpRequest, situation_id: int) -> HttpResponse:
    situation = public_situation(situation_id)
    if situation.kind != Situation.Kind.MASS_BATTLE:
        raise Http404
    etag = situation_etag(situation, SPECTATOR_VIEW, "mass-watch")  # type: ignore[arg-type]
    if request.htmx and (unchanged := not_modified(request, etag)) is not None:
        return unchanged
    context = {
        "situation": situation,
        "event": situation.event,
        "view": present(services.state_of(situation), SPECTATOR_VIEW),
    }
    template = "duels/mass_watch.html#live" if request.htmx else "duels/mass_watch.html"
    return render_live(request, template, context, etag)

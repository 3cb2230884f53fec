"""The mass battle off the referee's tablet: a commander's phone and the public spectator page.

Both poll every 2 s with an ETag (304 when nothing changed). A commander sees
their own side's kept cards and never the other side's; a spectator sees no
kept card and no deck order (presenters_mass decides, the templates display).
A commander opens their side signed in as the army's commander, or by the
army's secret link (``/c/<token>/army/``, printed as a QR code), which shows
the army's side in its running mass battle.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from cards.models_mass import Army
from duels import services
from duels.models import Situation
from duels.presenters_mass import COMMANDER, SPECTATOR, MassViewer, present
from duels.views_common import not_modified, public_situation, quoted_hash, render_live, situation_etag
from events.access import is_referee
from helpers.requests import HtmxRequest

SPECTATOR_VIEW = MassViewer(SPECTATOR)


def _armies(situation: Situation) -> dict[str, int]:
    if situation.kind != Situation.Kind.MASS_BATTLE:
        return {}
    return {str(side): int(army_id) for side, army_id in (situation.opening.get("armies") or {}).items()}


@login_required
@require_GET
def commander(request: HtmxRequest, situation_id: int, side: str) -> HttpResponse:
    """The commander of the army on ``side`` (or the event's staff, to hand the phone over)."""
    situation = public_situation(situation_id)
    army_id = _armies(situation).get(side)
    if army_id is None:
        raise Http404
    army = Army.objects.filter(pk=army_id).first()
    mine = army is not None and army.commander_id == request.user.pk
    if not mine and not is_referee(request.user, situation.event):
        raise Http404
    return _commander_page(request, situation, side, reverse("duels:mass-commander", args=[situation.pk, side]))


@require_GET
def commander_link(request: HtmxRequest, token: str) -> HttpResponse:
    """The army's secret link: its side in its latest running mass battle, or its warriors between battles."""
    army = None if "\x00" in token else Army.objects.filter(link_token=token).select_related("event").first()
    if army is None or army.event.links_expired:
        raise Http404  # the event's setting, as for a character's link: printed codes open nothing after the game
    live_url = reverse("duels:mass-army-link", args=[token])
    running = Situation.objects.filter(event=army.event, kind=Situation.Kind.MASS_BATTLE, ended=False)
    for situation in running.order_by("-pk"):
        sides = {army_id: side for side, army_id in _armies(situation).items()}
        if army.pk in sides:
            return _commander_page(request, situation, sides[army.pk], live_url)
    warriors = list(army.warriors.select_related("warrior_type").order_by("name"))
    etag = quoted_hash(repr(["army", army.pk, [(w.name, w.state) for w in warriors], get_language()]))
    if request.htmx and (unchanged := not_modified(request, etag)) is not None:
        return unchanged
    context = {"army": army, "event": army.event, "warriors": warriors, "live_url": live_url}
    template = "duels/mass_army_idle.html#live" if request.htmx else "duels/mass_army_idle.html"
    return render_live(request, template, context, etag)


def _commander_page(request: HtmxRequest, situation: Situation, side: str, live_url: str) -> HttpResponse:
    viewer = MassViewer(COMMANDER, side)
    etag = situation_etag(situation, viewer, "mass-commander")  # type: ignore[arg-type]
    if request.htmx and (unchanged := not_modified(request, etag)) is not None:
        return unchanged
    view = present(services.state_of(situation), viewer)
    context = {
        "situation": situation,
        "event": situation.event,
        "view": view,
        "me": view.sides[side],
        "live_url": live_url,
    }
    template = "duels/mass_commander.html#live" if request.htmx else "duels/mass_commander.html"
    return render_live(request, template, context, etag)


@require_GET
def watch(request: HtmxRequest, situation_id: int) -> HttpResponse:
    situation = public_situation(situation_id)
    if situation.kind != Situation.Kind.MASS_BATTLE:
        raise Http404
    etag = situation_etag(situation, SPECTATOR_VIEW, "mass-watch")  # type: ignore[arg-type]
    if request.htmx and (unchanged := not_modified(request, etag)) is not None:
        return unchanged
    view = present(services.state_of(situation), SPECTATOR_VIEW)
    context = {"situation": situation, "event": situation.event, "view": view}
    template = "duels/mass_watch.html#live" if request.htmx else "duels/mass_watch.html"
    return render_live(request, template, context, etag)

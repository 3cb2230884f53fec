"""The mass battle off the referee's tablet: a commander's phone and the public spectator page.

Both poll every 2 s with an ETag (304 when nothing changed). A commander sees
their own side's kept cards and never the other side's; a spectator sees no
kept card and no deck order (duels/mass/presenters.py decides, the templates display).
A commander opens their side signed in as the army's commander, or by the
army's secret link (``/c/<token>/army/``, printed as a QR code), which shows
the army's side in its running mass battle.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from cards.models_mass import Army, in_natural_order
from duels import services
from duels.mass.presenters import COMMANDER, SOURCE_LABELS, SPECTATOR, MassViewer, present, state_cards
from duels.models import LogEntry, Situation
from duels.templatetags import mass_regions as R
from duels.templatetags.mass_action import mass_action
from duels.web.access import public_situation
from duels.web.live import not_modified, quoted_hash, render_live, situation_etag
from duels.web.log import read_events
from duels.web.oob import Part, log_part
from events.access import is_referee
from helpers.requests import HtmxRequest
from rules import mass as magic
from rules.mass import events as M

SPECTATOR_VIEW = MassViewer(SPECTATOR)
RECORD_PAGE = 50


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
    warriors = in_natural_order(army.warriors.select_related("warrior_type"))
    etag = quoted_hash(repr(["army", army.pk, [(w.name, w.state) for w in warriors], get_language()]))
    if request.htmx and (unchanged := not_modified(request, etag)) is not None:
        return unchanged
    context = {"army": army, "event": army.event, "warriors": warriors, "live_url": live_url}
    template = "duels/mass/army_idle.html#live" if request.htmx else "duels/mass/army_idle.html"
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
    template = "duels/mass/player.html#live" if request.htmx else "duels/mass/player.html"
    return render_live(request, template, context, etag)


def record_context(situation: Situation, state: magic.MassBattle, page: str | None) -> dict[str, Any]:
    """The public record: every initiative roll and every card carried out, newest first, and the warriors.

    Only what happened on the table: a kept card and the decks' order stay secret
    (a card kept is named once it is carried out).
    """
    names = state_cards(state)
    sides = {key: side.name for key, side in state.sides.items()}
    rows: list[dict[str, Any]] = []
    entries = situation.log.filter(kind=LogEntry.Kind.COMMAND, undone=False).order_by("-seq").only("events")
    for entry in entries:
        for event in reversed(read_events(entry.events or [])):
            if isinstance(event, M.InitiativeRolled):
                rows.append({"cycle": event.cycle, "roll": (event.a, event.b), "source": SOURCE_LABELS[event.source]})
            elif isinstance(event, M.CardCarriedOut):
                card = names.get(event.card_id)
                rows.append(
                    {
                        "side": sides.get(event.side, event.side),
                        "card": card.name if card else f"#{event.card_id}",
                        "affected": [state.warriors[w].name for w in event.affected if w in state.warriors],
                        "ends_cycle": event.ends_cycle,
                    }
                )
    return {
        "view": present(state, SPECTATOR_VIEW),
        "sides": sides,
        "steps": Paginator(rows, RECORD_PAGE).get_page(page),
    }


# --- The referee's tablet after a step: the regions its events changed (duels/web/oob.py) ---------
#
# templates/duels/mass/tablet.html's regions: mass-notes (the alert), mass-status (cycle, stage,
# whose turn, the rolls), mass-action (the stage's controls), mass-effects, mass-decks, the undo box,
# mass-log, and one ``side-<key>`` per side (warriors, kept cards, points). Every step changes the
# status, the controls, the sides (the initiative gives the points) and the log; a card drawn, kept
# or carried out, a warrior moved, a cycle begun also the effects and the decks. The undo box only
# takes the new version. The battle's end: the whole fragment.

# The log: only the step's new lines, prepended to mass-log's list (the tablet shows twenty,
# duels/mass/views.py renders as many).
LOG_LINES = 20
_NEW_LOG_LINES = log_part("mass-log", LOG_LINES)

_STAGE_ONLY = (M.InitiativeRolled, M.InitiativeTied, M.InitiativeWon, M.StarterChosen)


def tablet_parts(context: Mapping[str, Any], events: Sequence[Any]) -> list[Part] | None:
    view = context["view"]
    if view.ended or not events or any(isinstance(e, M.BattleEnded) for e in events):
        return None
    parts = [Part(build=R.mass_notes), Part(build=R.mass_status), Part(build=mass_action)]
    if not all(isinstance(e, _STAGE_ONLY) for e in events):
        parts += [Part(build=R.mass_effects), Part(build=R.mass_decks)]
    # Every step moves a side's points (the initiative gives them) or its warriors and kept cards.
    parts += [Part(context={"side": side}, build=R.mass_side) for side in view.sides.values()]
    return [*parts, _NEW_LOG_LINES]

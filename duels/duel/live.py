"""The duel off the referee's tablet: what a spectator and a fighter's own phone show (D4).

The shared live pages (duels/views_public.py, duels/views_player.py) poll,
cache and answer 304s for every kind; these are the duel's contexts for them.
A spectator sees no hand; a fighter sees their own hand only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from duels.duel.presenters import card_ids, card_names, present
from duels.templatetags import duel_regions as R
from duels.web.oob import Part, log_part
from duels.web.submit import LOG_LINES
from duels.web.viewers import PLAYER, SPECTATOR_VIEW, Viewer
from rules import duel as engine
from rules.duel import events as engine_events
from rules.events import ConditionChanged


def watch_context(state: engine.Situation) -> dict[str, Any]:
    return {"view": present(state, SPECTATOR_VIEW, card_names(card_ids(state)))}


def player_context(character_id: int, state: engine.Situation) -> dict[str, Any]:
    view = present(state, Viewer(PLAYER, character_id), card_names(card_ids(state)))
    me = view.by_id.get(character_id)
    duel = view.duel_of(character_id)
    opponent = None if duel is None or me is None else (duel.b if duel.a.id == me.id else duel.a)
    return {
        "view": view,
        "me": me,
        "duel": duel,
        "opponent": opponent,
        "hand": (me.hand if me else None) or [],
        "focus": me.focus if me else None,
        # F1: a focus is set on a defence card of the hand, also during the fight (SetFocus).
        "can_focus": me is not None,
    }


# --- The referee's tablet after a step: the regions its events changed (duels/web/oob.py) ---------
#
# templates/duels/duel/tablet.html's regions: fight-notes (conversions, the alert), fight-status
# (the situation's end or S2 gap), one ``duel-<n>`` card per duel (its controls, both fighters with
# their hands, its steps), the undo box, the condition controls, fight-log. A step inside duels
# changes those duels' cards, the notes, the status and the log (only its new lines go); a card of
# another duel that shares a fighter goes too (it shows the same fighter's condition and focus). A
# fighter or duel added, a conversion, the situation's end, an event of no duel: the whole fragment.

# The log: only the step's new lines, prepended to fight-log's list (the page keeps LOG_LINES).
_NEW_LOG_LINES = log_part("fight-log", LOG_LINES)

_WHOLE = (
    engine_events.FighterJoined,
    engine_events.DuelOpened,
    engine_events.ConvertedToAggression,
    engine_events.SituationEnded,
)


def tablet_parts(context: Mapping[str, Any], events: Sequence[Any]) -> list[Part] | None:
    view = context["view"]
    if view.ended or not events:
        return None
    duels: set[int] = set()
    fighters: set[int] = set()
    for event in events:
        if isinstance(event, _WHOLE):
            return None
        if isinstance(event, engine_events.FocusSet | ConditionChanged):
            fighters.add(event.fighter)
        elif isinstance(getattr(event, "duel", None), int):
            duels.add(event.duel)
        else:
            return None
    known = {d.number: d for d in view.duels}
    if not duels <= known.keys():
        return None
    for number in duels:
        fighters |= {f.id for f in known[number].fighters}
    touched = [d for d in reversed(view.duels) if d.number in duels or fighters & {f.id for f in d.fighters}]
    cuttable = all(isinstance(e, _CUT) for e in events)
    cards: list[Part] = []
    for duel in touched:
        cut = _cut(duel, [e for e in events if e.duel == duel.number]) if cuttable else None
        cards += cut if cut is not None else [Part(context={"duel": duel}, build=R.duel_card)]
    return [Part(build=R.fight_notes), Part(build=R.fight_status), *cards, _NEW_LOG_LINES]


# The steps that change a duel's card only in its header, its controls and the hands of the
# fighters they name (the card's phase goes by its mark): a card shown (D6) leaves the attacker's
# hand, an answer (D7) the defender's, and the result is proposed (CR2). When the step holds any
# other event - a result applied, a round's end, a draw, a time-out, a focus, a condition, the
# duel's end - every touched card goes whole.
_CUT = (engine_events.AttackShown, engine_events.Answered, engine_events.ResultProposed)


def _cut(duel: Any, events: list[Any]) -> list[Part] | None:
    """The regions of one duel's card its own events changed, or None: the whole card."""
    if not events or not duel.is_open:
        return None
    named = {e.fighter for e in events if isinstance(e, engine_events.AttackShown | engine_events.Answered)}
    here = {"duel": duel}
    return [
        Part(context=here, build=R.duel_mark),
        Part(context=here, build=R.duel_head),
        Part(context=here, build=R.duel_action),
        *(Part(context={"duel": duel, "fighter": f}, build=R.duel_fighter) for f in duel.fighters if f.id in named),
    ]

"""The battle off the referee's tablet: what a spectator, a combatant's own phone and the record show (D4).

The shared live pages (duels/views_public.py, duels/views_player.py) poll,
cache and answer 304s for every kind; these are the battle's contexts for them.
A spectator sees no hand and no reaction bar; a combatant sees their own hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from django.core.paginator import Paginator

from duels.battle.presenters import present_battle, record_rows
from duels.templatetags import battle_regions as R
from duels.web.oob import Part, log_part
from duels.web.viewers import PLAYER, SPECTATOR_VIEW, Viewer
from rules import battle as B
from rules.battle import events as BE
from rules.battle.referee import SituationTakenOn

RECORD_PAGE = 50


def watch_context(state: B.Battle) -> dict[str, Any]:
    return {"battle": present_battle(state, SPECTATOR_VIEW, reactions=False)}


def player_context(character_id: int, state: B.Battle) -> dict[str, Any]:
    view = present_battle(state, Viewer(PLAYER, character_id))
    me = view.by_id.get(character_id)
    attacked = [w for f in view.frames for w in f.windows if w.defender.id == character_id and not w.answered]
    # F1 is not a battle rule: the focus is carried through untouched, not set here.
    return {"battle": view, "me": me, "hand": (me.hand if me else None) or [], "attacked": attacked, "focus": None}


def record_context(state: B.Battle, page: str | None) -> dict[str, Any]:
    """Every resolved answer, newest first, a page at a time; every card each combatant played."""
    steps = Paginator(list(reversed(state.records)), RECORD_PAGE).get_page(page)
    played = {
        c.name: sorted(Counter(state.cards[uid].face.name for uid in c.discards).items())
        for c in state.combatants.values()
    }
    return {
        "battle": present_battle(state, SPECTATOR_VIEW, reactions=False, records=0),
        "steps": steps,
        "rows": record_rows(state, steps.object_list),
        "played": played,
    }


# --- The referee's tablet after a step: the regions its events changed (duels/web/oob.py) ---------
#
# templates/duels/battle/tablet.html's regions: battle-notes (the alert), battle-head (round,
# reactions, the S2 countdown), turn-strip (every combatant: turn, condition, hand count, reaction
# flags), battle-main (the turn's controls and the reaction bar: the hand that acts, the answer
# windows and their countdowns), the undo and end boxes, the condition controls, battle-join (the
# join form: the people in no running fight, and a strike button during turns), battle-log. A
# command of the turn changes the first four and the log: those are sent; the join form only when
# the phase changes (a bout's end, a round's start), so a step does not read the joinable people;
# the boxes and the condition controls only take the new version. A combatant joining or leaving,
# the battle's end: the whole. Each region is written in Python (duels/templatetags/battle_regions.py).

_WHOLE = (BE.Joined, BE.Left, BE.Begun, BE.Ended, BE.SituationClosed, SituationTakenOn)
_PHASE = (BE.BoutEnded, BE.RoundEnded, BE.RoundStarted)
REGIONS = (R.battle_notes, R.battle_head, R.turn_strip, R.battle_main)
# The log: only the step's new lines, prepended to battle-log's list. The battle's tablet shows
# twelve lines (its reaction bar takes the room; duels/battle/views.py renders as many).
LOG_LINES = 12
_NEW_LOG_LINES = log_part("battle-log", LOG_LINES)


def tablet_parts(context: Mapping[str, Any], events: Sequence[Any]) -> list[Part] | None:
    if context["view"].ended or not events or any(isinstance(e, _WHOLE) for e in events):
        return None
    parts = [Part(build=build) for build in REGIONS]
    if any(isinstance(e, _PHASE) for e in events):
        parts.append(Part(build=R.battle_join))
    return [*parts, _NEW_LOG_LINES]

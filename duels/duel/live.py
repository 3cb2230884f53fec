"""The duel off the referee's tablet: what a spectator and a fighter's own phone show (D4).

The shared live pages (duels/views_public.py, duels/views_player.py) poll,
cache and answer 304s for every kind; these are the duel's contexts for them.
A spectator sees no hand; a fighter sees their own hand only.
"""

from __future__ import annotations

from typing import Any

from duels.duel.presenters import card_ids, card_names, present
from duels.web.viewers import PLAYER, SPECTATOR_VIEW, Viewer
from rules import duel as engine


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

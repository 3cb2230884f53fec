"""Is a character in a running fight, and which one (S2): the arsenal guards and every start ask this."""

from __future__ import annotations

import datetime as dt

from duels.models import Situation
from duels.services import rows
from duels.services.deadlines import refresh
from duels.services.live import Meta, meta_from, remember_active
from events.models import Character


def active_situation_for(
    character: Character | int,
    *,
    now: dt.datetime | None = None,
    whole: bool = False,
    cached: Meta | int | None = None,
) -> Situation | None:
    """The character's unfinished situation (with its event), after applying its overdue deadlines (S2).

    ``whole``: every column but the opening, for a caller that renders it (a
    player's changed poll); else the version columns, the state loading on first use.
    One hand-written statement (duels/services/rows.py). What is found is
    kept in the cache for the character's next poll, unless ``cached`` (what
    the caller read from there a moment ago) says it holds that already.
    """
    character_id = character if isinstance(character, int) else character.pk
    for situation in rows.unfinished_for(character_id, whole=whole):
        situation = refresh(situation, now=now)
        if not situation.ended:
            if cached != meta_from(situation):
                remember_active(character_id, situation)
            return situation
    if cached != 0:
        remember_active(character_id, None)
    return None


def in_active_situation(character: Character | int, *, now: dt.datetime | None = None) -> bool:
    """Is the character in a fight that has not ended? The arsenal is frozen while so (AG2, D3, IA5)."""
    return active_situation_for(character, now=now) is not None

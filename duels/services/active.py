"""Is a character in a running fight, and which one (S2): the arsenal guards and every start ask this."""

from __future__ import annotations

import datetime as dt

from duels.models import Situation
from duels.services.deadlines import refresh
from duels.services.live import META_FIELDS, remember_active
from events.models import Character


def active_situation_for(character: Character | int, *, now: dt.datetime | None = None) -> Situation | None:
    """The character's unfinished situation, after applying its overdue deadlines (S2)."""
    character_id = character if isinstance(character, int) else character.pk
    # Only the columns the caller needs to decide; the state loads on first use.
    rows = Situation.objects.filter(participants__id=character_id, ended=False).only(*META_FIELDS)
    for situation in rows.order_by("-pk"):
        situation = refresh(situation, now=now)
        if not situation.ended:
            remember_active(character_id, situation)
            return situation
    remember_active(character_id, None)
    return None


def in_active_situation(character: Character | int, *, now: dt.datetime | None = None) -> bool:
    """Is the character in a fight that has not ended? The arsenal is frozen while so (AG2, D3, IA5)."""
    return active_situation_for(character, now=now) is not None

"""IA3: an undone instant attack keeps its draw, in every kind of fight.

Undoing an instant attack and making it again must not draw again, or a draw
could be repeated until it suits someone. So a repeated instant attack by the
same attacker on the same victim in the same situation reuses the card the
undone one drew (the same catalogue card), if the victim still holds it; only
when they do not (it was played since) is there a new draw - a *redraw*,
which the post-game figures count. The undone draw stays in the log, struck
through.

"The same situation" is the game's, not the database row's: an instant attack
that opened a situation takes the situation with it when undone (the row is
closed, empty). Such a row, of the same event and undone within the gap (S2),
still counts as the same situation for the repeated attack. So does a battle
row an undo emptied: an instant attack on someone already fighting grows their
duel into a battle, or joins their battle (IA1), and its undo takes that row's
start back with it. Both kinds log the command as ``instant_attack`` with its
``attacker`` and ``victim``; the drawn card is the duel's ``card_drawn`` event
or the battle's ``battle_card_drawn``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet

from duels.models import LogEntry, Situation

REUSED = "reused"
REDRAWN = "redrawn"
# The events that name an instant attack's drawn card: a duel's and a battle's (IA3).
DRAWN_EVENTS = ("card_drawn", "battle_card_drawn")


def _blind_draw(entry: LogEntry) -> int | None:
    """The catalogue card an instant attack entry drew blind (not a focus, not a declined parry), if any."""
    for event in entry.events or []:
        if event.get("type") in DRAWN_EVENTS and not event.get("by_focus"):
            return int(event["card_id"])
    return None


def _pair(entry: LogEntry) -> tuple[Any, Any]:
    command = entry.command or {}
    return command.get("attacker"), command.get("victim")


def related_undone(situation: Situation) -> QuerySet[LogEntry]:
    """Undone instant attacks of this situation, and of the event's rows emptied by an undo within the gap (S2)."""
    gap = dt.timedelta(seconds=int(situation.opening.get("settings", {}).get("gap_s", 180)))
    emptied = (
        Situation.objects.filter(event_id=situation.event_id, ended=True, ended_at__gte=situation.created_at - gap)
        .exclude(pk=situation.pk)
        .exclude(Exists(LogEntry.objects.filter(situation=OuterRef("pk"), kind=LogEntry.Kind.COMMAND, undone=False)))
    )
    return LogEntry.objects.filter(
        Q(situation=situation) | Q(situation__in=emptied),
        kind=LogEntry.Kind.COMMAND,
        undone=True,
        command__type="instant_attack",
    )


def undone_draw(situation: Situation, attacker: int, victim: int, gap_s: int) -> int | None:
    """The card the latest undone instant attack of ``attacker`` on ``victim`` in this situation drew blind.

    ``gap_s``: the situation's S2 gap (its state's settings, as opened). One small query in the usual
    case (no undone instant attack of the pair in the event lately); the rows such an attack was in
    are checked only when there is one.
    """
    gap = dt.timedelta(seconds=gap_s)
    # The JSON fields are matched here, not in SQL: the query stays small and cheap to build.
    undone = LogEntry.objects.filter(
        situation__event_id=situation.event_id,
        kind=LogEntry.Kind.COMMAND,
        undone=True,
        at__gte=situation.created_at - gap,
    ).order_by("-at", "-seq")
    candidates = [
        entry
        for entry in undone
        if (entry.command or {}).get("type") == "instant_attack" and _pair(entry) == (attacker, victim)
    ]
    if not candidates:
        return None
    related = set(related_undone(situation).filter(pk__in=[e.pk for e in candidates]).values_list("pk", flat=True))
    for entry in candidates:
        card = _blind_draw(entry) if entry.pk in related or entry.situation_id == situation.pk else None
        if card is not None:
            return card
    return None


@dataclass(frozen=True)
class Repeat:
    """How an instant attack's draw relates to an undone one of the same pair: ``REUSED`` or ``REDRAWN``."""

    how: str
    undone_seq: int
    undone_at: datetime
    card_id: int


def repeats(entries: Iterable[LogEntry]) -> dict[int, Repeat]:
    """For each instant attack entry (by id) that followed an undone one of the same pair: reused or redrawn.

    ``entries`` are one situation's, plus ``related_undone`` ones of rows emptied by an undo.
    """
    undone: dict[tuple[Any, Any], LogEntry] = {}
    found: dict[int, Repeat] = {}
    for entry in sorted(entries, key=lambda e: e.at):
        if entry.kind != LogEntry.Kind.COMMAND or (entry.command or {}).get("type") != "instant_attack":
            continue
        card = _blind_draw(entry)
        if card is None:
            continue
        before = undone.get(_pair(entry))
        if before is not None:
            earlier = _blind_draw(before) or 0
            found[entry.pk] = Repeat(REUSED if earlier == card else REDRAWN, before.seq, before.at, earlier)
        if entry.undone:
            undone[_pair(entry)] = entry
    return found


def figures(entries: Iterable[LogEntry], earlier: Iterable[LogEntry] = ()) -> dict[str, int]:
    """Post-game figures of one situation's blind draws (IA3): made, undone, reused after an undo, redrawn.

    ``earlier``: undone instant attacks of rows emptied by an undo (``related_undone``).
    """
    entries = list(entries)
    draws = [e for e in entries if e.kind == LogEntry.Kind.COMMAND and _blind_draw(e) is not None]
    mine = {e.pk for e in entries}
    found = {pk: r for pk, r in repeats([*entries, *earlier]).items() if pk in mine}
    return {
        "blind_draws": len(draws),
        "undone_draws": sum(1 for e in draws if e.undone),
        "reused_draws": sum(1 for r in found.values() if r.how == REUSED),
        "redraws": sum(1 for r in found.values() if r.how == REDRAWN),
    }

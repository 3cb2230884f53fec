"""M4: an undone initiative roll that is repeated keeps its dice.

Undoing a roll ("the commander was not looking") and rolling again must not
give a new chance, or a roll could be repeated until it suits a side - the
duel keeps an undone draw for the same reason (IA3, duels/duel/draws.py).
A roll is named by its cycle and its number in the cycle (``nth``: 2 is the
roll after a tie), so a repeated tie keeps its dice and the roll after it is
still new. A server roll repeated after an undo gets the undone dice (and
their source: dice entered from the table stay the table's); entered dice are
typed in again from the real dice, and entering other ones is a *re-roll*,
which the post-game figures count. The undone roll stays in the log, struck
through.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from duels.models import LogEntry, Situation

ROLL = "roll_initiative"
ROLLED = "mass_initiative_rolled"
KEPT = "kept"
REROLLED = "rerolled"


@dataclass(frozen=True)
class Dice:
    cycle: int
    nth: int
    a: int
    b: int
    source: str


def dice_of(entry: Any) -> Dice | None:
    """The roll a logged entry made, if it is a roll (``nth`` 0: logged before rolls were numbered)."""
    if (entry.command or {}).get("type") != ROLL:
        return None
    for event in entry.events or []:
        if event.get("type") == ROLLED:
            cycle, nth = int(event["cycle"]), int(event.get("nth", 0))
            return Dice(cycle, nth, int(event["a"]), int(event["b"]), str(event["source"]))
    return None


# How many undone rolls, newest first, ``undone_roll`` reads: a roll is undone a few times at most,
# and a step must not read rows that grow with the log (issue 24).
UNDONE_ROLLS_READ = 50


def undone_roll(situation: Situation, cycle: int, nth: int) -> Dice | None:
    """The dice of the latest undone roll ``nth`` of ``cycle`` in this battle, if any.

    Reads only undone roll entries, newest first and at most ``UNDONE_ROLLS_READ``
    (one LIMITed statement, its rows bounded by the undos, never by the log's
    length). The cycle and number are matched here, by ``dice_of``: they are in
    the entry's events, a list no lookup reads on every database. Older undone
    rolls than the newest ``UNDONE_ROLLS_READ`` would only matter after fifty
    undone rolls since the one sought, within one magic phase.
    """
    undone = (
        LogEntry.objects.filter(situation=situation, kind=LogEntry.Kind.COMMAND, command__type=ROLL, undone=True)
        .order_by("-seq")
        .only("command", "events", "undone", "seq")[:UNDONE_ROLLS_READ]
    )
    for entry in undone:
        dice = dice_of(entry)
        if dice is not None and (dice.cycle, dice.nth) == (cycle, nth):
            return dice
    return None


@dataclass(frozen=True)
class Repeat:
    """How a roll relates to an undone one of the same cycle and number: ``KEPT`` or ``REROLLED``."""

    how: str
    undone_seq: int
    undone_at: datetime
    a: int
    b: int


def repeats(entries: Iterable[Any]) -> dict[int, Repeat]:
    """For each roll entry (by id) that followed an undone roll of the same cycle and number."""
    undone: dict[tuple[int, int], tuple[Any, Dice]] = {}
    found: dict[int, Repeat] = {}
    for entry in sorted(entries, key=lambda e: e.seq):
        dice = dice_of(entry)
        if dice is None or dice.nth == 0:
            continue
        key = (dice.cycle, dice.nth)
        before = undone.get(key)
        if before is not None:
            old_entry, old = before
            how = KEPT if (old.a, old.b) == (dice.a, dice.b) else REROLLED
            found[entry.pk] = Repeat(how, old_entry.seq, old_entry.at, old.a, old.b)
        if entry.undone:
            undone[key] = (entry, dice)
    return found


def figures(entries: Iterable[Any]) -> dict[str, int]:
    """Post-game figures of a battle's initiative rolls (M4): made, undone, kept after an undo, re-rolled."""
    entries = list(entries)
    rolls = [e for e in entries if dice_of(e) is not None]
    found = repeats(entries)
    return {
        "rolls": len(rolls),
        "undone_rolls": sum(1 for e in rolls if e.undone),
        "kept_rolls": sum(1 for r in found.values() if r.how == KEPT),
        "rerolls": sum(1 for r in found.values() if r.how == REROLLED),
    }

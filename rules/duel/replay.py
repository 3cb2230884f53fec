"""Rebuild a situation from its log (DESIGN.md §4: state = replay of the log)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Literal

from rules.duel.apply import apply_in_place
from rules.duel.commands import Command
from rules.duel.situation import expire_in_place
from rules.duel.state import Situation, clone

CommandEntry = tuple[Literal["command"], Command, datetime, int | None]
ExpireEntry = tuple[Literal["expire"], datetime]
LogEntry = CommandEntry | ExpireEntry


def replay(opening: Situation, entries: Iterable[LogEntry], *, whole_record: bool = False) -> Situation:
    """Apply the logged entries in order, in one pass.

    The log must hold an ``("expire", now)`` entry wherever ``expire`` changed
    the state before a command; then the result equals the live state. A
    command refused during replay means the log is corrupt: the RuleError
    propagates. ``opening`` is not changed: the entries are applied to one
    private clone of it, in place, so the cost is linear in the log's length
    (a copy per entry made it quadratic).

    ``whole_record``: keep every finished step (the record page, the export),
    not only the newest ``RECORDS_KEPT`` the stored state holds; ``to_dict``
    of such a state writes them all, as states were written before issue 24.
    """
    state = clone(opening)
    state.whole_record = whole_record
    for entry in entries:
        if entry[0] == "command" and len(entry) == 4:
            _, command, now, draw = entry
            apply_in_place(state, command, now, draw)
        elif entry[0] == "expire" and len(entry) == 2:
            expire_in_place(state, entry[1])
        else:
            raise ValueError(f"unknown log entry {entry!r}")
    return state

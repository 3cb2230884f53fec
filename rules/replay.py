"""Rebuild a situation from its log (DESIGN.md §4: state = replay of the log)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Literal

from .apply import apply
from .commands import Command
from .situation import expire
from .state import Situation

CommandEntry = tuple[Literal["command"], Command, datetime, int | None]
ExpireEntry = tuple[Literal["expire"], datetime]
LogEntry = CommandEntry | ExpireEntry


def replay(opening: Situation, entries: Iterable[LogEntry]) -> Situation:
    """Apply the logged entries in order.

    The log must hold an ``("expire", now)`` entry wherever ``expire`` changed
    the state before a command; then the result equals the live state. A
    command refused during replay means the log is corrupt: the RuleError
    propagates.
    """
    state = opening
    for entry in entries:
        if entry[0] == "command" and len(entry) == 4:
            _, command, now, draw = entry
            state, _events = apply(state, command, now, draw)
        elif entry[0] == "expire" and len(entry) == 2:
            state, _events = expire(state, entry[1])
        else:
            raise ValueError(f"unknown log entry {entry!r}")
    return state

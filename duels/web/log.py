"""One table from an engine event's class to its log line, for every kind of fight.

Every event the engine can emit is a frozen dataclass registered with
``@event_type`` (``rules.events``, ``rules.battle.events``,
``rules.mass.events``). Its log line is a function of that typed event,
registered here with ``@wording(EventClass)`` by the module that words its
kind: ``duels/duel/log.py`` (duels), ``duels/battle/log.py`` (battles),
``duels/mass/log.py`` (mass battles). The function also gets its
kind's ``LogWords``, which names the fighters and cards an event mentions.

tests/web/test_duels_log_wording.py fails for a registered event class with no
wording here, and checks each line carries the event's values in Russian and English.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from rules import EVENT_CLASSES, EngineEvent, LagGraceUsed, event_from_dict

WORDING: dict[type[EngineEvent], Callable[[Any, Any], str]] = {}


class LogWords:
    """A kind's way of naming what its events mention; ``line`` looks the event up in ``WORDING``."""

    def line(self, event: EngineEvent | str) -> str:
        word = None if isinstance(event, str) else WORDING.get(type(event))
        if word is None or isinstance(event, str):
            # A registered event with no wording is a bug the wording test catches;
            # on a live page the referee still sees that something happened.
            return _("Event: %(type)s") % {"type": event if isinstance(event, str) else event.type}
        return word(self, event)


def wording[W: LogWords, E: EngineEvent](cls: type[E]) -> Callable[[Callable[[W, E], str]], Callable[[W, E], str]]:
    """Register the log line of one event class."""

    def register(func: Callable[[W, E], str]) -> Callable[[W, E], str]:
        if cls in WORDING:
            raise ValueError(f"{cls.__name__} has two wordings")
        WORDING[cls] = func
        return func

    return register


def read_events(stored: Iterable[dict[str, Any]]) -> list[EngineEvent | str]:
    """The typed events of a log entry; a type this code does not know stays its bare name."""
    return [event_from_dict(data) if data.get("type") in EVENT_CLASSES else str(data.get("type")) for data in stored]


@dataclass
class LogLine:
    """One log entry as the fight pages show it (templates/duels/_log.html)."""

    seq: int
    at: datetime
    actor: str
    kind: str
    undone: bool
    lines: list[str]


def log_lines(
    entries: Iterable[Any], words: LogWords, more: Callable[[Any], list[str]] = lambda entry: []
) -> list[LogLine]:
    """Lines for ``LogEntry`` rows (``actor`` selected), in the order given, for every kind of fight.

    Each entry's events through ``words`` (the ``WORDING`` table), then what ``more``
    adds for it; an undo says so with its reason, a deadline with no event says it passed.
    """
    out = []
    for entry in entries:
        lines = [words.line(e) for e in read_events(entry.events or [])] + more(entry)
        if entry.kind == "undo":
            lines.insert(0, _("Undo of the last action. Reason: %(reason)s") % {"reason": entry.reason})
        elif entry.kind == "expire" and not lines:
            lines.append(_("A deadline passed."))
        actor = entry.actor.get_username() if entry.actor_id else ""
        out.append(LogLine(entry.seq, entry.at, actor, entry.kind, entry.undone, lines))
    return out


@wording(LagGraceUsed)
def _lag_grace(words: LogWords, e: LagGraceUsed) -> str:
    """D8 lag grace, for every kind: the tablet's time of the tap, how late it arrived, the grace."""
    return _(
        "Tapped %(tapped)s s after the tablet received the window; arrived %(late)s s after the deadline: "
        "accepted within the lag grace of %(grace)s s (D8)."
    ) % {
        "tapped": f"{e.tapped_ms / 1000:.1f}",
        "late": f"{e.late_ms / 1000:.1f}",
        "grace": f"{e.grace_ms / 1000:.1f}",
    }

"""Events: what happened, as typed values with JSON-safe fields (no text - the UI words them).

Every event is a frozen dataclass registered under a ``type`` name. The
persistence layer stores ``event.to_dict()`` (the ``type`` plus the fields,
plain values only: ints, strings, booleans, None, ISO datetimes) next to the
command that produced it; ``event_from_dict`` reads a stored one back. The
stored form is the same as when events were plain dicts, so old logs still read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any, ClassVar, TypeVar

# --- Typed events (issue 7) ---------------------------------------------------------------------
# Every event kind becomes a frozen dataclass subclassing ``EngineEvent`` and
# registered with ``@event_type``; its fields are what the event carries, all
# JSON-safe (ints, strings, booleans, None, ISO datetimes, lists/dicts of those).
# ``to_dict`` / ``event_from_dict`` are the form stored in the fight log.
# New fight kinds (battles, mass battles) declare theirs the same way in their
# own module; the registry keeps the type names unique across kinds.


@dataclass(frozen=True, kw_only=True)
class EngineEvent:
    type: ClassVar[str]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, **asdict(self)}


EVENT_CLASSES: dict[str, type[EngineEvent]] = {}

E = TypeVar("E", bound=type[EngineEvent])


def event_type(name: str) -> Callable[[E], E]:
    """Class decorator: give an event class its ``type`` name and register it."""

    def register(cls: E) -> E:
        if name in EVENT_CLASSES:
            raise ValueError(f"event type {name!r} is registered twice")
        cls.type = name
        EVENT_CLASSES[name] = cls
        return cls

    return register


def event_from_dict(data: dict[str, Any]) -> EngineEvent:
    """The typed event of a logged dict (unknown keys are refused: the log is the truth)."""
    cls = EVENT_CLASSES[data["type"]]
    return cls(**{k: v for k, v in data.items() if k != "type"})


# --- Events every kind of fight shares ------------------------------------------------------------


@event_type("condition_changed")
@dataclass(frozen=True, kw_only=True)
class ConditionChanged(EngineEvent):
    """CR1: ``old``/``new`` are written condition sets; ``reason`` when the referee recorded it outside a step."""

    fighter: int
    old: str
    new: str
    reason: str = ""


@event_type("lag_grace_used")
@dataclass(frozen=True, kw_only=True)
class LagGraceUsed(EngineEvent):
    """D8 lag grace: an answer tapped ``tapped_ms`` after its tablet received the window arrived ``late_ms``
    after the deadline, inside the event's ``grace_ms``, and was accepted as made at the deadline.

    Not an engine decision: the services add it to the answer's log entry (duels/services/grace.py).
    """

    tapped_ms: int
    late_ms: int
    grace_ms: int

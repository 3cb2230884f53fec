"""Events: what happened, as JSON-safe data (no text - the UI words them).

Every event is a dict with a ``type`` key plus plain values (ints, strings,
booleans, None, ISO datetimes). The persistence layer stores them next to the
command that produced them and uses ``fighter_out`` / ``duel_ended`` /
``situation_ended`` (which carry conditions) to write conditions back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, ClassVar, Final, TypeVar

Event = dict[str, Any]


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


def event_type(name: str) -> Any:
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


FIGHTER_JOINED: Final = "fighter_joined"  # fighter, name, condition, focus
FOCUS_SET: Final = "focus_set"  # fighter, card (uid or None), card_id
CONVERTED_TO_AGGRESSION: Final = "converted_to_aggression"  # rule ("IA1"/"IA6"), attacker, victim
DUEL_OPENED: Final = "duel_opened"  # duel, a, b, opened_by, max_rounds
ROUND_STARTED: Final = "round_started"  # duel, round, attacker
PASSED: Final = "passed"  # duel, round, fighter (no attack card: D10)
ATTACK_SHOWN: Final = "attack_shown"  # duel, fighter, card, card_id, deadline
CARD_DRAWN: Final = "card_drawn"  # duel, fighter, card, card_id, draw, by_focus (IA3)
ANSWERED: Final = "answered"  # duel, fighter, card, card_id (card None = no answer)
RESULT_PROPOSED: Final = "result_proposed"  # duel, outcome
ANSWER_TIMED_OUT: Final = "answer_timed_out"  # duel, fighter, deadline (D8)
RESULT_APPLIED: Final = "result_applied"  # duel, outcome, proposed, overridden, reason, timed_out
CONDITION_CHANGED: Final = "condition_changed"  # fighter, old, new
CARD_KEPT: Final = "card_kept"  # duel, fighter, card (IA4: unspent card back in hand)
STEP_CANCELLED: Final = "step_cancelled"  # duel (EndDuel mid-step: shown cards go back)
ROUND_ENDED: Final = "round_ended"  # duel, round
ROUND_CHOICE_MADE: Final = "round_choice_made"  # duel, fighter, go_on, new_arsenal, label
ARSENAL_CHANGED: Final = "arsenal_changed"  # duel, fighter, label, count (no uids: D4)
FIGHTER_OUT: Final = "fighter_out"  # duel, fighter, condition (D11)
DUEL_ENDED: Final = "duel_ended"  # duel, result, reason, conditions {str(id): condition}
SITUATION_ENDED: Final = "situation_ended"  # at, conditions {str(id): condition} (S2)

EVENT_TYPES: Final[tuple[str, ...]] = (
    FIGHTER_JOINED,
    FOCUS_SET,
    CONVERTED_TO_AGGRESSION,
    DUEL_OPENED,
    ROUND_STARTED,
    PASSED,
    ATTACK_SHOWN,
    CARD_DRAWN,
    ANSWERED,
    RESULT_PROPOSED,
    ANSWER_TIMED_OUT,
    RESULT_APPLIED,
    CONDITION_CHANGED,
    CARD_KEPT,
    STEP_CANCELLED,
    ROUND_ENDED,
    ROUND_CHOICE_MADE,
    ARSENAL_CHANGED,
    FIGHTER_OUT,
    DUEL_ENDED,
    SITUATION_ENDED,
)


def ev(type_: str, **data: Any) -> Event:
    return {"type": type_, **data}

"""Commands of the magic phase: frozen, JSON-safe values the log stores and replays.

Chance is part of the command as logged: ``ShuffleDecks.order`` and
``RollInitiative.dice`` are filled by the services with ``secrets`` (or, for
dice, typed in by the referee from real dice, M8) before the engine sees them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from rules.errors import INPUT, RuleError, gettext_noop


@dataclass(frozen=True)
class ShuffleDecks:
    """M1: each deck's order, top first; ``None`` until the services shuffle."""

    order: tuple[tuple[int, tuple[str, ...]], ...] | None = None


@dataclass(frozen=True)
class RollInitiative:
    """M4/M8: side a's and side b's die; ``None`` asks the server to roll."""

    source: str
    dice: tuple[int, int] | None = None


@dataclass(frozen=True)
class ChooseStarter:
    side: str  # the initiative's winner
    starts: bool  # True: the winner starts; False: makes the other side start


@dataclass(frozen=True)
class UsePoints:
    side: str
    warrior: str | None = None  # 1 and 3: the wounded warrior chosen
    take: bool = True  # 4, 5, 6: the draw is optional
    card: int | None = None  # printed decks (M1): the catalogue card the referee recorded as drawn


@dataclass(frozen=True)
class KeepCard:
    side: str


@dataclass(frozen=True)
class CarryOut:
    side: str
    targets: tuple[str, ...] = ()
    target_side: str | None = None  # a whole side: every warrior of it on the field
    move_to: str | None = None  # where the card sends those it acts on, if anywhere


@dataclass(frozen=True)
class UseKept:
    side: str
    uid: str


@dataclass(frozen=True)
class EndTurn:
    side: str


@dataclass(frozen=True)
class MoveWarrior:
    """Casualties of the physical battle, recorded between magic phases."""

    warrior: str
    to: str


@dataclass(frozen=True)
class NextCycle:
    pass


@dataclass(frozen=True)
class EndBattle:
    reason: str = ""


MassCommand = (
    ShuffleDecks
    | RollInitiative
    | ChooseStarter
    | UsePoints
    | KeepCard
    | CarryOut
    | UseKept
    | EndTurn
    | MoveWarrior
    | NextCycle
    | EndBattle
)

COMMAND_TYPES: dict[str, type] = {
    "shuffle_decks": ShuffleDecks,
    "roll_initiative": RollInitiative,
    "choose_starter": ChooseStarter,
    "use_points": UsePoints,
    "keep_card": KeepCard,
    "carry_out": CarryOut,
    "use_kept": UseKept,
    "end_turn": EndTurn,
    "move_warrior": MoveWarrior,
    "next_cycle": NextCycle,
    "end_battle": EndBattle,
}
TYPE_OF: dict[type, str] = {cls: name for name, cls in COMMAND_TYPES.items()}


def command_to_dict(command: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": TYPE_OF[type(command)]}
    for f in fields(command):
        value = getattr(command, f.name)
        if isinstance(command, ShuffleDecks) and value is not None:
            value = [[deck, list(order)] for deck, order in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def command_from_dict(d: Mapping[str, Any]) -> Any:
    data = dict(d)
    cls = COMMAND_TYPES.get(str(data.pop("type", "")))
    if cls is None:
        raise RuleError(INPUT, gettext_noop("Unknown command."))
    if cls is ShuffleDecks and data.get("order") is not None:
        data["order"] = tuple((int(deck), tuple(order)) for deck, order in data["order"])
    elif cls is RollInitiative and data.get("dice") is not None:
        data["dice"] = tuple(data["dice"])
    elif cls is CarryOut:
        data["targets"] = tuple(data.get("targets") or ())
    return cls(**data)

"""Commands: what a referee (or a player's tablet) asks the engine to do.

Commands are frozen, JSON-serialisable values because the persistence layer
logs them and replays the log to rebuild a fight (DESIGN.md §4).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from rules.cards import CardFace, face_from_dict, face_to_dict
from rules.fighters import FighterSetup, setup_from_dict, setup_to_dict


@dataclass(frozen=True)
class Join:
    fighter: FighterSetup


@dataclass(frozen=True)
class InstantAttack:
    attacker: int
    victim: int
    card: str
    out_of_sight: bool
    within_reach: bool
    max_rounds: int | None = None
    # IA3: the victim may decline to parry - nothing is drawn, the attack is not parried.
    parry: bool = True
    # F1: a focus answers only if the victim holds the focused card in front of them.
    focus_held: bool = True
    # IA3 "draws from real cards": the uid of the card the victim physically drew, as the referee recorded it.
    drawn: str | None = None


@dataclass(frozen=True)
class DeclareAggression:
    declarer: int
    target: int
    card: str | None = None  # None = spoken declaration (AG1)
    max_rounds: int | None = None


@dataclass(frozen=True)
class Attack:
    duel: int
    fighter: int
    card: str


@dataclass(frozen=True)
class Answer:
    duel: int
    fighter: int
    card: str | None  # None = no answer


@dataclass(frozen=True)
class ConfirmResult:
    duel: int
    outcome: str | None = None  # None = accept the proposal
    reason: str = ""


@dataclass(frozen=True)
class RoundChoice:
    duel: int
    fighter: int
    go_on: bool
    arsenal: tuple[CardFace, ...] | None = None  # None = keep the current hand
    label: str = ""


@dataclass(frozen=True)
class SetFocus:
    fighter: int
    card: str | None


@dataclass(frozen=True)
class EndDuel:
    duel: int
    reason: str


@dataclass(frozen=True)
class ChangeCondition:
    """The referee records a condition change outside a step, with a reason (CR1, D11).

    ``add``: a blow outside a step (a finishing blow on a helpless fighter, a
    spell after the fight); ``clear``: one condition healed or worn off.
    """

    fighter: int
    add: str = ""
    clear: str = ""
    reason: str = ""


@dataclass(frozen=True)
class EndSituation:
    """The referee closes the whole situation now, e.g. because it grows into a battle (issue 11)."""

    reason: str


Command = (
    Join
    | InstantAttack
    | DeclareAggression
    | Attack
    | Answer
    | ConfirmResult
    | RoundChoice
    | SetFocus
    | EndDuel
    | ChangeCondition
    | EndSituation
)

COMMAND_TYPES: dict[str, type[Command]] = {
    "join": Join,
    "instant_attack": InstantAttack,
    "declare_aggression": DeclareAggression,
    "attack": Attack,
    "answer": Answer,
    "confirm_result": ConfirmResult,
    "round_choice": RoundChoice,
    "set_focus": SetFocus,
    "end_duel": EndDuel,
    "change_condition": ChangeCondition,
    "end_situation": EndSituation,
}
_TYPE_NAMES: dict[type[Command], str] = {cls: name for name, cls in COMMAND_TYPES.items()}


def command_type(command: Command) -> str:
    return _TYPE_NAMES[type(command)]


def command_to_dict(command: Command) -> dict[str, Any]:
    out: dict[str, Any] = {"type": command_type(command)}
    for f in fields(command):
        out[f.name] = getattr(command, f.name)
    if isinstance(command, Join):
        out["fighter"] = setup_to_dict(command.fighter)
    elif isinstance(command, RoundChoice):
        out["arsenal"] = None if command.arsenal is None else [face_to_dict(face) for face in command.arsenal]
    return out


def command_from_dict(d: Mapping[str, Any]) -> Command:
    data = dict(d)
    cls = COMMAND_TYPES[data.pop("type")]
    if cls is Join:
        return Join(setup_from_dict(data["fighter"]))
    if cls is RoundChoice and data.get("arsenal") is not None:
        data["arsenal"] = tuple(face_from_dict(face) for face in data["arsenal"])
    return cls(**data)

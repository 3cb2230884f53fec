"""Battle commands: frozen, JSON-serialisable values the log keeps and replays.

Card arguments are the uids shown in the state. The referee's tablet sends
them; a player's phone never does (the referee records what players call out).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from rules.battle.instant import InstantStrike
from rules.battle.referee import ChangeCondition, CloseSituation
from rules.battle.state import BattleCard, card_from_dict, card_to_dict
from rules.fighters import FighterSetup, setup_from_dict, setup_to_dict


@dataclass(frozen=True)
class JoinBattle:
    """A combatant comes in: at the start, or into a running battle (their turn comes next round)."""

    fighter: FighterSetup
    side: str
    cards: tuple[BattleCard, ...] = ()  # the hand as battle cards (faces + action kinds), copies repeated
    strike: bool = False  # BP4: joins a running battle by attacking - the attack is their next command


@dataclass(frozen=True)
class BeginBattle:
    declarer: int  # D5: whoever declared the fight acts first
    order: tuple[int, ...] | None = None  # None = the default alternating order
    max_rounds: int | None = None  # D2
    # IA1: the declarer opens it with an instant attack on someone already fighting (a duel grown into
    # it): the begin belongs to that strike, and an undo of the strike takes the begin back with it.
    instant: bool = False


@dataclass(frozen=True)
class StartRound:
    order: tuple[int, ...] | None = None  # the referee may reorder before a round starts


@dataclass(frozen=True)
class Leave:
    """D12: at a bout's end a combatant not ready to go on leaves the battle (their hand goes home with them)."""

    combatant: int


@dataclass(frozen=True)
class NewArsenal:
    """D3: between rounds a combatant takes a new or prepared arsenal (the hand is set aside)."""

    combatant: int
    arsenal: tuple[BattleCard, ...]
    label: str = ""


@dataclass(frozen=True)
class Act:
    """The active combatant's action for their turn.

    ``cards``: the attack cards of an attack (two for a double attack), the
    card used, or none. ``targets``: whom an attack names (several for an area
    attack). ``engaged``: the enemies next to the actor (R1) - for a move, the
    ones whose reach they leave. ``trigger``/``mode``: a readied action (R4).
    """

    actor: int
    act: str
    cards: tuple[str, ...] = ()
    targets: tuple[int, ...] = ()
    engaged: tuple[int, ...] = ()
    trigger: str = ""
    mode: str = "interrupt"


@dataclass(frozen=True)
class Proceed:
    """Go on with the top frame: begin its next part, finish a move's stretch, or close a finished reaction."""

    frame: int


@dataclass(frozen=True)
class Opportunity:
    """R1-R3: an opportunity attack with ``card`` against the combatant who provoked it."""

    reactor: int
    frame: int
    card: str
    adjacent: bool = False  # R1: the referee records that the reactor is next to the provoker now


@dataclass(frozen=True)
class Immediate:
    """R4-R8: an immediate interrupt or response, with a card of that kind or a readied action.

    ``target``: whom the card attacks, if it is an attack card. ``negates``: the
    referee's word that the interrupt negates the action it interrupts (R6).
    """

    reactor: int
    frame: int
    mode: str
    card: str | None = None
    target: int | None = None
    negates: bool = False


@dataclass(frozen=True)
class AnswerAttack:
    frame: int
    defender: int
    card: str | None  # None = no answer


@dataclass(frozen=True)
class ConfirmAnswer:
    frame: int
    defender: int
    outcome: str | None = None  # None = accept the proposal (CR2)
    reason: str = ""


@dataclass(frozen=True)
class NextTurn:
    pass


@dataclass(frozen=True)
class EndBattle:
    reason: str


BattleCommand = (
    JoinBattle
    | BeginBattle
    | StartRound
    | NewArsenal
    | Leave
    | Act
    | Proceed
    | Opportunity
    | Immediate
    | AnswerAttack
    | ConfirmAnswer
    | NextTurn
    | EndBattle
    | ChangeCondition
    | CloseSituation
    | InstantStrike
)

COMMAND_TYPES: dict[str, type[Any]] = {
    # "join" like a duel's join, so the log's joins are found the same way (write-back, S2).
    "join": JoinBattle,
    "begin_battle": BeginBattle,
    "start_round": StartRound,
    "new_arsenal": NewArsenal,
    "leave": Leave,
    "act": Act,
    "proceed": Proceed,
    "opportunity": Opportunity,
    "immediate": Immediate,
    "answer_attack": AnswerAttack,
    "confirm_answer": ConfirmAnswer,
    "next_turn": NextTurn,
    "end_battle": EndBattle,
    "change_condition": ChangeCondition,  # rules/battle/referee.py
    "close_situation": CloseSituation,  # rules/battle/referee.py
    # The duel's name for it: the undone draws (IA3) are found by it in every kind's log.
    "instant_attack": InstantStrike,  # rules/battle/instant.py
}
_TYPE_NAMES: dict[type[Any], str] = {cls: name for name, cls in COMMAND_TYPES.items()}


def command_type(command: BattleCommand) -> str:
    return _TYPE_NAMES[type(command)]


def command_to_dict(command: BattleCommand) -> dict[str, Any]:
    out: dict[str, Any] = {"type": command_type(command)}
    for f in fields(command):
        value = getattr(command, f.name)
        out[f.name] = list(value) if isinstance(value, tuple) else value
    if isinstance(command, JoinBattle):
        out["fighter"] = setup_to_dict(command.fighter)
        out["cards"] = [card_to_dict(c) for c in command.cards]
    elif isinstance(command, NewArsenal):
        out["arsenal"] = [card_to_dict(c) for c in command.arsenal]
    return out


def command_from_dict(d: Mapping[str, Any]) -> BattleCommand:
    data = dict(d)
    cls = COMMAND_TYPES[data.pop("type")]
    if cls is JoinBattle:
        return JoinBattle(
            fighter=setup_from_dict(data["fighter"]),
            side=str(data["side"]),
            cards=tuple(card_from_dict(c) for c in data["cards"]),
            strike=bool(data.get("strike", False)),
        )
    if cls is NewArsenal:
        data["arsenal"] = tuple(card_from_dict(c) for c in data["arsenal"])
    for key in ("cards", "targets", "engaged", "order"):
        if isinstance(data.get(key), list):
            data[key] = tuple(data[key])
    return cls(**data)  # type: ignore[no-any-return]

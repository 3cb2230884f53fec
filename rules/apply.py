"""The single entry point for commands: refuse whole or apply whole."""

from __future__ import annotations

import copy
from datetime import datetime

from .commands import (
    Answer,
    Attack,
    Command,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    EndSituation,
    InstantAttack,
    Join,
    RoundChoice,
    SetFocus,
)
from .core import combat_action, utc
from .duel import declare_aggression
from .errors import INPUT, RuleError, gettext_noop
from .events import Event
from .instant import instant_attack
from .rounds import end_duel_command, end_situation_command, round_choice
from .situation import check_current, join, set_focus
from .state import Situation
from .steps import answer, attack, confirm_result


def apply(state: Situation, command: Command, now: datetime, draw: int | None = None) -> tuple[Situation, list[Event]]:
    """Apply one command at ``now`` (aware); ``draw`` is the IA3 blind-draw index.

    Returns the new state and what happened, or raises RuleError. The input
    state is never changed: handlers work on a deep copy, so a refusal half-way
    through leaves nothing behind.
    """
    now = utc(now)
    check_current(state, now)
    if draw is not None and not isinstance(command, InstantAttack):
        raise RuleError(INPUT, gettext_noop("Only an instant attack draws a card."))
    new = copy.deepcopy(state)
    events: list[Event] = []
    match command:
        case Join():
            join(new, command, now, events)
        case SetFocus():
            set_focus(new, command, now, events)
        case _:
            _combat(new, command, now, draw, events)
            # S2: every other accepted command is a combat action.
            combat_action(new, now)
    return new, events


def _combat(state: Situation, command: Command, now: datetime, draw: int | None, events: list[Event]) -> None:
    match command:
        case InstantAttack():
            instant_attack(state, command, now, draw, events)
        case DeclareAggression():
            declare_aggression(state, command, now, events)
        case Attack():
            attack(state, command, now, events)
        case Answer():
            answer(state, command, now, events)
        case ConfirmResult():
            confirm_result(state, command, now, events)
        case RoundChoice():
            round_choice(state, command, now, events)
        case EndDuel():
            end_duel_command(state, command, now, events)
        case EndSituation():
            end_situation_command(state, command, now, events)
        case _:
            raise TypeError(f"not a command: {command!r}")

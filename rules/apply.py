"""The single entry point for commands: refuse whole or apply whole."""

from __future__ import annotations

import copy
from datetime import datetime

from .commands import (
    Answer,
    Attack,
    ChangeCondition,
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
from .events import EngineEvent
from .instant import instant_attack
from .referee import change_condition
from .rounds import end_duel_command, end_situation_command, round_choice
from .situation import check_current, is_held, join, set_focus
from .state import Situation
from .steps import answer, attack, confirm_result

# S2: the commands that are combat actions (attack shown, instant attack, declared aggression, answer).
COMBAT_ACTIONS = (InstantAttack, DeclareAggression, Attack, Answer)


def apply(
    state: Situation, command: Command, now: datetime, draw: int | None = None
) -> tuple[Situation, list[EngineEvent]]:
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
    events: list[EngineEvent] = []
    match command:
        case Join():
            join(new, command, now, events)
        case SetFocus():
            set_focus(new, command, now, events)
        case _:
            _combat(new, command, now, draw, events)
            # S2/IA6: only attacks and answers are combat actions, not the
            # referee's bookkeeping (a result, a round choice, ending a duel,
            # a condition recorded outside a step).
            # A step or a round break holds the situation open; when the hold
            # ends the gap is counted from that moment.
            if isinstance(command, COMBAT_ACTIONS) or (is_held(state) and not is_held(new)):
                combat_action(new, now)
    return new, events


def _combat(state: Situation, command: Command, now: datetime, draw: int | None, events: list[EngineEvent]) -> None:
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
        case ChangeCondition():
            change_condition(state, command, now, events)
        case EndSituation():
            end_situation_command(state, command, now, events)
        case _:
            raise TypeError(f"not a command: {command!r}")

"""The single entry point for commands: refuse whole or apply whole."""

from __future__ import annotations

from datetime import datetime

from rules.clock import utc
from rules.duel.commands import (
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
from rules.duel.core import combat_action
from rules.duel.instant import instant_attack
from rules.duel.opening import declare_aggression
from rules.duel.referee import change_condition
from rules.duel.rounds import end_duel_command, end_situation_command, round_choice
from rules.duel.situation import check_current, is_held, join, set_focus
from rules.duel.state import Situation, clone
from rules.duel.steps import answer, attack, confirm_result
from rules.errors import INPUT, RuleError, gettext_noop
from rules.events import EngineEvent

# S2: the commands that are combat actions (attack shown, instant attack, declared aggression, answer).
COMBAT_ACTIONS = (InstantAttack, DeclareAggression, Attack, Answer)


def apply(
    state: Situation, command: Command, now: datetime, draw: int | None = None
) -> tuple[Situation, list[EngineEvent]]:
    """Apply one command at ``now`` (aware); ``draw`` is the IA3 blind-draw index.

    Returns the new state and what happened, or raises RuleError. The input
    state is never changed: handlers work on a clone (``state.clone``: the
    containers copied, the immutable leaves shared), so a refusal half-way
    through leaves nothing behind.
    """
    new = clone(state)
    events = apply_in_place(new, command, now, draw)
    return new, events


def apply_in_place(state: Situation, command: Command, now: datetime, draw: int | None = None) -> list[EngineEvent]:
    """``apply`` on a state the caller owns and gives up: changed where it lies.

    For replay, which owns its private state: no copy per entry keeps a
    replay linear in the length of the log. A refusal may leave ``state``
    half-changed, so only a caller that discards the state on RuleError
    (replay: a refused entry means a corrupt log) may use it.
    """
    now = utc(now)
    check_current(state, now)
    if draw is not None and not isinstance(command, InstantAttack):
        raise RuleError(INPUT, gettext_noop("Only an instant attack draws a card."))
    events: list[EngineEvent] = []
    held_before = is_held(state)
    match command:
        case Join():
            join(state, command, now, events)
        case SetFocus():
            set_focus(state, command, now, events)
        case _:
            _combat(state, command, now, draw, events)
            # S2/IA6: only attacks and answers are combat actions, not the
            # referee's bookkeeping (a result, a round choice, ending a duel,
            # a condition recorded outside a step).
            # A step or a round break holds the situation open; when the hold
            # ends the gap is counted from that moment.
            if isinstance(command, COMBAT_ACTIONS) or (held_before and not is_held(state)):
                combat_action(state, now)
    return events


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

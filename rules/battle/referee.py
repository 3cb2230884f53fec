"""What the referee records in a battle outside a step: a condition changed by a blow or a healing (CR1, D11).

A finishing blow on a helpless combatant, a healer's spell, the end of a
paralysis: none of them is a step, but the battle's state must know, so they
come through the engine like any command and land in the battle's log. Not a
combat action (S2): the referee is recording, not fighting, so the battle's
idle gap does not restart.

- Refused while the combatant's step is open (D9): an answer window of theirs
  not yet decided, or an action of theirs not finished. The open step decides
  the condition first; then record the rest.
- One who can no longer fight leaves the turn order (D11): their turn, if it
  is now, ends; they are taken out of the round's order; when at most one side
  can still fight, the battle ends (as after a step).
- One healed in the middle of a round comes back into the order at the next
  round (``next_order`` adds whoever can fight), as a newcomer does.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from rules.battle import events as E
from rules.battle.flow import Events, check_sides, end_turn
from rules.battle.state import ENDED, SETUP, TURNS, Battle, Frame
from rules.conditions import can_fight, changed_condition
from rules.errors import INPUT, RuleError, gettext_noop
from rules.events import EngineEvent, event_type


@dataclass(frozen=True)
class ChangeCondition:
    """CR1: the referee adds one condition to a combatant, or clears one, with a reason."""

    combatant: int
    add: str = ""
    clear: str = ""
    reason: str = ""


@event_type("battle_condition_recorded")
@dataclass(frozen=True, kw_only=True)
class ConditionRecorded(EngineEvent):
    """The referee's change outside a step, with its reason (a step's own change is ``ConditionChanged``)."""

    combatant: int
    old: str
    new: str
    reason: str


def _frames(state: Battle) -> list[Frame]:
    return [f for frame in state.stack for f in (frame, *frame.queue)]


def step_open_for(state: Battle, cid: int) -> bool:
    """D9: an answer window of ``cid`` not yet decided, or an action of theirs not finished."""
    for frame in _frames(state):
        if frame.actor == cid and not frame.finished:
            return True
        for part in frame.parts:
            if any(w.defender == cid and not w.resolved for w in part.windows):
                return True
    return False


def change_condition(state: Battle, cmd: ChangeCondition, now: datetime, events: Events) -> None:
    combatant = state.combatants.get(cmd.combatant)
    if combatant is None:
        raise RuleError(INPUT, gettext_noop("Not a combatant of this battle."))
    if state.phase == ENDED:
        raise RuleError("S2", gettext_noop("This battle has ended."))
    new = changed_condition(combatant.condition, combatant.name, add=cmd.add, clear=cmd.clear, reason=cmd.reason)
    if step_open_for(state, cmd.combatant):
        raise RuleError(
            "D9", gettext_noop("Decide the open step of %(name)s first; then record the change."), name=combatant.name
        )
    old, combatant.condition = combatant.condition, new
    events.append(ConditionRecorded(combatant=cmd.combatant, old=old, new=new, reason=cmd.reason.strip()))
    if can_fight(new) or not can_fight(old):
        return
    events.append(E.CombatantOut(combatant=cmd.combatant, condition=new))
    if state.phase != SETUP and check_sides(state, now, events):
        return
    if state.phase == TURNS and state.turn_of == cmd.combatant:
        end_turn(state, now, events)  # D11: their turn ends with them
    _leave_order(state, cmd.combatant)


def _leave_order(state: Battle, cid: int) -> None:
    """D11: out of the round's order; whoever's turn it is keeps it."""
    if cid not in state.order:
        return
    index = state.order.index(cid)
    state.order.remove(cid)
    if index < state.turn or (index == state.turn and state.phase != TURNS):
        state.turn = max(0, state.turn - 1)


@dataclass(frozen=True)
class CloseSituation:
    """S2, IA6: the battle is over, its situation still open, and a new fight takes the situation on.

    The referee closes it now (the core writes the hands back) and the new fight's opening
    carries its clock and its instant attack (duels/services/opening.py ``carry_over``).
    """

    reason: str


@event_type("battle_situation_taken_on")
@dataclass(frozen=True, kw_only=True)
class SituationTakenOn(EngineEvent):
    """S2: the situation goes on in a new fight (its clock and IA6); this row holds no more of it."""

    reason: str


def close_situation_command(state: Battle, cmd: CloseSituation, now: datetime, events: Events) -> None:
    """Close an ended battle's open situation at once, for a new fight that carries it (S2)."""
    if state.closed:
        raise RuleError("S2", gettext_noop("This combat situation has ended; a new one must be opened."))
    if state.phase != ENDED:
        raise RuleError("S2", gettext_noop("The battle is still going on; end it first."))
    if not cmd.reason.strip():
        raise RuleError(INPUT, gettext_noop("Say why the situation is closed."))
    state.closed = True
    state.closed_at = now
    events.append(SituationTakenOn(reason=cmd.reason.strip()))

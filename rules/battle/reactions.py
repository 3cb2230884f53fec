"""Opportunity and immediate actions in battles (rules R0-R8, seed 001).

A battle round is a sequence of turns; the referee records each turn, the
action in progress and the reactions players call out. This module decides
whether a reaction is allowed and what it does to the action it reacts to.
Positions on the ground are not modelled: the referee states the facts the
rules need (was the enemy next to you, did the trigger occur, how far has the
mover moved) and the engine applies the limits.

Readings (docs/battle-rules.md):
- "Next to you" (a neighbouring square on a board) is, in a live game, being
  within reach / engaged; the referee confirms it with ``adjacent``.
- R5 "one immediate action per round" is tracked as the seed words it: since
  the end of your last turn. The allowance comes back when your own turn ends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from rules.clone import clone
from rules.errors import INPUT, RuleError, gettext_noop

# Trigger kinds (R1 lists the three of an opportunity action).
LEAVES_REACH: Final = "leaves_reach"
RANGED_ATTACK: Final = "ranged_attack"
AREA_ATTACK: Final = "area_attack"
MOVEMENT: Final = "movement"
OTHER: Final = "other"
OPPORTUNITY_TRIGGERS: Final[frozenset[str]] = frozenset({LEAVES_REACH, RANGED_ATTACK, AREA_ATTACK})
TRIGGERS: Final[frozenset[str]] = OPPORTUNITY_TRIGGERS | {MOVEMENT, OTHER}

INTERRUPT: Final = "interrupt"
RESPONSE: Final = "response"


@dataclass(frozen=True)
class Trigger:
    """What a combatant did that someone reacts to, as the referee saw it."""

    actor: int
    kind: str
    adjacent: bool = False  # the reactor was next to (within reach of) the actor
    enemy: bool = True
    moved_steps: int = 0  # for MOVEMENT: how far the mover has moved so far (R7)


@dataclass
class Action:
    """The action in progress during a turn, e.g. a double attack of two parts."""

    actor: int
    kind: str
    parts: int = 1
    parts_done: int = 0
    interrupted_by: list[int] = field(default_factory=list)
    lost: bool = False

    @property
    def finished(self) -> bool:
        return self.lost or self.parts_done >= self.parts


@dataclass
class BattleRound:
    round: int
    reactions_from_round: int = 2  # R0, an event setting
    combatants: list[int] = field(default_factory=list)
    turn_of: int | None = None
    turn_seq: int = 0
    action: Action | None = None
    # R2: the turn (by sequence number) in which each combatant last made an opportunity action.
    opportunity_in_turn: dict[int, int] = field(default_factory=dict)
    # R5: combatants who took an immediate action since the end of their last turn.
    immediate_spent: set[int] = field(default_factory=set)


def _require_combatant(state: BattleRound, who: int) -> None:
    if who not in state.combatants:
        raise RuleError(INPUT, gettext_noop("Combatant %(who)s is not in this battle."), who=who)


def _reactions_on(state: BattleRound) -> None:
    if state.round < state.reactions_from_round:
        raise RuleError(
            "R0",
            gettext_noop("Opportunity and immediate actions apply from round %(first)s; this is round %(round)s."),
            first=state.reactions_from_round,
            round=state.round,
        )


def _not_own_turn(state: BattleRound, reactor: int, rule_id: str) -> None:
    if state.turn_of == reactor:
        raise RuleError(rule_id, gettext_noop("Nobody reacts during their own turn."))
    if state.turn_of is None:
        raise RuleError(rule_id, gettext_noop("Reactions happen during another combatant's turn; no turn is on."))


def start_turn(state: BattleRound, combatant: int) -> BattleRound:
    _require_combatant(state, combatant)
    if state.turn_of is not None:
        raise RuleError(INPUT, gettext_noop("Finish the current turn first."))
    new = clone(state)
    new.turn_of = combatant
    new.turn_seq += 1
    new.action = None
    return new


def end_turn(state: BattleRound, combatant: int) -> BattleRound:
    if state.turn_of != combatant:
        raise RuleError(INPUT, gettext_noop("It is not this combatant's turn."))
    new = clone(state)
    new.turn_of = None
    new.action = None
    # R5: "since the end of your last turn" - the allowance returns now.
    new.immediate_spent.discard(combatant)
    return new


def declare_action(state: BattleRound, actor: int, kind: str, parts: int = 1) -> BattleRound:
    if state.turn_of != actor:
        raise RuleError(INPUT, gettext_noop("Only the combatant whose turn it is acts."))
    if parts < 1:
        raise RuleError(INPUT, gettext_noop("An action has at least one part."))
    new = clone(state)
    new.action = Action(actor=actor, kind=kind, parts=parts)
    return new


def resolve_part(state: BattleRound, actor: int) -> BattleRound:
    """One part of the action happens (one attack of a double attack, one step of a move)."""
    if state.action is None or state.action.actor != actor:
        raise RuleError(INPUT, gettext_noop("No action of this combatant is in progress."))
    if state.action.finished:
        lost = state.action.lost
        raise RuleError(
            "R6" if lost else INPUT,
            gettext_noop("That action was negated by an interrupt and is lost.")
            if lost
            else gettext_noop("That action is already finished."),
        )
    new = clone(state)
    assert new.action is not None
    new.action.parts_done += 1
    return new


def opportunity_action(state: BattleRound, reactor: int, trigger: Trigger) -> BattleRound:
    """R1-R3: a reaction to an enemy dropping their guard next to you."""
    _reactions_on(state)
    _require_combatant(state, reactor)
    _not_own_turn(state, reactor, "R2")
    if trigger.kind not in OPPORTUNITY_TRIGGERS or not trigger.enemy or not trigger.adjacent:
        raise RuleError(
            "R1",
            gettext_noop(
                "An opportunity action needs an enemy next to you who leaves your reach "
                "or makes a ranged or area attack."
            ),
        )
    # R1: whoever's turn it is - an enemy's immediate or opportunity ranged attack provokes too.
    if state.opportunity_in_turn.get(reactor) == state.turn_seq:
        raise RuleError("R2", gettext_noop("At most one opportunity action during each other combatant's turn."))
    new = clone(state)
    new.opportunity_in_turn[reactor] = new.turn_seq
    # R3: it interrupts the triggering action - the action waits until it is resolved.
    if new.action is not None and not new.action.finished:
        new.action.interrupted_by.append(reactor)
    return new


def immediate_action(
    state: BattleRound,
    reactor: int,
    kind: str,
    trigger: Trigger,
    *,
    trigger_met: bool,
    negates: bool = False,
) -> BattleRound:
    """R4-R8: an immediate interrupt or response, from a card's trigger or a readied action."""
    _reactions_on(state)
    _require_combatant(state, reactor)
    _not_own_turn(state, reactor, "R5")
    if kind not in (INTERRUPT, RESPONSE):
        raise RuleError(INPUT, gettext_noop("An immediate action is an interrupt or a response."))
    if not trigger_met:
        raise RuleError("R4", gettext_noop("The action's own trigger has not occurred."))
    if reactor in state.immediate_spent:
        raise RuleError(
            "R5", gettext_noop("Only one immediate action per round: none since the end of your last turn.")
        )
    action = state.action
    if kind == INTERRUPT:
        if action is None or action.finished or action.actor != trigger.actor:
            raise RuleError("R6", gettext_noop("An interrupt acts before the triggering action finishes."))
    else:
        _check_response_timing(action, trigger, negates)
    new = clone(state)
    new.immediate_spent.add(reactor)
    if new.action is None:
        return new
    if kind == INTERRUPT:
        new.action.interrupted_by.append(reactor)
        # R6: an interrupt that negates the triggering action - the action is lost.
        new.action.lost = new.action.lost or negates
    elif not new.action.finished:
        # R8: the response comes before the rest of what the actor planned.
        new.action.interrupted_by.append(reactor)
    return new


def _check_response_timing(action: Action | None, trigger: Trigger, negates: bool) -> None:
    """R7: a response acts after its trigger; only movement may be cut into, after one step."""
    if negates:
        raise RuleError("R7", gettext_noop("A response cannot undo its trigger: the trigger has already happened."))
    if trigger.kind == MOVEMENT:
        if trigger.moved_steps < 1:
            raise RuleError("R7", gettext_noop("A response may cut into a move only after the mover's first step."))
        return
    if action is not None and action.actor == trigger.actor and action.parts_done == 0 and not action.lost:
        raise RuleError("R7", gettext_noop("A response acts after its trigger: let the triggering action happen."))

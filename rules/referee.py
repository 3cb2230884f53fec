"""What the referee records outside a step: a condition changed by a blow or a healing (CR1, D11).

A finishing blow on a helpless fighter, a healer's spell after the fight, the
end of a paralysis: none of them is a step of a duel, but the fight's state
must know, so they come through the engine like any command and land in the
fight's log. Not a combat action (S2): the referee is recording, not fighting.
"""

from __future__ import annotations

from datetime import datetime

from .commands import ChangeCondition
from .conditions import CONDITIONS, apply_effect, parts, without
from .core import end_duel, fighters_out, get_fighter, open_duel_of
from .errors import INPUT, RuleError, gettext_noop
from .events import ConditionChanged, EngineEvent, FighterOut
from .state import AWAIT_ATTACK, BETWEEN_ROUNDS, FIGHTER_OUT, Situation


def changed_condition(current: str, name: str, *, add: str = "", clear: str = "", reason: str = "") -> str:
    """The condition after the referee adds one (a blow) or clears one (a healing); refused without a reason.

    The one check for a change inside a fight (``change_condition``) and outside one (the services).
    """
    if not reason.strip():
        raise RuleError("CR1", gettext_noop("Say why the condition changes."))
    if bool(add) == bool(clear):
        raise RuleError(INPUT, gettext_noop("Give one condition to add or one to clear."))
    changed = add or clear
    if changed not in CONDITIONS:
        raise RuleError(INPUT, gettext_noop("Unknown condition %(condition)s."), condition=changed)
    if clear and clear not in parts(current):
        raise RuleError("CR1", gettext_noop("%(name)s is not %(condition)s."), name=name, condition=clear)
    return apply_effect(current, add) if add else without(current, clear)


def change_condition(state: Situation, cmd: ChangeCondition, now: datetime, events: list[EngineEvent]) -> None:
    fighter = get_fighter(state, cmd.fighter)
    new = changed_condition(fighter.condition, fighter.name, add=cmd.add, clear=cmd.clear, reason=cmd.reason)
    duel = open_duel_of(state, fighter.character_id)
    if duel is not None and duel.phase not in (AWAIT_ATTACK, BETWEEN_ROUNDS):
        # D9: the open step decides the condition first; then record the rest.
        raise RuleError("D9", gettext_noop("Decide the open step of %(name)s's duel first."), name=fighter.name)
    old = fighter.condition
    fighter.condition = new
    events.append(
        ConditionChanged(fighter=fighter.character_id, old=old, new=fighter.condition, reason=cmd.reason.strip())
    )
    if duel is not None:
        out = fighters_out(state, duel)
        if out:
            # D11: one who can no longer fight ends the round, and with it the duel.
            for fighter_id in out:
                events.append(
                    FighterOut(duel=duel.number, fighter=fighter_id, condition=state.fighters[fighter_id].condition)
                )
            end_duel(state, duel, FIGHTER_OUT, now, events)

"""What the referee records outside a step: a condition changed by a blow or a healing (CR1, D11).

A finishing blow on a helpless fighter, a healer's spell after the fight, the
end of a paralysis: none of them is a step of a duel, but the fight's state
must know, so they come through the engine like any command and land in the
fight's log. Not a combat action (S2): the referee is recording, not fighting.
"""

from __future__ import annotations

from datetime import datetime

from rules.conditions import changed_condition
from rules.duel.commands import ChangeCondition
from rules.duel.core import end_duel, fighters_out, get_fighter, open_duel_of
from rules.duel.events import FighterOut
from rules.duel.state import AWAIT_ATTACK, BETWEEN_ROUNDS, FIGHTER_OUT, Situation
from rules.errors import RuleError, gettext_noop
from rules.events import ConditionChanged, EngineEvent


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

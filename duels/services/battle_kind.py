"""The battle as a kind of situation (issue 11): the duel's core, the battle's rules.

``BattleKind`` answers the same questions as ``DuelKind`` about a battle's
state; the log helpers (joins, the arsenals and conditions fighters brought
in) are the duel kind's own, because a battle logs its joins the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from duels.models import Situation
from duels.services.duel_kind import DuelKind, FighterResult
from rules import EngineEvent
from rules import battle as B
from rules.cards import CounterRule


class BattleKind(DuelKind):
    """Battles of three or more Others, with opportunity and immediate actions (R0-R8)."""

    key = Situation.Kind.BATTLE

    def open(self, settings: Any, counters: Iterable[CounterRule], now: datetime) -> Any:
        if not isinstance(settings, B.BattleSettings):
            settings = B.BattleSettings(answer_window_s=settings.answer_window_s, gap_s=settings.gap_s)
        return B.open_battle(settings, counters, now)

    def to_dict(self, state: Any) -> dict[str, Any]:
        return B.to_dict(state)

    def from_dict(self, data: dict[str, Any]) -> Any:
        return B.from_dict(data)

    def apply(self, state: Any, command: Any, now: datetime, draw: int | None) -> tuple[Any, list[EngineEvent]]:
        # A battle draws nothing: no chance input reaches it.
        return B.apply(state, command, now)

    def expire(self, state: Any, now: datetime) -> tuple[Any, list[EngineEvent]]:
        return B.expire(state, now)

    def draw_for(self, state: Any, command: Any, situation: Situation | None = None) -> int | None:
        # No blind draw in a battle; ``situation`` is what a duel's kept draw (IA3) looks up.
        return None

    def next_deadline(self, state: Any) -> datetime | None:
        return B.next_deadline(state)

    def encode(self, command: Any) -> dict[str, Any]:
        return B.command_to_dict(command)

    def decode(self, data: dict[str, Any]) -> Any:
        return B.command_from_dict(data)

    def replay_steps(self, opening: Any, steps: list[Any]) -> Any:
        return B.replay(opening, steps)

    def participants(self, state: Any) -> list[int]:
        return list(state.combatants)

    def conditions(self, state: Any) -> dict[int, str]:
        return {cid: c.condition for cid, c in state.combatants.items()}

    def results(self, state: Any) -> dict[int, FighterResult]:
        return {
            cid: FighterResult(
                condition=c.condition,
                hand=sorted(state.cards[uid].face.card_id for uid in c.hand),
                focus_card_id=c.focus_card_id,
            )
            for cid, c in state.combatants.items()
        }

    def busy_with(self, state: Any, character_id: int) -> int | None:
        """Anyone in a battle is busy with it; the first other combatant is named."""
        if character_id not in state.combatants:
            return None
        return next((cid for cid in state.combatants if cid != character_id), None)

    def uid_in_hand(self, state: Any, character_id: int, card_id: int) -> str | None:
        combatant = state.combatants.get(character_id)
        if combatant is None:
            return None
        return next((uid for uid in combatant.hand if state.cards[uid].face.card_id == card_id), None)

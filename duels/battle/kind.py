"""The battle as a kind of the situation core: three or more Others, opportunity and immediate actions.

What the core asks of it (``duels.services.kinds.SituationKind``), answered by
the battle's engine (``rules.battle``). The only chance a battle takes is the
blind draw of an instant attack on a combatant (IA1, IA3), chosen here with
``secrets`` and logged, as a duel's is.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from typing import Any

from django.db import models

from duels.models import LogEntry, Situation
from duels.services.draws import figures, related_undone, undone_draw
from duels.services.kinds import Carried, FighterResult, Step, is_join_type, stated_reason
from duels.services.store import named_by_fighters
from rules import EngineEvent
from rules import battle as B
from rules.battle.referee import ChangeCondition
from rules.cards import CounterRule


class BattleKind:
    """Battles of three or more Others (R0-R8, BP)."""

    key = Situation.Kind.BATTLE
    trims_record = True  # the battle keeps its newest records; the record page replays the log

    # --- state ---------------------------------------------------------------------------------
    def open(self, settings: B.BattleSettings, counters: Iterable[CounterRule], now: datetime) -> B.Battle:
        return B.open_battle(settings, counters, now)

    def to_dict(self, state: B.Battle) -> dict[str, Any]:
        return B.to_dict(state)

    def from_dict(self, data: dict[str, Any]) -> B.Battle:
        return B.from_dict(data)

    # --- transitions -----------------------------------------------------------------------------
    def apply(
        self, state: B.Battle, command: Any, now: datetime, draw: int | None
    ) -> tuple[B.Battle, list[EngineEvent]]:
        return B.apply(state, command, now)

    def expire(self, state: B.Battle, now: datetime) -> tuple[B.Battle, list[EngineEvent]]:
        return B.expire(state, now)

    def chance(self, state: B.Battle, command: Any, situation: Situation | None) -> tuple[Any, int | None]:
        """IA3: an instant attack's blind draw, chosen with ``secrets`` and carried in the command (and the log).

        Repeated after an undo, it reuses the undone draw's card while the
        victim still holds it (duels/services/draws.py).
        """
        if not isinstance(command, B.InstantStrike) or command.draw is not None:
            return command, None
        size = B.instant_draw_size(state, command)
        if not size:
            return command, None
        draw = None
        if situation is not None:
            card_id = undone_draw(situation, command.attacker, command.victim, state.settings.gap_s)
            hand = [state.cards[uid].face.card_id for uid in state.combatants[command.victim].hand]
            if card_id is not None and card_id in hand:
                draw = hand.index(card_id)
        if draw is None:
            draw = secrets.randbelow(size)
        return replace(command, draw=draw), draw

    def next_deadline(self, state: B.Battle) -> datetime | None:
        return B.next_deadline(state)

    def is_ended(self, state: B.Battle) -> bool:
        """S2: the situation, not the battle - a battle over stays open (frozen arsenals, IA6, undo) until the gap."""
        return bool(state.closed)

    def is_empty(self, state: B.Battle) -> bool:
        return not state.combatants

    def ended_at(self, state: B.Battle) -> datetime | None:
        return state.closed_at

    def after_save(self, situation: Situation, before: Any, after: Any) -> None:
        """Nothing outside the characters follows a battle's state."""

    # --- the log ---------------------------------------------------------------------------------
    def encode(self, command: Any) -> dict[str, Any]:
        return B.command_to_dict(command)

    def decode(self, data: dict[str, Any]) -> Any:
        return B.command_from_dict(data)

    def reason_of(self, command: Any) -> str:
        return stated_reason(command)

    def is_join(self, command: dict[str, Any] | None) -> bool:
        """A join; also the begin of a battle opened by an instant attack (IA1): undone with that strike."""
        begun_by_strike = bool(command) and command.get("type") == "begin_battle" and bool(command.get("instant"))  # type: ignore[union-attr]
        return is_join_type(command) or begun_by_strike

    def replay_steps(self, opening: B.Battle, steps: list[Step], *, whole_record: bool = False) -> B.Battle:
        return B.replay(opening, steps, whole_record=whole_record)

    def review(self, situation: Situation, log: list[LogEntry]) -> dict[str, Any]:
        # IA3: the blind draws of instant attacks on combatants - made, undone, reused, redrawn.
        return {"figures": figures(log, related_undone(situation).exclude(situation=situation))}

    # --- who is in it ----------------------------------------------------------------------------
    def participants(self, state: B.Battle) -> list[int]:
        return list(state.combatants)

    def conditions(self, state: B.Battle) -> dict[int, str]:
        return {cid: c.condition for cid, c in state.combatants.items()}

    def results(self, state: B.Battle) -> dict[int, FighterResult]:
        return {
            cid: FighterResult(
                condition=c.condition,
                hand=sorted(state.cards[uid].face.card_id for uid in c.hand),
                focus_card_id=c.focus_card_id,
                composed=c.composed,
            )
            for cid, c in state.combatants.items()
        }

    def condition_command(
        self, state: B.Battle, character_id: int, *, add: str, clear: str, reason: str
    ) -> ChangeCondition | None:
        if character_id not in state.combatants:
            return None
        return ChangeCondition(combatant=character_id, add=add, clear=clear, reason=reason)

    def named_rows(self, situation: Situation) -> dict[type[models.Model], set[int]]:
        return named_by_fighters(situation, self)

    def focus_command(self, state: B.Battle, character_id: int, card: str | None) -> Any:
        return None

    def carry_on(self, state: B.Battle, reason: str) -> Carried | None:
        """S2: a battle over (BP5) whose situation is open; its clock and IA6 go on in the new fight."""
        if state.closed or state.phase != B.ENDED:
            return None
        last = state.last_action_at or state.ended_at
        return Carried(B.CloseSituation(reason=reason), last, bool(state.instant_attack_used))


KIND = BattleKind()

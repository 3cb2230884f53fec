"""The duel situation as a kind of the situation core (S, IA, F, AG, D, CR).

What the core asks of it (``duels.services.kinds.SituationKind``), answered by
the duel's engine (``rules.duel``). The only chance a duel takes is the blind
draw of an instant attack (IA3), chosen here with ``secrets`` and logged.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db import models

import rules
from duels.duel.draws import figures, related_undone, undone_draw
from duels.models import LogEntry, Situation
from duels.services.kinds import Carried, FighterResult, Step, is_join_type, stated_reason
from duels.services.store import named_by_fighters
from rules import duel as engine


class DuelKind:
    """Combat situations of instant attacks, aggression and duels."""

    key = Situation.Kind.DUEL
    trims_record = True  # each duel keeps its newest steps; the record page replays the log

    # --- state ---------------------------------------------------------------------------------
    def open(self, settings: engine.Settings, counters: Iterable[rules.CounterRule], now: datetime) -> engine.Situation:
        return engine.open_situation(settings, counters, now)

    def to_dict(self, state: engine.Situation) -> dict[str, Any]:
        return engine.to_dict(state)

    def from_dict(self, data: dict[str, Any]) -> engine.Situation:
        return engine.from_dict(data)

    # --- transitions -----------------------------------------------------------------------------
    def apply(
        self, state: engine.Situation, command: Any, now: datetime, draw: int | None
    ) -> tuple[engine.Situation, list[rules.EngineEvent]]:
        return engine.apply(state, command, now, draw)

    def expire(self, state: engine.Situation, now: datetime) -> tuple[engine.Situation, list[rules.EngineEvent]]:
        return engine.expire(state, now)

    def chance(self, state: engine.Situation, command: Any, situation: Situation | None) -> tuple[Any, int | None]:
        return command, self.draw_for(state, command, situation)

    def draw_for(self, state: engine.Situation, command: Any, situation: Situation | None = None) -> int | None:
        """IA3: the blind draw, chosen here with ``secrets`` (the engine holds no chance) and logged for replay.

        An instant attack repeated after an undo reuses the undone draw's card
        while the victim still holds it (duels/duel/draws.py).
        """
        if not isinstance(command, engine.InstantAttack):
            return None
        size = engine.draw_size_for(state, command)
        if not size:
            return None
        if situation is not None:
            card_id = undone_draw(situation, command.attacker, command.victim, state.settings.gap_s)
            hand = [state.cards[uid].card_id for uid in state.fighters[command.victim].hand]
            if card_id is not None and card_id in hand:
                return hand.index(card_id)
        return secrets.randbelow(size)

    def next_deadline(self, state: engine.Situation) -> datetime | None:
        return engine.next_deadline(state)

    def is_ended(self, state: engine.Situation) -> bool:
        return bool(state.ended)

    def is_empty(self, state: engine.Situation) -> bool:
        return not state.fighters

    def ended_at(self, state: engine.Situation) -> datetime | None:
        return state.ended_at

    def after_save(self, situation: Situation, before: Any, after: Any) -> None:
        """Nothing outside the characters follows a duel's state."""

    # --- the log ---------------------------------------------------------------------------------
    def encode(self, command: Any) -> dict[str, Any]:
        return engine.command_to_dict(command)

    def decode(self, data: dict[str, Any]) -> Any:
        return engine.command_from_dict(data)

    def reason_of(self, command: Any) -> str:
        return stated_reason(command)

    def is_join(self, command: dict[str, Any] | None) -> bool:
        return is_join_type(command)

    def replay_steps(
        self, opening: engine.Situation, steps: list[Step], *, whole_record: bool = False
    ) -> engine.Situation:
        return engine.replay(opening, steps, whole_record=whole_record)

    def review(self, situation: Situation, log: list[LogEntry]) -> dict[str, Any]:
        # IA3: blind draws made, undone, reused after an undo, and redrawn.
        return {"figures": figures(log, related_undone(situation).exclude(situation=situation))}

    # --- who is in it ----------------------------------------------------------------------------
    def participants(self, state: engine.Situation) -> list[int]:
        return list(state.fighters)

    def conditions(self, state: engine.Situation) -> dict[int, str]:
        return {cid: f.condition for cid, f in state.fighters.items()}

    def results(self, state: engine.Situation) -> dict[int, FighterResult]:
        out = {}
        for cid, fighter in state.fighters.items():
            focus = state.cards[fighter.focus].card_id if fighter.focus is not None else None
            hand = sorted(state.cards[uid].card_id for uid in fighter.hand)
            out[cid] = FighterResult(
                condition=fighter.condition, hand=hand, focus_card_id=focus, composed=fighter.composed
            )
        return out

    def condition_command(
        self, state: engine.Situation, character_id: int, *, add: str, clear: str, reason: str
    ) -> engine.ChangeCondition | None:
        if character_id not in state.fighters:
            return None
        return engine.ChangeCondition(fighter=character_id, add=add, clear=clear, reason=reason)

    def named_rows(self, situation: Situation) -> dict[type[models.Model], set[int]]:
        return named_by_fighters(situation, self)

    def focus_command(self, state: engine.Situation, character_id: int, card: str | None) -> engine.SetFocus | None:
        return engine.SetFocus(fighter=character_id, card=card) if character_id in state.fighters else None

    def carry_on(self, state: engine.Situation, reason: str) -> Carried | None:
        """S2: every duel in the situation is over, the situation open; EndSituation closes it (issue 11)."""
        if state.ended or not state.duels or any(d.phase != engine.ENDED for d in state.duels):
            return None
        return Carried(engine.EndSituation(reason=reason), state.last_action_at, bool(state.instant_attack_used))

    # --- the duel's own questions (its start asks them) ------------------------------------------
    def busy_with(self, state: engine.Situation, character_id: int) -> int | None:
        """The opponent of ``character_id`` in an open duel, if any (D1)."""
        duel = engine.open_duel_of(state, character_id) if character_id in state.fighters else None
        if duel is None:
            return None
        return int(duel.other(character_id))

    def uid_in_hand(self, state: engine.Situation, character_id: int, card_id: int) -> str | None:
        """The first copy of catalogue card ``card_id`` in the fighter's hand."""
        fighter = state.fighters.get(character_id)
        if fighter is None:
            return None
        return next((uid for uid in fighter.hand if state.cards[uid].card_id == card_id), None)


KIND = DuelKind()

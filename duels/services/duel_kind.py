"""The duel situation's kind (S, IA, F, AG, D, CR): everything the situation core asks of a kind.

Battles build on it (battle_kind.py); the registry of kinds is kinds.py.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

import rules
from duels.models import LogEntry, Situation
from duels.services.draws import undone_draw
from rules import duel as engine


@dataclass(frozen=True)
class FighterResult:
    """What a fighter carries out of a situation, for the write-back to ``Character``."""

    condition: str
    hand: list[int]  # card ids, one per copy
    focus_card_id: int | None
    # S2: the arsenal the fighter last composed in the fight (D3, a round break), if any.
    composed: list[int] | None = None


class DuelKind:
    """Combat situations of instant attacks, aggression and duels (S, IA, F, AG, D, CR)."""

    key = Situation.Kind.DUEL

    # --- state ---------------------------------------------------------------------------------
    def open(self, settings: engine.Settings, counters: Iterable[rules.CounterRule], now: datetime) -> Any:
        return engine.open_situation(settings, counters, now)

    def to_dict(self, state: Any) -> dict[str, Any]:
        return engine.to_dict(state)

    def from_dict(self, data: dict[str, Any]) -> Any:
        return engine.from_dict(data)

    # --- transitions -----------------------------------------------------------------------------
    def apply(self, state: Any, command: Any, now: datetime, draw: int | None) -> tuple[Any, list[rules.EngineEvent]]:
        return engine.apply(state, command, now, draw)

    def expire(self, state: Any, now: datetime) -> tuple[Any, list[rules.EngineEvent]]:
        return engine.expire(state, now)

    def chance(self, state: Any, command: Any, situation: Situation | None = None) -> tuple[Any, int | None]:
        """The chance a command needs, chosen with ``secrets`` and logged for replay (the core calls this).

        Every kind answers with the command as it is to be logged and applied
        (a mass battle puts its dice and deck order inside it) and the ``draw``
        column's value (here the blind draw, IA3, of ``draw_for``).
        """
        return command, self.draw_for(state, command, situation)

    def draw_for(self, state: Any, command: Any, situation: Situation | None = None) -> int | None:
        """IA3: the blind draw, chosen here with ``secrets`` (the engine holds no chance) and logged for replay.

        An instant attack repeated after an undo reuses the undone draw's card
        while the victim still holds it (duels/services/draws.py).
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

    def next_deadline(self, state: Any) -> datetime | None:
        return engine.next_deadline(state)

    def is_ended(self, state: Any) -> bool:
        return bool(state.ended)

    def is_empty(self, state: Any) -> bool:
        """Nobody is in it any more (an undo took the start back): the row is closed."""
        return not self.participants(state)

    def after_save(self, situation: Situation, before: Any, after: Any) -> None:
        """Rows outside the situation that follow its state, besides the characters' write-back."""

    def ended_at(self, state: Any) -> datetime | None:
        return state.ended_at

    # --- the log ---------------------------------------------------------------------------------
    def encode(self, command: Any) -> dict[str, Any]:
        return engine.command_to_dict(command)

    def decode(self, data: dict[str, Any]) -> Any:
        return engine.command_from_dict(data)

    def reason_of(self, command: Any) -> str:
        # An override (CR2) or the referee ending a duel (D2) states a reason.
        return str(getattr(command, "reason", "") or "").strip()

    def replay(self, opening: dict[str, Any], entries: Iterable[LogEntry]) -> Any:
        """The state the log leads to: its live entries (not undone, no undo rows) in order."""
        steps: list[engine.LogEntry] = []
        for entry in entries:
            if entry.undone or entry.kind == LogEntry.Kind.UNDO:
                continue
            if entry.kind == LogEntry.Kind.EXPIRE:
                steps.append(("expire", entry.at))
            else:  # a battle records no draw, so its ``draw`` is always None
                steps.append(("command", self.decode(entry.command or {}), entry.at, entry.draw))
        return self.replay_steps(self.from_dict(opening), steps)

    def replay_steps(self, opening: Any, steps: list[engine.LogEntry]) -> Any:
        return engine.replay(opening, steps)

    def is_join(self, command: dict[str, Any] | None) -> bool:
        return bool(command) and command.get("type") == "join"  # type: ignore[union-attr]

    def joins(self, situation: Situation) -> QuerySet[LogEntry]:
        """The log's joins, undone ones too, in order: all the write-back needs, however long the fight."""
        return situation.log.filter(kind=LogEntry.Kind.COMMAND, command__type="join").order_by("seq")

    def joined_arsenals(self, entries: Iterable[LogEntry]) -> dict[int, list[int]]:
        """Card ids each fighter held when they joined: "restore to the original" (S2)."""
        found: dict[int, list[int]] = {}
        for entry in entries:
            if entry.undone or entry.kind != LogEntry.Kind.COMMAND or not self.is_join(entry.command):
                continue
            fighter = (entry.command or {})["fighter"]
            found[int(fighter["character_id"])] = sorted(int(face["card_id"]) for face in fighter["hand"])
        return found

    def joined_conditions(self, entries: Iterable[LogEntry]) -> dict[int, str]:
        """The condition each fighter brought in with their latest join, undone or not.

        An undo that takes a join back (with the start it belonged to) removes
        the fighter from the state; this is the condition to give them back.
        """
        found: dict[int, str] = {}
        for entry in entries:
            if entry.kind == LogEntry.Kind.COMMAND and self.is_join(entry.command):
                fighter = (entry.command or {})["fighter"]
                found[int(fighter["character_id"])] = str(fighter["condition"])
        return found

    # --- who is in it ----------------------------------------------------------------------------
    def participants(self, state: Any) -> list[int]:
        return list(state.fighters)

    def conditions(self, state: Any) -> dict[int, str]:
        return {cid: f.condition for cid, f in state.fighters.items()}

    def results(self, state: Any) -> dict[int, FighterResult]:
        out = {}
        for cid, fighter in state.fighters.items():
            focus = state.cards[fighter.focus].card_id if fighter.focus is not None else None
            hand = sorted(state.cards[uid].card_id for uid in fighter.hand)
            out[cid] = FighterResult(
                condition=fighter.condition, hand=hand, focus_card_id=focus, composed=fighter.composed
            )
        return out

    def busy_with(self, state: Any, character_id: int) -> int | None:
        """The opponent of ``character_id`` in an open duel, if any (D1)."""
        duel = engine.open_duel_of(state, character_id) if character_id in state.fighters else None
        if duel is None:
            return None
        return int(duel.other(character_id))

    def uid_in_hand(self, state: Any, character_id: int, card_id: int) -> str | None:
        """The first copy of catalogue card ``card_id`` in the fighter's hand."""
        fighter = state.fighters.get(character_id)
        if fighter is None:
            return None
        return next((uid for uid in fighter.hand if state.cards[uid].card_id == card_id), None)

"""The mass battle's magic phase (M1-M8) as a kind of the one situation core.

Same interface as ``DuelKind`` (``duels.services.kinds``): the lock, log,
version, nonce, undo and replay are the core's. What differs:

- chance goes inside the logged command: the deck order of ``ShuffleDecks``
  (M1) and the server's dice of ``RollInitiative`` (M4, M8) are chosen here
  with ``secrets``; dice the referee read off real dice arrive in the command;
- no character takes part (``participants`` is empty), so no arsenal is frozen
  and no duel is blocked by a mass battle; the shuffle is the start and can
  never be undone on its own, so the row never empties;
- the warriors' places are mirrored onto their ``Warrior`` rows after every
  change, undo included (``after_save``).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

import rules.mass as magic
from cards.models_mass import Warrior
from duels.models import LogEntry, Situation
from rules.events import EngineEvent

_random = secrets.SystemRandom()


def roll_die() -> int:
    """One fair die from the operating system's cryptographic source (M8)."""
    return secrets.randbelow(6) + 1


def shuffled(uids: list[str]) -> tuple[str, ...]:
    order = list(uids)
    _random.shuffle(order)  # Fisher-Yates over os.urandom: every order equally likely (M1)
    return tuple(order)


class MassBattleKind:
    key = Situation.Kind.MASS_BATTLE

    # --- state ---------------------------------------------------------------------------------
    def to_dict(self, state: magic.MassBattle) -> dict[str, Any]:
        return magic.to_dict(state)

    def from_dict(self, data: dict[str, Any]) -> magic.MassBattle:
        return magic.from_dict(data)

    # --- transitions -----------------------------------------------------------------------------
    def apply(
        self, state: magic.MassBattle, command: Any, now: datetime, draw: int | None
    ) -> tuple[magic.MassBattle, list[EngineEvent]]:
        return magic.apply(state, command)  # typed events (rules/mass/events.py)

    def expire(self, state: magic.MassBattle, now: datetime) -> tuple[magic.MassBattle, list[EngineEvent]]:
        return state, []  # the magic phase has no deadlines

    def chance(
        self, state: magic.MassBattle, command: Any, situation: Situation | None = None
    ) -> tuple[Any, int | None]:
        if isinstance(command, magic.ShuffleDecks):
            order = tuple((deck, shuffled(uids)) for deck, uids in magic.deck_contents(state).items())
            return magic.ShuffleDecks(order=order), None
        if isinstance(command, magic.RollInitiative) and command.source == magic.SERVER:
            # Whatever a request carried, a server roll is the server's.
            return magic.RollInitiative(source=magic.SERVER, dice=(roll_die(), roll_die())), None
        return command, None

    def next_deadline(self, state: magic.MassBattle) -> datetime | None:
        return None

    def is_ended(self, state: magic.MassBattle) -> bool:
        return state.ended

    def is_empty(self, state: magic.MassBattle) -> bool:
        return False

    def ended_at(self, state: magic.MassBattle) -> datetime | None:
        return None  # the core uses the time of the ending command

    def after_save(self, situation: Situation, before: magic.MassBattle, after: magic.MassBattle) -> None:
        for wid, warrior in after.warriors.items():
            old = before.warriors.get(wid)
            if old is None or old.place != warrior.place:
                Warrior.objects.filter(pk=int(wid)).update(state=warrior.place)

    # --- the log ---------------------------------------------------------------------------------
    def encode(self, command: Any) -> dict[str, Any]:
        return magic.command_to_dict(command)

    def decode(self, data: dict[str, Any]) -> Any:
        return magic.command_from_dict(data)

    def reason_of(self, command: Any) -> str:
        return str(getattr(command, "reason", "") or "").strip()

    def replay(self, opening: dict[str, Any], entries: Iterable[LogEntry]) -> magic.MassBattle:
        commands = [
            self.decode(entry.command or {})
            for entry in entries
            if not entry.undone and entry.kind == LogEntry.Kind.COMMAND
        ]
        return magic.replay(self.from_dict(opening), commands)

    def is_join(self, command: dict[str, Any] | None) -> bool:
        # The shuffle is the battle's start: undo never takes it back (M1).
        return bool(command) and command.get("type") == "shuffle_decks"  # type: ignore[union-attr]

    def joins(self, situation: Situation) -> QuerySet[LogEntry]:
        return situation.log.none()

    def joined_arsenals(self, entries: Iterable[LogEntry]) -> dict[int, list[int]]:
        return {}

    def joined_conditions(self, entries: Iterable[LogEntry]) -> dict[int, str]:
        return {}

    # --- who is in it ----------------------------------------------------------------------------
    def participants(self, state: magic.MassBattle) -> list[int]:
        return []

    def conditions(self, state: magic.MassBattle) -> dict[int, str]:
        return {}

    def results(self, state: magic.MassBattle) -> dict[int, Any]:
        return {}

    def busy_with(self, state: magic.MassBattle, character_id: int) -> int | None:
        return None

    def uid_in_hand(self, state: magic.MassBattle, character_id: int, card_id: int) -> str | None:
        return None

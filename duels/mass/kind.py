"""The mass battle's magic phase (M1-M8) as a kind of the situation core.

What the core asks of it (``duels.services.kinds.SituationKind``), answered by
the mass battle's engine (``rules.mass``). What differs from a duel:

- chance goes inside the logged command: the deck order of ``ShuffleDecks``
  (M1) and the server's dice of ``RollInitiative`` (M4, M8) are chosen here
  with ``secrets``; dice the referee read off real dice arrive in the command;
- no character takes part (the warriors are an army's, not characters), so
  no arsenal is frozen and no duel is blocked by a mass battle; the shuffle is
  the start and is never undone on its own, so the row never empties;
- the warriors' places are mirrored onto their ``Warrior`` rows after every
  change, undo included (``after_save``).
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from django.db import models

from cards.models_mass import Army, MagicCard, Warrior
from duels.mass.rolls import figures, undone_roll
from duels.models import LogEntry, Situation
from duels.services.kinds import Carried, FighterResult, Step, stated_reason
from rules import EngineEvent, mass

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
    trims_record = False  # its record is its state (rolls, casualties): small, bounded by the armies

    # --- state ---------------------------------------------------------------------------------
    def to_dict(self, state: mass.MassBattle) -> dict[str, Any]:
        return mass.to_dict(state)

    def from_dict(self, data: dict[str, Any]) -> mass.MassBattle:
        return mass.from_dict(data)

    # --- transitions -----------------------------------------------------------------------------
    def apply(
        self, state: mass.MassBattle, command: Any, now: datetime, draw: int | None
    ) -> tuple[mass.MassBattle, list[EngineEvent]]:
        return mass.apply(state, command)

    def expire(self, state: mass.MassBattle, now: datetime) -> tuple[mass.MassBattle, list[EngineEvent]]:
        return state, []  # the magic phase has no deadlines

    def chance(self, state: mass.MassBattle, command: Any, situation: Situation | None) -> tuple[Any, int | None]:
        if isinstance(command, mass.ShuffleDecks):
            if state.settings.printed_decks:
                # M1: the real decks are shuffled by hand; the record starts from what each deck holds.
                order = tuple((deck, tuple(uids)) for deck, uids in mass.deck_contents(state).items())
                return mass.ShuffleDecks(order=order), None
            order = tuple((deck, shuffled(uids)) for deck, uids in mass.deck_contents(state).items())
            return mass.ShuffleDecks(order=order), None
        if isinstance(command, mass.RollInitiative) and command.source == mass.SERVER:
            # M4: a roll undone and repeated keeps its dice (duels/mass/rolls.py).
            kept = undone_roll(situation, *mass.next_roll(state)) if situation is not None else None
            if kept is not None:
                return mass.RollInitiative(source=kept.source, dice=(kept.a, kept.b)), None
            # Whatever a request carried, a server roll is the server's.
            return mass.RollInitiative(source=mass.SERVER, dice=(roll_die(), roll_die())), None
        return command, None

    def next_deadline(self, state: mass.MassBattle) -> datetime | None:
        return None

    def is_ended(self, state: mass.MassBattle) -> bool:
        return state.ended

    def is_empty(self, state: mass.MassBattle) -> bool:
        return False  # the shuffle, its start, is never undone

    def ended_at(self, state: mass.MassBattle) -> datetime | None:
        return None  # the core uses the time of the ending command

    def after_save(self, situation: Situation, before: mass.MassBattle, after: mass.MassBattle) -> None:
        for wid, warrior in after.warriors.items():
            old = before.warriors.get(wid)
            if old is None or old.place != warrior.place:
                Warrior.objects.filter(pk=int(wid)).update(state=warrior.place)

    # --- the log ---------------------------------------------------------------------------------
    def encode(self, command: Any) -> dict[str, Any]:
        return mass.command_to_dict(command)

    def decode(self, data: dict[str, Any]) -> Any:
        return mass.command_from_dict(data)

    def reason_of(self, command: Any) -> str:
        return stated_reason(command)

    def is_join(self, command: dict[str, Any] | None) -> bool:
        # The shuffle is the battle's start: undo never takes it back (M1).
        return bool(command) and command.get("type") == "shuffle_decks"  # type: ignore[union-attr]

    def replay_steps(
        self, opening: mass.MassBattle, steps: list[Step], *, whole_record: bool = False
    ) -> mass.MassBattle:
        return mass.replay(opening, [step[1] for step in steps if step[0] == "command"])

    def review(self, situation: Situation, log: list[LogEntry]) -> dict[str, Any]:
        # M4: initiative rolls made, undone, kept after an undo, and re-rolled.
        return {"figures": figures(log)}

    # --- who is in it: no character (the warriors are the army's) --------------------------------
    def participants(self, state: mass.MassBattle) -> list[int]:
        return []

    def conditions(self, state: mass.MassBattle) -> dict[int, str]:
        return {}

    def results(self, state: mass.MassBattle) -> dict[int, FighterResult]:
        return {}

    def condition_command(self, state: mass.MassBattle, character_id: int, *, add: str, clear: str, reason: str) -> Any:
        return None

    def named_rows(self, situation: Situation) -> dict[type[models.Model], set[int]]:
        """The warriors, magic cards and armies its opening and state name (no character takes part)."""
        state, opening = self.from_dict(situation.state), self.from_dict(situation.opening)
        armies = situation.opening.get("armies") or {}
        return {
            Warrior: {int(wid) for wid in [*state.warriors, *opening.warriors]},
            MagicCard: {int(face.card_id) for face in [*state.cards.values(), *opening.cards.values()]},
            Army: {int(army_id) for army_id in armies.values()},
        }

    def focus_command(self, state: mass.MassBattle, character_id: int, card: str | None) -> Any:
        return None

    def carry_on(self, state: mass.MassBattle, reason: str) -> Carried | None:
        # Its warriors are not characters: no character of a mass battle is carried into another fight.
        return None


KIND = MassBattleKind()

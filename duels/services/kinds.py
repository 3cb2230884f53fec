"""The kind Protocol: what the situation core asks of every kind of fight, and the registry.

The core (lock, log, version, nonce, undo, replay, timers, write-back, export)
is the same for every kind; what a state looks like, which commands exist,
where chance comes in and who is in the fight is the kind's business. A kind
is a class in its wing (``duels/duel/kind.py``, ``duels/battle/kind.py``,
``duels/mass/kind.py``) that ``DuelsConfig.ready`` registers here; the core
never imports a wing, it asks ``kind_of(situation)``.

mypy checks every registered kind against ``SituationKind``: a kind that lacks
a method, or answers one with the wrong type, fails the type check at its
``register`` call (tests/test_kinds_protocol.py proves it can).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from django.db import models

from duels.models import LogEntry, Situation
from rules import EngineEvent


@dataclass(frozen=True)
class FighterResult:
    """What a fighter carries out of a situation, for the write-back to ``Character``."""

    condition: str
    hand: list[int]  # card ids, one per copy
    focus_card_id: int | None
    # S2, D3: the arsenal the fighter last composed in the fight (at a break between bouts), if any.
    composed: list[int] | None = None


# A log step as a kind's engine replays it: ("expire", at) or ("command", command, at, draw).
Step = tuple[Any, ...]


class SituationKind(Protocol):
    """One kind of fight, as the situation core sees it. Every method is pure but ``after_save``."""

    @property
    def key(self) -> str:
        """Its ``Situation.Kind`` value."""
        ...

    @property
    def trims_record(self) -> bool:
        """Its stored state keeps only the newest finished steps; the whole record is a replay (issue 24)."""
        ...

    # --- the state ------------------------------------------------------------------------------
    def to_dict(self, state: Any) -> dict[str, Any]: ...

    def from_dict(self, data: dict[str, Any]) -> Any: ...

    # --- transitions ----------------------------------------------------------------------------
    def apply(self, state: Any, command: Any, now: datetime, draw: int | None) -> tuple[Any, list[EngineEvent]]:
        """The engine's answer to one command; a refusal raises ``RuleError`` and changes nothing."""
        ...

    def expire(self, state: Any, now: datetime) -> tuple[Any, list[EngineEvent]]:
        """Every deadline overdue at ``now`` applied (D8, S2); idempotent."""
        ...

    def chance(self, state: Any, command: Any, situation: Situation | None) -> tuple[Any, int | None]:
        """The command as it is to be logged and applied, and the log's ``draw`` column.

        Chance is chosen here with ``secrets`` (never in the engine): the blind
        draw of an instant attack (IA3), a deck order (M1), dice (M4, M8).
        """
        ...

    def next_deadline(self, state: Any) -> datetime | None: ...

    def is_ended(self, state: Any) -> bool:
        """The situation is over (S2's gap, or the referee closed it): the row closes for good."""
        ...

    def is_empty(self, state: Any) -> bool:
        """Nobody is in it any more (an undo took the start back): the row is closed."""
        ...

    def ended_at(self, state: Any) -> datetime | None: ...

    def after_save(self, situation: Situation, before: Any, after: Any) -> None:
        """Rows outside the situation that follow its state (besides the characters' write-back)."""
        ...

    # --- the log --------------------------------------------------------------------------------
    def encode(self, command: Any) -> dict[str, Any]: ...

    def decode(self, data: dict[str, Any]) -> Any: ...

    def reason_of(self, command: Any) -> str:
        """The reason a command states (an override, the referee ending a fight), or ""."""
        ...

    def is_join(self, command: dict[str, Any] | None) -> bool:
        """A logged command that belongs to the start it was logged with: undone only with it."""
        ...

    def replay_steps(self, opening: Any, steps: list[Step], *, whole_record: bool = False) -> Any:
        """The state the live log steps lead to from the opening state (``replay`` in the core).

        ``whole_record``: keep every finished step, not only those the stored state keeps.
        """
        ...

    def review(self, situation: Situation, log: list[LogEntry]) -> dict[str, Any]:
        """What the post-game export adds for this kind (e.g. the blind draws' figures, IA3)."""
        ...

    # --- who is in it ---------------------------------------------------------------------------
    def participants(self, state: Any) -> list[int]:
        """The characters in the fight (a mass battle's warriors are not characters: none)."""
        ...

    def conditions(self, state: Any) -> dict[int, str]:
        """Each participant's condition now: written onto the character whenever it changes."""
        ...

    def results(self, state: Any) -> dict[int, FighterResult]:
        """What each participant carries out when the situation ends."""
        ...

    def condition_command(self, state: Any, character_id: int, *, add: str, clear: str, reason: str) -> Any:
        """The engine command recording a condition change of a participant (CR1, D11), or None.

        None: the kind has no such participant, and the change is the character's alone.
        """
        ...

    def named_rows(self, situation: Situation) -> dict[type[models.Model], set[int]]:
        """The rows outside the situation its opening, state and log name by id (the event file checks them)."""
        ...

    def focus_command(self, state: Any, character_id: int, card: str | None) -> Any:
        """F1 during the fight: the engine command focusing ``card`` (a uid; None drops the focus), or None.

        None: this kind keeps the hands as they are during the fight; the focus waits.
        """
        ...

    def carry_on(self, state: Any, reason: str) -> Carried | None:
        """S2, IA6: the fight is over but its situation is open (within the gap): what a new fight takes on.

        The command closing this situation now (by the referee, ``reason`` stated), and its
        clock and instant attack for the new fight's opening. None: a fight is still running
        in it, or it is closed, or the kind has no characters to carry.
        """
        ...


@dataclass(frozen=True)
class Carried:
    """An open situation a new fight takes on (S2, IA6): how to close it, its clock, its instant attack."""

    close: Any
    last_action_at: datetime | None
    instant_attack_used: bool


KINDS: dict[str, SituationKind] = {}


def register(kind: SituationKind) -> SituationKind:
    """Add a kind of fight (``DuelsConfig.ready``); a second kind under the same key is a bug."""
    if kind.key in KINDS and type(KINDS[kind.key]) is not type(kind):
        raise ValueError(f"two kinds of fight are registered as {kind.key!r}")
    KINDS[kind.key] = kind
    return kind


def kind_for(key: str) -> SituationKind:
    return KINDS[key]


def kind_of(situation: Situation) -> SituationKind:
    return KINDS[situation.kind]


def replay(kind: SituationKind, opening: dict[str, Any], entries: Iterable[Any], *, whole_record: bool = False) -> Any:
    """The state a log leads to: its live entries (not undone, no undo rows) in order, for every kind.

    ``entries`` are ``LogEntry`` rows or rows of the same fields (``ReplayRow``).
    ``whole_record``: every finished step kept (the record page, the export; ``kind.trims_record``).
    """
    steps: list[Step] = []
    for entry in entries:
        if entry.undone or entry.kind == LogEntry.Kind.UNDO:
            continue
        if entry.kind == LogEntry.Kind.EXPIRE:
            steps.append(("expire", entry.at))
        else:
            steps.append(("command", kind.decode(entry.command or {}), entry.at, entry.draw))
    return kind.replay_steps(kind.from_dict(opening), steps, whole_record=whole_record)


def stated_reason(command: Any) -> str:
    """A command's ``reason`` field, stripped (an override, CR2; an end, D2; an undo): "" without one."""
    return str(getattr(command, "reason", "") or "").strip()


def is_join_type(command: dict[str, Any] | None) -> bool:
    """The duel's and the battle's joins are logged as type "join" (the write-back finds them so)."""
    return bool(command) and command.get("type") == "join"  # type: ignore[union-attr]

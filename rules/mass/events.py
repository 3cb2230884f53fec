"""What happened in a magic phase: one frozen dataclass per kind, registered by name.

Type names start with ``mass_`` so they never collide with the duel's or a
battle's in the shared registry (``rules.events``). Fields are JSON-safe; the
log stores ``to_dict()`` and the pages word them.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.events import EngineEvent, event_type


@event_type("mass_decks_shuffled")
@dataclass(frozen=True, kw_only=True)
class DecksShuffled(EngineEvent):
    sizes: dict[str, int]  # deck number (as text, JSON keys) -> cards in it
    printed: bool = False  # M1: the printed decks, shuffled by hand at the table


@event_type("mass_initiative_rolled")
@dataclass(frozen=True, kw_only=True)
class InitiativeRolled(EngineEvent):
    cycle: int
    a: int
    b: int
    source: str  # M8: "server" or "referee"
    nth: int = 0  # M4: the roll's number in its cycle (2 after a tie); 0 in logs older than it


@event_type("mass_initiative_tied")
@dataclass(frozen=True, kw_only=True)
class InitiativeTied(EngineEvent):
    cycle: int


@event_type("mass_initiative_won")
@dataclass(frozen=True, kw_only=True)
class InitiativeWon(EngineEvent):
    cycle: int
    side: str


@event_type("mass_starter_chosen")
@dataclass(frozen=True, kw_only=True)
class StarterChosen(EngineEvent):
    chooser: str
    starter: str


@event_type("mass_points_used")
@dataclass(frozen=True, kw_only=True)
class PointsUsed(EngineEvent):
    side: str
    points: int


@event_type("mass_nothing_happens")
@dataclass(frozen=True, kw_only=True)
class NothingHappens(EngineEvent):
    side: str
    points: int
    why: str  # "empty_hospital", "empty_deck" (all its cards kept) or "no_deck" (the battle has none of it)


@event_type("mass_card_declined")
@dataclass(frozen=True, kw_only=True)
class CardDeclined(EngineEvent):
    side: str
    deck: int


@event_type("mass_card_drawn")
@dataclass(frozen=True, kw_only=True)
class CardDrawn(EngineEvent):
    side: str
    deck: int
    uid: str
    card_id: int
    may_keep: bool
    recorded: bool = False  # M1: drawn from the real, printed deck and recorded by the referee


@event_type("mass_card_kept")
@dataclass(frozen=True, kw_only=True)
class CardKept(EngineEvent):
    side: str
    uid: str
    card_id: int


@event_type("mass_kept_card_used")
@dataclass(frozen=True, kw_only=True)
class KeptCardUsed(EngineEvent):
    side: str
    uid: str
    card_id: int


@event_type("mass_card_carried_out")
@dataclass(frozen=True, kw_only=True)
class CardCarriedOut(EngineEvent):
    side: str
    uid: str
    card_id: int
    target_side: str | None
    affected: list[str]
    unaffected: list[str]  # protected against the card's type (M3)
    ends_cycle: int  # M6
    to_bottom_of: int  # M7


@event_type("mass_warrior_moved")
@dataclass(frozen=True, kw_only=True)
class WarriorMoved(EngineEvent):
    warrior: str
    side: str
    old: str
    new: str
    by: str  # "points", "card" or "casualties"


@event_type("mass_turn_ended")
@dataclass(frozen=True, kw_only=True)
class TurnEnded(EngineEvent):
    side: str


@event_type("mass_phase_over")
@dataclass(frozen=True, kw_only=True)
class PhaseOver(EngineEvent):
    cycle: int


@event_type("mass_effect_ended")
@dataclass(frozen=True, kw_only=True)
class EffectEnded(EngineEvent):
    uid: str
    card_id: int
    cycle: int


@event_type("mass_cycle_started")
@dataclass(frozen=True, kw_only=True)
class CycleStarted(EngineEvent):
    cycle: int


@event_type("mass_battle_ended")
@dataclass(frozen=True, kw_only=True)
class BattleEnded(EngineEvent):
    cycle: int
    reason: str

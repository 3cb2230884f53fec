"""What happened in a battle: typed events (``@event_type``), stored as dicts in the log.

Names start with ``battle_`` so they never clash with a duel's. No event names
an unplayed card (D4): a new arsenal is told by its size only.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.events import EngineEvent, event_type


@event_type("battle_joined")
@dataclass(frozen=True, kw_only=True)
class Joined(EngineEvent):
    combatant: int
    name: str
    side: str
    condition: str
    cards: int


@event_type("battle_left")
@dataclass(frozen=True, kw_only=True)
class Left(EngineEvent):
    """D12: a combatant not ready to go on left the battle at a bout's end."""

    combatant: int


@event_type("battle_begun")
@dataclass(frozen=True, kw_only=True)
class Begun(EngineEvent):
    declarer: int
    max_rounds: int | None


@event_type("battle_round_started")
@dataclass(frozen=True, kw_only=True)
class RoundStarted(EngineEvent):
    round: int
    order: list[int] = field(default_factory=list)
    reactions: bool = False


@event_type("battle_bout_ended")
@dataclass(frozen=True, kw_only=True)
class BoutEnded(EngineEvent):
    """D11: nobody who can fight holds an attack card (or every round is a bout): arsenals may change."""

    bout: int


@event_type("battle_turn_started")
@dataclass(frozen=True, kw_only=True)
class TurnStarted(EngineEvent):
    round: int
    combatant: int


@event_type("battle_turn_skipped")
@dataclass(frozen=True, kw_only=True)
class TurnSkipped(EngineEvent):
    round: int
    combatant: int
    condition: str


@event_type("battle_turn_ended")
@dataclass(frozen=True, kw_only=True)
class TurnEnded(EngineEvent):
    round: int
    combatant: int


@event_type("battle_action_declared")
@dataclass(frozen=True, kw_only=True)
class ActionDeclared(EngineEvent):
    frame: int
    actor: int
    role: str
    act: str
    targets: list[int] = field(default_factory=list)
    engaged: list[int] = field(default_factory=list)
    reacts_to: int | None = None
    trigger: str = ""


@event_type("battle_attack_shown")
@dataclass(frozen=True, kw_only=True)
class AttackShown(EngineEvent):
    frame: int
    attacker: int
    card: str
    card_id: int
    targets: list[int]
    deadline: str | None


@event_type("battle_card_used")
@dataclass(frozen=True, kw_only=True)
class CardUsed(EngineEvent):
    frame: int
    combatant: int
    card: str
    card_id: int


@event_type("battle_part_done")
@dataclass(frozen=True, kw_only=True)
class PartDone(EngineEvent):
    frame: int
    part: int


@event_type("battle_windows_suspended")
@dataclass(frozen=True, kw_only=True)
class WindowsSuspended(EngineEvent):
    frame: int
    by: int


@event_type("battle_windows_resumed")
@dataclass(frozen=True, kw_only=True)
class WindowsResumed(EngineEvent):
    frame: int


@event_type("battle_window_lost")
@dataclass(frozen=True, kw_only=True)
class WindowLost(EngineEvent):
    """BP3: a target out of the fight (D11) has no answer window; nothing lands on them by this attack."""

    frame: int
    defender: int


@event_type("battle_action_lost")
@dataclass(frozen=True, kw_only=True)
class ActionLost(EngineEvent):
    frame: int
    actor: int
    by: int | None
    why: str


@event_type("battle_frame_closed")
@dataclass(frozen=True, kw_only=True)
class FrameClosed(EngineEvent):
    frame: int
    actor: int
    role: str


@event_type("battle_readied")
@dataclass(frozen=True, kw_only=True)
class ActionReadied(EngineEvent):
    combatant: int
    mode: str
    trigger: str


@event_type("battle_answered")
@dataclass(frozen=True, kw_only=True)
class Answered(EngineEvent):
    frame: int
    defender: int
    card: str | None
    card_id: int | None
    proposed: str


@event_type("battle_answer_timed_out")
@dataclass(frozen=True, kw_only=True)
class AnswerTimedOut(EngineEvent):
    frame: int
    defender: int
    deadline: str


@event_type("battle_result_applied")
@dataclass(frozen=True, kw_only=True)
class ResultApplied(EngineEvent):
    frame: int
    attacker: int
    defender: int
    outcome: str
    proposed: str
    overridden: bool
    reason: str
    timed_out: bool


@event_type("battle_condition_changed")
@dataclass(frozen=True, kw_only=True)
class ConditionChanged(EngineEvent):
    combatant: int
    old: str
    new: str


@event_type("battle_combatant_out")
@dataclass(frozen=True, kw_only=True)
class CombatantOut(EngineEvent):
    combatant: int
    condition: str


@event_type("battle_round_ended")
@dataclass(frozen=True, kw_only=True)
class RoundEnded(EngineEvent):
    round: int
    why: str


@event_type("battle_arsenal_changed")
@dataclass(frozen=True, kw_only=True)
class ArsenalChanged(EngineEvent):
    combatant: int
    label: str
    count: int


@event_type("battle_ended")
@dataclass(frozen=True, kw_only=True)
class Ended(EngineEvent):
    result: str
    reason: str
    winner: str | None
    conditions: dict[str, str]


@event_type("battle_situation_closed")
@dataclass(frozen=True, kw_only=True)
class SituationClosed(EngineEvent):
    """S2: the gap passed after the battle ended; the situation is over (arsenals may change again)."""


# --- an instant attack on a combatant (IA1, IA3, rules/battle/instant.py) ------------------------


@event_type("battle_converted")
@dataclass(frozen=True, kw_only=True)
class InstantConverted(EngineEvent):
    """IA1 / IA6: the instant attack is an ordinary attack (``rule`` says why)."""

    rule: str
    attacker: int
    victim: int


@event_type("battle_card_drawn")
@dataclass(frozen=True, kw_only=True)
class InstantCardDrawn(EngineEvent):
    """IA3: the victim's answering card, drawn blind (``draw`` is the index), physically, or their focus (F1)."""

    frame: int
    combatant: int
    card: str
    card_id: int
    draw: int | None
    by_focus: bool
    physical: bool = False


@event_type("battle_parry_declined")
@dataclass(frozen=True, kw_only=True)
class InstantParryDeclined(EngineEvent):
    """IA3: the victim does not try to parry; nothing is drawn."""

    frame: int
    combatant: int

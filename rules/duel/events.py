"""The events of a duel situation (S, IA, F, AG, D, CR): typed values, registered by type name.

The base class and the registry are the kernel's (rules/events.py); the
condition change every kind records (CR1, D11) is the kernel's too.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.events import EVENT_CLASSES, EngineEvent, event_type

# --- The events of a combat situation (S, IA, F, AG, D, CR) ------------------------------------
# Fighters are character ids, cards are uids of the situation (``card_id`` is
# the catalogue card, kept so the log can name a card whose uid is gone), times
# are ISO strings. The field names are those the log has always stored.


@event_type("fighter_joined")
@dataclass(frozen=True, kw_only=True)
class FighterJoined(EngineEvent):
    fighter: int
    name: str
    condition: str
    focus: str | None


@event_type("focus_set")
@dataclass(frozen=True, kw_only=True)
class FocusSet(EngineEvent):
    """F1: ``card`` None drops the focus."""

    fighter: int
    card: str | None
    card_id: int | None


@event_type("converted_to_aggression")
@dataclass(frozen=True, kw_only=True)
class ConvertedToAggression(EngineEvent):
    """IA1/IA6: the instant attack is an ordinary attack instead (``rule`` says why)."""

    rule: str
    attacker: int
    victim: int


@event_type("duel_opened")
@dataclass(frozen=True, kw_only=True)
class DuelOpened(EngineEvent):
    duel: int
    a: int
    b: int
    opened_by: str
    max_rounds: int | None


@event_type("round_started")
@dataclass(frozen=True, kw_only=True)
class RoundStarted(EngineEvent):
    duel: int
    round: int
    attacker: int


@event_type("passed")
@dataclass(frozen=True, kw_only=True)
class Passed(EngineEvent):
    """D10 reading: no attack card when it is one's turn."""

    duel: int
    round: int
    fighter: int


@event_type("attack_shown")
@dataclass(frozen=True, kw_only=True)
class AttackShown(EngineEvent):
    """D6; ``deadline`` is the D8 answer window (None in an instant attack)."""

    duel: int
    fighter: int
    card: str
    card_id: int
    deadline: str | None


@event_type("card_drawn")
@dataclass(frozen=True, kw_only=True)
class CardDrawn(EngineEvent):
    """IA3: the victim's answering card, drawn blind (``draw`` is the index) or their focus (F1)."""

    duel: int
    fighter: int
    card: str
    card_id: int
    draw: int | None
    by_focus: bool
    # IA3: drawn by the victim from their real cards and recorded by the referee, not by the server.
    physical: bool = False


@event_type("parry_declined")
@dataclass(frozen=True, kw_only=True)
class ParryDeclined(EngineEvent):
    """IA3: the victim of an instant attack does not try to parry; nothing is drawn."""

    duel: int
    fighter: int


@event_type("answered")
@dataclass(frozen=True, kw_only=True)
class Answered(EngineEvent):
    """D7: ``card`` None is no answer."""

    duel: int
    fighter: int
    card: str | None
    card_id: int | None


@event_type("result_proposed")
@dataclass(frozen=True, kw_only=True)
class ResultProposed(EngineEvent):
    """CR2: the counter rules' proposal, for the referee to confirm."""

    duel: int
    outcome: str


@event_type("answer_timed_out")
@dataclass(frozen=True, kw_only=True)
class AnswerTimedOut(EngineEvent):
    """D8: no answer by ``deadline``."""

    duel: int
    fighter: int
    deadline: str


@event_type("result_applied")
@dataclass(frozen=True, kw_only=True)
class ResultApplied(EngineEvent):
    duel: int
    outcome: str
    proposed: str
    overridden: bool
    reason: str
    timed_out: bool


@event_type("card_kept")
@dataclass(frozen=True, kw_only=True)
class CardKept(EngineEvent):
    """IA4 reading: the victim's unspent card goes back to the hand."""

    duel: int
    fighter: int
    card: str


@event_type("step_cancelled")
@dataclass(frozen=True, kw_only=True)
class StepCancelled(EngineEvent):
    """The referee ended a duel mid-step: the shown cards go back (D9: nothing was played)."""

    duel: int


@event_type("round_ended")
@dataclass(frozen=True, kw_only=True)
class RoundEnded(EngineEvent):
    duel: int
    round: int


@event_type("round_choice_made")
@dataclass(frozen=True, kw_only=True)
class RoundChoiceMade(EngineEvent):
    """D3/D12: go on or not, with the same hand or a new arsenal called ``label``."""

    duel: int
    fighter: int
    go_on: bool
    new_arsenal: bool
    label: str


@event_type("arsenal_changed")
@dataclass(frozen=True, kw_only=True)
class ArsenalChanged(EngineEvent):
    """D3: the new arsenal is in hand. Only how many cards: no uids, unplayed cards stay hidden (D4)."""

    duel: int
    fighter: int
    label: str
    count: int


@event_type("fighter_out")
@dataclass(frozen=True, kw_only=True)
class FighterOut(EngineEvent):
    """D11: the fighter can no longer fight."""

    duel: int
    fighter: int
    condition: str


@event_type("duel_ended")
@dataclass(frozen=True, kw_only=True)
class DuelEnded(EngineEvent):
    """D12; ``conditions`` maps str(character id) to condition (JSON object keys are strings)."""

    duel: int
    result: str
    reason: str
    conditions: dict[str, str]


@event_type("situation_ended")
@dataclass(frozen=True, kw_only=True)
class SituationEnded(EngineEvent):
    """S2: the gap ran out at ``at``."""

    at: str
    conditions: dict[str, str]


# The type names of a duel situation's events, in the order above.
EVENT_TYPES: tuple[str, ...] = tuple(
    name for name, cls in EVENT_CLASSES.items() if cls.__module__ in (__name__, "rules.events")
)

"""The combat situation: who is in it, focus, and its clock (S1, S2, F1, D8).

Deadlines are absolute times in the state. ``expire`` applies the overdue
ones; ``check_current`` refuses a command given against a state that still has
overdue deadlines, so that the order "expire, then command" is the only one
the engine accepts and a replay of the log can never diverge.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from rules.arsenal import check_focus
from rules.cards import CounterRule
from rules.clock import utc
from rules.conditions import is_condition
from rules.duel.commands import Join, SetFocus
from rules.duel.core import conditions_of, end_duel, get_fighter, hand_card, mint
from rules.duel.events import FighterJoined, FocusSet, SituationEnded
from rules.duel.state import AWAIT_ANSWER, BETWEEN_ROUNDS, ENDED, STEP_OPEN, Fighter, Settings, Situation, clone
from rules.duel.state import SITUATION_ENDED as RESULT_SITUATION_ENDED
from rules.duel.steps import timeout_step
from rules.errors import INPUT, RuleError, gettext_noop
from rules.events import EngineEvent


def open_situation(settings: Settings, counters: Iterable[CounterRule], now: datetime) -> Situation:
    """A new, empty situation. ``counters`` is snapshotted (see Situation.counters)."""
    return Situation(settings=settings, counters=tuple(counters), opened_at=utc(now))


def join(state: Situation, cmd: Join, now: datetime, events: list[EngineEvent]) -> None:
    setup = cmd.fighter
    if setup.character_id in state.fighters:
        raise RuleError(INPUT, gettext_noop("%(name)s is already in this situation."), name=setup.name)
    if not is_condition(setup.condition):
        raise RuleError(INPUT, gettext_noop("Unknown condition %(condition)s."), condition=setup.condition)
    if setup.focus_card_id is not None:
        check_focus(list(setup.hand), setup.focus_card_id, abilities=state.settings.focus_abilities)
    fighter = Fighter(character_id=setup.character_id, name=setup.name, condition=setup.condition)
    fighter.hand = mint(state, fighter, setup.hand)
    if setup.focus_card_id is not None:
        fighter.focus = next(uid for uid in fighter.hand if state.cards[uid].card_id == setup.focus_card_id)
    state.fighters[fighter.character_id] = fighter
    events.append(
        FighterJoined(
            fighter=fighter.character_id,
            name=fighter.name,
            condition=fighter.condition,
            focus=fighter.focus,
        )
    )


def set_focus(state: Situation, cmd: SetFocus, now: datetime, events: list[EngineEvent]) -> None:
    """F1: one defence card of one's own hand, held openly; setting replaces, None drops."""
    fighter = get_fighter(state, cmd.fighter)
    card_id = None
    if cmd.card is not None:
        face = hand_card(state, fighter, cmd.card, "F1")
        check_focus([face], face.card_id, abilities=state.settings.focus_abilities)
        card_id = face.card_id
    fighter.focus = cmd.card
    events.append(FocusSet(fighter=fighter.character_id, card=cmd.card, card_id=card_id))


def is_held(state: Situation) -> bool:
    """S2 reading: an open step or a round break holds the situation open.

    An attack waiting for its answer or its result is plainly the fight going
    on; a duel waiting between rounds for the fighters' arsenal choices is the
    same fight, whose next round is not a new situation.
    """
    return any(duel.phase in STEP_OPEN or duel.phase == BETWEEN_ROUNDS for duel in state.duels)


def situation_deadline(state: Situation) -> datetime | None:
    """S2: when the situation ends if nothing else happens.

    The gap is counted from the latest combat action (attack shown, instant
    attack, declared aggression, answer), or from the end of the latest hold
    (``is_held``) if that is later; the clock starts with the first combat action.
    """
    if state.ended or state.last_action_at is None:
        return None
    if is_held(state):
        return None
    return state.last_action_at + timedelta(seconds=state.settings.gap_s)


def _answer_deadlines(state: Situation) -> list[tuple[datetime, int]]:
    found = []
    for duel in state.duels:
        if duel.phase == AWAIT_ANSWER and duel.step is not None and duel.step.answer_deadline is not None:
            found.append((duel.step.answer_deadline, duel.number))
    return sorted(found)


def next_deadline(state: Situation) -> datetime | None:
    """The earliest pending deadline, for scheduling a timer.

    ``expire`` acts only once ``now`` is *past* it (a deadline itself is still
    in time), so schedule the timer a moment after this instant.
    """
    if state.ended:
        return None
    times = [at for at, _ in _answer_deadlines(state)]
    gap_end = situation_deadline(state)
    if gap_end is not None:
        times.append(gap_end)
    return min(times, default=None)


def check_current(state: Situation, now: datetime) -> None:
    """S2 and D8 for every command: nothing may happen after a deadline has passed.

    In practice the caller runs ``expire`` first and this never fires except
    for a stale state; a direct late answer gets the D8 refusal here.
    """
    if state.ended:
        raise RuleError("S2", gettext_noop("This combat situation has ended; a new one must be opened."))
    for deadline, _duel in _answer_deadlines(state):
        if now > deadline:
            # Never "0.0 s ago": anything past the deadline is late by at least a tenth.
            late = max(0.1, round((now - deadline).total_seconds(), 1))
            raise RuleError("D8", gettext_noop("The answer window closed %(seconds)s s ago."), seconds=late)
    gap_end = situation_deadline(state)
    if gap_end is not None and now > gap_end:
        raise RuleError("S2", gettext_noop("This combat situation has ended; a new one must be opened."))


def end_situation(state: Situation, at: datetime, events: list[EngineEvent]) -> None:
    for duel in state.duels:
        if duel.phase != ENDED:
            end_duel(state, duel, RESULT_SITUATION_ENDED, at, events)
    state.ended = True
    state.ended_at = at
    events.append(SituationEnded(at=at.isoformat(), conditions=conditions_of(state, list(state.fighters))))


def expire(state: Situation, now: datetime) -> tuple[Situation, list[EngineEvent]]:
    """Apply every deadline that ``now`` is past, in time order, each at its own time.

    Idempotent: afterwards no deadline before ``now`` remains, so a second
    call finds nothing to do. The input state is not changed; when nothing is
    due (every poll and every command asks) it is returned as it is, uncopied.
    """
    now = utc(now)
    if not is_due(state, now):
        return state, []
    state = clone(state)
    return state, expire_in_place(state, now)


def is_due(state: Situation, now: datetime) -> bool:
    """Whether some deadline is past at ``now`` (``now`` aware)."""
    if state.ended:
        return False
    answers = _answer_deadlines(state)
    if answers and now > answers[0][0]:
        return True
    gap_end = situation_deadline(state)
    return gap_end is not None and now > gap_end


def expire_in_place(state: Situation, now: datetime) -> list[EngineEvent]:
    """``expire`` on a state the caller owns (replay): changed where it lies."""
    now = utc(now)
    events: list[EngineEvent] = []
    while not state.ended:
        answers = _answer_deadlines(state)
        gap_end = situation_deadline(state)
        # An open step suspends the gap clock, so the two never compete: the
        # earliest answer deadline comes first and restarts the clock.
        if answers and now > answers[0][0]:
            at, number = answers[0]
            timeout_step(state, state.duels[number], at, events)
        elif gap_end is not None and now > gap_end:
            end_situation(state, gap_end, events)
        else:
            break
    return events

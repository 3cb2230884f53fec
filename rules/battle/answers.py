"""Answers to shown attacks and their results (D7-D9, CR1, CR2), one window per target."""

from __future__ import annotations

from datetime import datetime

from rules.battle import events as E
from rules.battle.flow import Events, check_sides
from rules.battle.frames import _hand_card, _in_turns, _top_frame, finish_part, settle
from rules.battle.state import Battle, Frame, Part, StepRecord, Window, record_answer
from rules.cards import OUTCOMES, PARRIED, SOFTENED, effect_of, table_of
from rules.conditions import apply_effect, can_fight
from rules.errors import INPUT, RuleError, gettext_noop


def _window(state: Battle, number: int, defender: int) -> tuple[Frame, Part, Window]:
    frame = _top_frame(state, number)
    part = frame.current
    window = None if part is None else next((w for w in part.windows if w.defender == defender), None)
    if part is None or window is None:
        raise RuleError(
            "D7",
            gettext_noop("Nobody is waiting for %(name)s's answer there."),
            name=state.combatants[defender].name if defender in state.combatants else defender,
        )
    return frame, part, window


def answer(state: Battle, number: int, defender: int, uid: str | None, now: datetime, events: Events) -> None:
    _in_turns(state)
    if answer_overtaken(state, number, defender):
        # D8: the window closed on the clock before this answer came (its expiry already applied,
        # perhaps closing the action); say so rather than a puzzling "nobody is waiting".
        raise RuleError("D8", gettext_noop("The answer window has closed; the attack took full effect."))
    _frame, part, window = _window(state, number, defender)
    if window.answered:
        raise RuleError("D7", gettext_noop("%(name)s has already answered."), name=state.combatants[defender].name)
    face = None
    if uid is not None:
        face = _hand_card(state, defender, uid, "D7").face
        state.combatants[defender].hand.remove(uid)
    assert part.card is not None
    window.answer_card = uid
    window.answered = True
    window.deadline = None
    window.proposed = table_of(state.counters).propose(face, state.cards[part.card].face)
    events.append(
        E.Answered(
            frame=number,
            defender=defender,
            card=uid,
            card_id=None if face is None else face.card_id,
            proposed=window.proposed,
        )
    )


def confirm(
    state: Battle, number: int, defender: int, outcome: str | None, reason: str, now: datetime, events: Events
) -> None:
    _in_turns(state)
    frame, part, window = _window(state, number, defender)
    if not window.answered or window.resolved or window.proposed is None:
        raise RuleError("CR2", gettext_noop("There is no result to confirm yet."))
    chosen = window.proposed if outcome is None else outcome
    if chosen not in OUTCOMES:
        raise RuleError(INPUT, gettext_noop("Unknown result %(outcome)s."), outcome=chosen)
    reason = reason.strip()
    if chosen != window.proposed and not reason:
        raise RuleError("CR2", gettext_noop("Overriding the proposed result needs a reason."))
    resolve(state, frame, part, window, chosen, now, events, reason=reason if chosen != window.proposed else "")


def resolve(
    state: Battle,
    frame: Frame,
    part: Part,
    window: Window,
    outcome: str,
    at: datetime,
    events: Events,
    *,
    reason: str = "",
    timed_out: bool = False,
) -> None:
    """CR1: the outcome's effect lands; D9: the answer is discarded; the part ends with its last window."""
    assert part.card is not None and window.proposed is not None
    defender = state.combatants[window.defender]
    old = defender.condition
    defender.condition = apply_effect(old, effect_of(outcome, state.cards[part.card].face))
    if window.answer_card is not None:
        if frame.instant and outcome not in (PARRIED, SOFTENED):
            # IA4's reading: the card drawn for an instant attack is spent only if it parried or softened.
            defender.hand.append(window.answer_card)
        else:
            defender.discards.append(window.answer_card)
    window.outcome = outcome
    window.timed_out = timed_out
    record_answer(
        state,
        StepRecord(
            round=state.round,
            frame=frame.number,
            role=frame.role,
            attacker=frame.actor,
            defender=window.defender,
            attack_card=part.card,
            answer_card=window.answer_card,
            outcome=outcome,
            proposed=window.proposed,
            override_reason=reason,
            timed_out=timed_out,
        ),
    )
    events.append(
        E.ResultApplied(
            frame=frame.number,
            attacker=frame.actor,
            defender=window.defender,
            outcome=outcome,
            proposed=window.proposed,
            overridden=outcome != window.proposed,
            reason=reason,
            timed_out=timed_out,
        )
    )
    if defender.condition != old:
        events.append(E.ConditionChanged(combatant=window.defender, old=old, new=defender.condition))
        if not can_fight(defender.condition):
            events.append(E.CombatantOut(combatant=window.defender, condition=defender.condition))
    if all(w.resolved for w in part.windows):
        finish_part(state, frame, part, at, events)
    if not check_sides(state, at, events):
        settle(state, at, events)


def timeout(state: Battle, frame: Frame, part: Part, window: Window, events: Events) -> None:
    """D8: no answer in time - the attack takes full effect."""
    at = window.deadline
    assert at is not None
    events.append(E.AnswerTimedOut(frame=frame.number, defender=window.defender, deadline=at.isoformat()))
    window.answered = True
    window.deadline = None
    window.proposed = "not_parried"
    resolve(state, frame, part, window, "not_parried", at, events, timed_out=True)


def answer_overtaken(state: Battle, frame: int, defender: int) -> bool:
    """D8: ``defender``'s answer in ``frame`` is too late - their latest window there closed on the clock."""
    latest: Window | None = None
    for f in state.stack:
        for queued in (f, *f.queue):
            if queued.number == frame:
                for part in queued.parts:
                    latest = next((w for w in part.windows if w.defender == defender), latest)
    if latest is not None:
        return latest.timed_out
    return (frame, defender) in state.timed_out

"""Steps of a duel: attack, answer, result, and what comes after (D6-D11, CR1-CR2).

``resolve_step`` is the one place where a shown attack becomes a result, for
every way a step can end: the referee confirms (or overrides) a proposal, or
the answer window runs out (D8). ``after_step`` is the one place where the
turn passes on or the round ends.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from rules.cards import NOT_PARRIED, OUTCOMES, PARRIED, SOFTENED, CardFace, effect_of
from rules.conditions import apply_effect
from rules.duel.commands import Answer, Attack, ConfirmResult
from rules.duel.core import (
    attack_cards,
    combat_action,
    discard,
    end_duel,
    fighters_out,
    get_duel,
    hand_card,
    require_attack_card,
    require_open,
)
from rules.duel.events import (
    Answered,
    AnswerTimedOut,
    AttackShown,
    CardKept,
    FighterOut,
    Passed,
    ResultApplied,
    ResultProposed,
    RoundEnded,
    RoundStarted,
)
from rules.duel.state import (
    AWAIT_ANSWER,
    AWAIT_ATTACK,
    AWAIT_RESULT,
    BETWEEN_ROUNDS,
    INSTANT_ATTACK_SUCCEEDED,
    MAX_ROUNDS,
    Duel,
    Situation,
    Step,
    StepRecord,
    counter_table,
    record_step,
)
from rules.duel.state import (
    FIGHTER_OUT as RESULT_FIGHTER_OUT,
)
from rules.errors import INPUT, RuleError, gettext_noop
from rules.events import ConditionChanged, EngineEvent


def choose_attacker(state: Situation, duel: Duel, preferred: int, events: list[EngineEvent]) -> int:
    """D10 reading: whoever's turn it is but holds no attack card passes.

    The caller guarantees that at least one of the two holds an attack card.
    """
    if attack_cards(state, preferred):
        return preferred
    events.append(Passed(duel=duel.number, round=duel.round, fighter=preferred))
    return duel.other(preferred)


def begin_round(state: Situation, duel: Duel, preferred: int, events: list[EngineEvent]) -> None:
    attacker = choose_attacker(state, duel, preferred, events)
    duel.attacker = attacker
    # D10 reading: the next round opens with whoever *defended* first in this
    # one, so remember who actually attacked first (after any pass).
    duel.first_attacker_this_round = attacker
    duel.phase = AWAIT_ATTACK
    events.append(RoundStarted(duel=duel.number, round=duel.round, attacker=attacker))


def show_attack(
    state: Situation,
    duel: Duel,
    attacker: int,
    uid: str,
    at: datetime,
    events: list[EngineEvent],
    *,
    window: bool = True,
) -> Step:
    """D6: the attack card leaves the hand and is shown; D8: the answer window opens.

    An instant attack has no window (``window=False``): the victim's answer is
    drawn at once (IA3).
    """
    state.fighters[attacker].hand.remove(uid)
    deadline = at + timedelta(seconds=state.settings.answer_window_s) if window else None
    step = Step(
        attacker=attacker, defender=duel.other(attacker), attack_card=uid, shown_at=at, answer_deadline=deadline
    )
    duel.step = step
    duel.attacker = attacker
    duel.phase = AWAIT_ANSWER
    events.append(
        AttackShown(
            duel=duel.number,
            fighter=attacker,
            card=uid,
            card_id=state.cards[uid].card_id,
            deadline=None if deadline is None else deadline.isoformat(),
        )
    )
    return step


def propose_for(state: Situation, defence: CardFace | None, attack: CardFace) -> str:
    # The counters are the snapshot taken when the situation opened, indexed once.
    return counter_table(state).propose(defence, attack)


def attack(state: Situation, cmd: Attack, now: datetime, events: list[EngineEvent]) -> None:
    duel = require_open(get_duel(state, cmd.duel))
    if duel.phase != AWAIT_ATTACK:
        raise RuleError("D6", gettext_noop("Duel %(duel)s is not waiting for an attack."), duel=duel.number)
    if cmd.fighter != duel.attacker:
        raise RuleError(
            "D10",
            gettext_noop("It is %(name)s's turn to attack."),
            name=state.fighters[duel.attacker].name,
        )
    require_attack_card(state, state.fighters[cmd.fighter], cmd.card, "D6")
    show_attack(state, duel, cmd.fighter, cmd.card, now, events)


def answer(state: Situation, cmd: Answer, now: datetime, events: list[EngineEvent]) -> None:
    duel = get_duel(state, cmd.duel)
    if duel.phase != AWAIT_ANSWER or duel.step is None:
        last = duel.steps_done[-1] if duel.steps_done else None
        if last is not None and last.timed_out and last.defender == cmd.fighter:
            # The window's expiry was already applied (D8), perhaps ending the
            # duel; say so rather than a puzzling "nothing to answer".
            raise RuleError("D8", gettext_noop("The answer window has closed; the attack took full effect."))
        require_open(duel)
        raise RuleError("D7", gettext_noop("Duel %(duel)s is not waiting for an answer."), duel=duel.number)
    step = duel.step
    defender = state.fighters[step.defender]
    if cmd.fighter != step.defender:
        raise RuleError("D7", gettext_noop("Only %(name)s may answer this attack."), name=defender.name)
    # The deadline itself (D8) is checked for every command in
    # situation.check_current, before any handler runs.
    face = None
    if cmd.card is not None:
        face = hand_card(state, defender, cmd.card, "D7")
        defender.hand.remove(cmd.card)
    step.answer_card = cmd.card
    step.answered = True
    step.proposed = propose_for(state, face, state.cards[step.attack_card])
    duel.phase = AWAIT_RESULT
    events.append(
        Answered(
            duel=duel.number,
            fighter=cmd.fighter,
            card=cmd.card,
            card_id=None if face is None else face.card_id,
        )
    )
    events.append(ResultProposed(duel=duel.number, outcome=step.proposed))


def confirm_result(state: Situation, cmd: ConfirmResult, now: datetime, events: list[EngineEvent]) -> None:
    duel = require_open(get_duel(state, cmd.duel))
    if duel.phase != AWAIT_RESULT or duel.step is None or duel.step.proposed is None:
        raise RuleError("CR2", gettext_noop("Duel %(duel)s has no result to confirm."), duel=duel.number)
    proposed = duel.step.proposed
    outcome = proposed if cmd.outcome is None else cmd.outcome
    if outcome not in OUTCOMES:
        raise RuleError(INPUT, gettext_noop("Unknown result %(outcome)s."), outcome=outcome)
    reason = cmd.reason.strip()
    if outcome != proposed and not reason:
        raise RuleError("CR2", gettext_noop("Overriding the proposed result needs a reason."))
    resolve_step(state, duel, outcome, now, events, reason=reason if outcome != proposed else "")


def timeout_step(state: Situation, duel: Duel, at: datetime, events: list[EngineEvent]) -> None:
    """D8: no answer in time - the attack takes full effect, no referee needed."""
    step = duel.step
    assert step is not None and step.answer_deadline is not None
    events.append(AnswerTimedOut(duel=duel.number, fighter=step.defender, deadline=at.isoformat()))
    step.proposed = NOT_PARRIED
    resolve_step(state, duel, NOT_PARRIED, at, events, timed_out=True)
    # The timed-out step is itself a combat action (S2), at its deadline.
    combat_action(state, at)


def resolve_step(
    state: Situation,
    duel: Duel,
    outcome: str,
    at: datetime,
    events: list[EngineEvent],
    *,
    reason: str = "",
    timed_out: bool = False,
) -> None:
    step = duel.step
    assert step is not None and step.proposed is not None
    attacker = state.fighters[step.attacker]
    defender = state.fighters[step.defender]
    # CR1: the outcome picks the full or the softened effect.
    old = defender.condition
    defender.condition = apply_effect(old, effect_of(outcome, state.cards[step.attack_card]))
    # D9: played cards are discarded. IA4 reading: in an instant attack the
    # victim's drawn (or focused) card is spent only if it did something;
    # otherwise it goes back to the hand, focus and all.
    discard(attacker, step.attack_card)
    if step.answer_card is not None:
        if step.instant and outcome not in (PARRIED, SOFTENED):
            defender.hand.append(step.answer_card)
            events.append(CardKept(duel=duel.number, fighter=defender.character_id, card=step.answer_card))
        else:
            discard(defender, step.answer_card)
    record_step(
        state,
        duel,
        StepRecord(
            round=duel.round,
            attacker=step.attacker,
            defender=step.defender,
            attack_card=step.attack_card,
            answer_card=step.answer_card,
            outcome=outcome,
            proposed=step.proposed,
            override_reason=reason,
            timed_out=timed_out,
            instant=step.instant,
            answer_by=step.answer_by,
        ),
    )
    duel.step = None
    events.append(
        ResultApplied(
            duel=duel.number,
            outcome=outcome,
            proposed=step.proposed,
            overridden=outcome != step.proposed,
            reason=reason,
            timed_out=timed_out,
        )
    )
    if defender.condition != old:
        events.append(ConditionChanged(fighter=defender.character_id, old=old, new=defender.condition))
    if step.instant and outcome == NOT_PARRIED:
        # IA7: the instant attack succeeded; its full effect stands and the
        # exchange is over.
        _announce_out(state, duel, events)
        end_duel(state, duel, INSTANT_ATTACK_SUCCEEDED, at, events)
        return
    # IA5: parried (or softened and still standing) - the duel goes on like
    # any other; the victim attacks next because roles swap (D10).
    after_step(state, duel, at, events)


def _announce_out(state: Situation, duel: Duel, events: list[EngineEvent]) -> list[int]:
    out = fighters_out(state, duel)
    for fighter in out:
        events.append(FighterOut(duel=duel.number, fighter=fighter, condition=state.fighters[fighter].condition))
    return out


def after_step(state: Situation, duel: Duel, at: datetime, events: list[EngineEvent]) -> None:
    """D10/D11: pass the turn, or end the round, or end the duel."""
    if fighters_out(state, duel):
        # D11: the round ends when one can no longer fight - and with it the duel.
        events.append(RoundEnded(duel=duel.number, round=duel.round))
        _announce_out(state, duel, events)
        end_duel(state, duel, RESULT_FIGHTER_OUT, at, events)
        return
    if not attack_cards(state, duel.a) and not attack_cards(state, duel.b):
        # D11: both hold only defence cards (or nothing).
        end_round(state, duel, at, events)
        return
    duel.attacker = choose_attacker(state, duel, duel.steps_done[-1].defender, events)
    duel.phase = AWAIT_ATTACK


def end_round(state: Situation, duel: Duel, at: datetime, events: list[EngineEvent]) -> None:
    events.append(RoundEnded(duel=duel.number, round=duel.round))
    if duel.max_rounds is not None and duel.round >= duel.max_rounds:
        # D2: the duel's own terms limit the rounds.
        end_duel(state, duel, MAX_ROUNDS, at, events)
        return
    duel.phase = BETWEEN_ROUNDS
    duel.round_choices = {}

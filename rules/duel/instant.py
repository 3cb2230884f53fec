"""Instant attack (IA1-IA7) and focus in it (F1)."""

from __future__ import annotations

from datetime import datetime

from rules import instant as shared
from rules.duel.commands import InstantAttack
from rules.duel.core import get_fighter, require_attack_card
from rules.duel.events import CardDrawn, ConvertedToAggression, ParryDeclined, ResultProposed
from rules.duel.opening import check_can_open, check_max_rounds, new_duel, open_aggression
from rules.duel.state import (
    ANSWER_BY_DECLINED,
    ANSWER_BY_DRAW,
    ANSWER_BY_FOCUS,
    ANSWER_BY_REAL_CARDS,
    AWAIT_RESULT,
    INSTANT_ATTACK,
    Situation,
)
from rules.duel.steps import begin_round, propose_for, show_attack
from rules.events import EngineEvent


def instant_attack_draw_size(state: Situation, victim: int) -> int:
    """How many cards the IA3 blind draw chooses among: 0 when focused (F1)."""
    fighter = get_fighter(state, victim)
    return 0 if fighter.focus is not None else len(fighter.hand)


def answer_source(state: Situation, cmd: InstantAttack) -> str:
    """How the victim's answer is chosen (IA3, F1): declined, the focused card, or a blind draw.

    The victim may decline to try (IA3: "may try to parry"); a focus answers
    only when the victim holds the focused card in front of them (F1), which
    the referee's checklist records; otherwise the draw is blind.
    """
    victim = get_fighter(state, cmd.victim)
    return shared.answer_source(cmd.parry, victim.focus is not None, cmd.focus_held)


def conversion_rule(state: Situation, cmd: InstantAttack) -> str | None:
    """Why this instant attack is an ordinary attack instead, or None if it is a real one (IA1, IA6)."""
    return shared.conversion_rule(cmd.out_of_sight, cmd.within_reach, state.instant_attack_used)


def draw_size_for(state: Situation, cmd: InstantAttack) -> int:
    """IA3: how many cards this command's blind draw chooses among; 0 when nothing is drawn.

    Nothing is drawn when the attack converts (IA1, IA6), the victim declines
    to parry (IA3) or holds up their focused card (F1). The services choose the index with a cryptographic source
    and log it; the engine only ever receives the index (chance is an input).
    """
    if conversion_rule(state, cmd) is not None or answer_source(state, cmd) != ANSWER_BY_DRAW:
        return 0
    if state.settings.physical_draws:
        return 0  # the victim draws from their real cards; the referee records the card (``cmd.drawn``)
    return len(get_fighter(state, cmd.victim).hand)


def instant_attack(
    state: Situation, cmd: InstantAttack, now: datetime, draw: int | None, events: list[EngineEvent]
) -> None:
    attacker, victim = check_can_open(state, cmd.attacker, cmd.victim)
    check_max_rounds(cmd.max_rounds)
    # IA2: a prepared attack card from the attacker's own arsenal.
    attack_face = require_attack_card(state, attacker, cmd.card, "IA2")

    # The blow still lands as an ordinary open attack (AG1), so the product
    # converts instead of refusing. A draw is ignored (logs written before
    # ``draw_size_for`` existed may carry one).
    rule = conversion_rule(state, cmd)
    if rule is not None:
        events.append(ConvertedToAggression(rule=rule, attacker=cmd.attacker, victim=cmd.victim))
        open_aggression(state, cmd.attacker, cmd.victim, cmd.card, cmd.max_rounds, now, events)
        return

    source = answer_source(state, cmd)
    physical = shared.physical_draw(source, state.settings.physical_draws, cmd.drawn, victim.hand, draw, victim.name)
    shared.check_draw(draw_size_for(state, cmd), draw, victim.name)
    if physical is not None:
        draw = physical

    state.instant_attack_used = True
    duel = new_duel(state, cmd.attacker, cmd.victim, INSTANT_ATTACK, cmd.max_rounds, now, events)
    begin_round(state, duel, cmd.attacker, events)
    step = show_attack(state, duel, cmd.attacker, cmd.card, now, events, window=False)

    # IA3 / F1: the focused card answers instead of a blind draw. It stays the
    # focus while in play; it loses it only if spent (IA4, see resolve_step).
    # A victim who declines to try plays nothing: the hand stays as it was.
    by_focus = source == ANSWER_BY_FOCUS
    answer_uid = victim.focus if by_focus else (victim.hand[draw] if draw is not None else None)
    answer_face = None
    if source == ANSWER_BY_DECLINED:
        events.append(ParryDeclined(duel=duel.number, fighter=cmd.victim))
    elif answer_uid is not None:
        victim.hand.remove(answer_uid)
        answer_face = state.cards[answer_uid]
        events.append(
            CardDrawn(
                duel=duel.number,
                fighter=cmd.victim,
                card=answer_uid,
                card_id=answer_face.card_id,
                draw=draw,
                by_focus=by_focus,
                physical=physical is not None,
            )
        )
    step.answer_card = answer_uid
    step.answered = True
    step.drawn = answer_uid is not None
    step.instant = True
    step.draw = draw
    step.answer_by = ANSWER_BY_REAL_CARDS if physical is not None else source
    # IA4 / CR2: proposed from the counter rules; the referee confirms.
    step.proposed = propose_for(state, answer_face, attack_face)
    duel.phase = AWAIT_RESULT
    events.append(ResultProposed(duel=duel.number, outcome=step.proposed))

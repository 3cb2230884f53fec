"""An instant attack in a battle (IA1-IA7, F1, BP4): someone already fighting struck by surprise.

IA1: an instant attack may strike a duellist or a battle's combatant when the
situation has not used its instant attack (IA6); the attacker joins that fight
and the blow is their first action in it. A duel grows into a battle whose
declarer is the attacker (D5: their turn opens it); a running battle is joined
by attacking (BP4: the strike comes at once, out of turn, and their turns start
next round). The blow is one attack frame whose only answer window is answered
at once (IA3): a blind draw from the victim's hand (the index is an input the
services chose and logged), the card the victim drew from their real cards, the
focused card (F1), or nothing (a declined parry). The referee then confirms the
result as for any answer (IA4, CR2); the victim's card is spent only if it
parried or softened (IA4's reading, ``answers.resolve``).

Without IA1's two conditions, or once IA6 is used up, the blow is an ordinary
attack (the product converts, it does not refuse): the same action as an
ordinary attack of the turn, or a newcomer's BP4 strike.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from rules import instant as shared
from rules.battle import events as E
from rules.battle import stack as S
from rules.battle.flow import Events, fit
from rules.battle.frames import (
    _can_act,
    _check_targets,
    _combatant,
    _declared,
    _hand_card,
    _in_turns,
    _new_frame,
    begin_part,
)
from rules.battle.state import ATTACK, MAIN, OPPORTUNITY, STANDARD, Battle, Part
from rules.cards import table_of
from rules.errors import RuleError, gettext_noop


@dataclass(frozen=True)
class InstantStrike:
    """IA1-IA7: ``attacker`` strikes ``victim`` (a combatant) with the attack card ``card`` (a uid).

    ``out_of_sight``/``within_reach``: the referee's IA1 checklist. ``parry``:
    the victim tries to parry (IA3). ``focus_held``: a focused victim holds the
    focused card up (F1). ``drawn``: the uid of the card the victim drew from
    their real cards (the event's "draws from real cards"). ``draw``: the
    server's blind draw, an index into the victim's hand chosen by the services
    (chance is an input) and logged with the command.
    """

    attacker: int
    victim: int
    card: str
    out_of_sight: bool
    within_reach: bool
    parry: bool = True
    focus_held: bool = True
    drawn: str | None = None
    draw: int | None = None


def focused_card(state: Battle, cid: int) -> str | None:
    """F1: the uid of the victim's focused card if they hold it, else None (then the draw is blind)."""
    combatant = state.combatants[cid]
    if combatant.focus_card_id is None:
        return None
    return next((u for u in combatant.hand if state.cards[u].face.card_id == combatant.focus_card_id), None)


def _real(state: Battle, cmd: InstantStrike) -> bool:
    return shared.conversion_rule(cmd.out_of_sight, cmd.within_reach, state.instant_attack_used) is None


def _source(state: Battle, cmd: InstantStrike) -> str:
    return shared.answer_source(cmd.parry, focused_card(state, cmd.victim) is not None, cmd.focus_held)


def draw_size(state: Battle, cmd: InstantStrike) -> int:
    """IA3: how many cards the server's blind draw chooses among; 0 when nothing is drawn by the server.

    Nothing is drawn when the attack converts (IA1, IA6), the victim declines,
    holds up their focus (F1) or draws from their real cards (the event's setting).
    """
    if cmd.victim not in state.combatants or not _real(state, cmd) or _source(state, cmd) != shared.ANSWER_BY_DRAW:
        return 0
    if state.settings.physical_draws:
        return 0
    return len(state.combatants[cmd.victim].hand)


def _check_striker(state: Battle, attacker: int) -> bool:
    """Whose first action this is: a newcomer's BP4 strike (True) or the opening turn of a grown duel (False)."""
    if state.striker == attacker and attacker != state.turn_of:
        if any(not f.finished or f.queue for f in state.stack):
            raise RuleError("BP4", gettext_noop("Finish the action and its reactions first."))
        _can_act(state, attacker)  # D11: one put out before the blow strikes none
        return True
    if state.turn_of == attacker and not state.stack and state.turn_seq == 1 and state.declarer == attacker:
        return False
    raise RuleError(
        "IA1", gettext_noop("An instant attack is the first action of the one who joins the fight with it.")
    )


def instant_strike(state: Battle, cmd: InstantStrike, now: datetime, events: Events) -> None:
    _in_turns(state)
    _combatant(state, cmd.attacker)
    _combatant(state, cmd.victim)
    victim = state.combatants[cmd.victim]
    if not fit(state, cmd.victim):
        # IA1's reading: someone who can no longer fight is not drawn into a fight (CR1 records a blow on them).
        raise RuleError(
            "D11",
            gettext_noop("%(name)s can no longer fight (%(condition)s)."),
            name=victim.name,
            condition=victim.condition,
        )
    newcomer = _check_striker(state, cmd.attacker)
    rule = shared.conversion_rule(cmd.out_of_sight, cmd.within_reach, state.instant_attack_used)
    if rule is not None:
        # No surprise (IA1) or the situation's one instant attack is spent (IA6): an ordinary attack.
        if cmd.draw is not None or cmd.drawn is not None:
            raise RuleError("IA3", gettext_noop("No card is drawn from %(name)s's arsenal."), name=victim.name)
        events.append(E.InstantConverted(rule=rule, attacker=cmd.attacker, victim=cmd.victim))
        S.act(state, cmd.attacker, ATTACK, (cmd.card,), (cmd.victim,), (), "", "interrupt", now, events)
        return
    # IA2: an attack card prepared in the attacker's arsenal.
    card = _hand_card(state, cmd.attacker, cmd.card, "IA2")
    if not card.is_attack or card.action not in (STANDARD, OPPORTUNITY):
        raise RuleError("IA2", gettext_noop("%(name)s is not an attack card for one's own turn."), name=card.face.name)
    _check_targets(state, cmd.attacker, card, (cmd.victim,))
    source = _source(state, cmd)
    physical = shared.physical_draw(
        source, state.settings.physical_draws, cmd.drawn, victim.hand, cmd.draw, victim.name
    )
    shared.check_draw(draw_size(state, cmd), cmd.draw, victim.name)
    index = physical if physical is not None else cmd.draw

    state.instant_attack_used = True
    frame = _new_frame(
        state, cmd.attacker, MAIN, ATTACK, [Part(card=cmd.card)], targets=[cmd.victim], newcomer=newcomer, instant=True
    )
    if newcomer:
        state.striker = None
    state.stack.append(frame)
    events.append(_declared(frame))
    part = frame.parts[0]
    begin_part(state, frame, part, now, events)
    window = part.windows[0]

    # IA3 / F1: the answer is chosen at once - no window to wait for.
    by_focus = source == shared.ANSWER_BY_FOCUS
    answer = focused_card(state, cmd.victim) if by_focus else (None if index is None else victim.hand[index])
    face = None
    if source == shared.ANSWER_BY_DECLINED:
        events.append(E.InstantParryDeclined(frame=frame.number, combatant=cmd.victim))
    elif answer is not None:
        victim.hand.remove(answer)
        face = state.cards[answer].face
        events.append(
            E.InstantCardDrawn(
                frame=frame.number,
                combatant=cmd.victim,
                card=answer,
                card_id=face.card_id,
                draw=index,
                by_focus=by_focus,
                physical=physical is not None,
            )
        )
    window.answer_card = answer
    window.answered = True
    window.deadline = None
    # IA4 / CR2: proposed from the counter rules; the referee confirms (ConfirmAnswer).
    window.proposed = table_of(state.counters).propose(face, card.face)
    events.append(
        E.Answered(
            frame=frame.number,
            defender=cmd.victim,
            card=answer,
            card_id=None if face is None else face.card_id,
            proposed=window.proposed,
        )
    )

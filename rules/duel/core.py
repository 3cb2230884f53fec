"""Lookups and small state changes shared by the command handlers.

Handlers work on a private deep copy of the state (see ``apply``), so the
helpers here mutate freely; a refusal raised half-way just drops the copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from rules.cards import CardFace
from rules.conditions import can_fight
from rules.duel.events import DuelEnded
from rules.duel.state import AWAIT_ANSWER, ENDED, Duel, Fighter, Situation
from rules.errors import INPUT, RuleError, gettext_noop
from rules.events import EngineEvent


def get_fighter(state: Situation, character_id: int) -> Fighter:
    found = state.fighters.get(character_id)
    if found is None:
        raise RuleError(INPUT, gettext_noop("Fighter %(fighter)s is not in this situation."), fighter=character_id)
    return found


def get_duel(state: Situation, number: int) -> Duel:
    if not 0 <= number < len(state.duels):
        raise RuleError(INPUT, gettext_noop("There is no duel %(duel)s."), duel=number)
    return state.duels[number]


def open_duel_of(state: Situation, character_id: int) -> Duel | None:
    """The duel this fighter is in, if one is still open (D1: at most one)."""
    for duel in state.duels:
        if duel.phase != ENDED and character_id in (duel.a, duel.b):
            return duel
    return None


def attack_cards(state: Situation, character_id: int) -> list[str]:
    """Uids of the attack cards in the fighter's hand (what they can attack with)."""
    fighter = get_fighter(state, character_id)
    return [uid for uid in fighter.hand if state.cards[uid].is_attack]


def hand_card(state: Situation, fighter: Fighter, uid: str, rule: str) -> CardFace:
    """The face of ``uid`` if it is in the fighter's hand; otherwise refuse under ``rule``."""
    if uid not in fighter.hand:
        raise RuleError(
            rule,
            gettext_noop("Card %(card)s is not in %(name)s's hand."),
            card=uid,
            name=fighter.name,
        )
    return state.cards[uid]


def require_attack_card(state: Situation, fighter: Fighter, uid: str, rule: str) -> CardFace:
    face = hand_card(state, fighter, uid, rule)
    if not face.is_attack:
        raise RuleError(rule, gettext_noop("%(name)s is not an attack card."), name=face.name)
    return face


def discard(fighter: Fighter, uid: str) -> None:
    """D9: a played card is discarded; a focused card that leaves loses the focus (F1)."""
    fighter.discards.append(uid)
    if fighter.focus == uid:
        fighter.focus = None


def mint(state: Situation, fighter: Fighter, faces: Iterable[CardFace]) -> list[str]:
    """New uids for card copies, deterministic so replay yields the same uids; the copies join ``state.cards``."""
    minted: dict[str, CardFace] = {}
    for face in faces:
        minted[f"{fighter.character_id}:{face.card_id}:{fighter.next_n}"] = face
        fighter.next_n += 1
    state.cards = state.cards.with_items(minted)
    return list(minted)


def combat_action(state: Situation, at: datetime) -> None:
    """S2: the gap is measured from the latest combat action (or the end of a hold, see ``is_held``)."""
    if state.last_action_at is None or at > state.last_action_at:
        state.last_action_at = at


def conditions_of(state: Situation, ids: list[int]) -> dict[str, str]:
    # String keys: the events must survive JSON unchanged.
    return {str(i): state.fighters[i].condition for i in ids}


def fighters_out(state: Situation, duel: Duel) -> list[int]:
    return [i for i in (duel.a, duel.b) if not can_fight(state.fighters[i].condition)]


def end_duel(
    state: Situation, duel: Duel, result: str, at: datetime, events: list[EngineEvent], reason: str = ""
) -> None:
    duel.phase = ENDED
    duel.result = result
    duel.end_reason = reason
    duel.ended_at = at
    duel.round_choices = {}
    events.append(
        DuelEnded(duel=duel.number, result=result, reason=reason, conditions=conditions_of(state, [duel.a, duel.b]))
    )


def require_open(duel: Duel) -> Duel:
    """D12: once a duel has ended its result is recorded and nothing more happens in it."""
    if duel.phase == ENDED:
        raise RuleError(
            "D12",
            gettext_noop("Duel %(duel)s has ended (%(result)s)."),
            duel=duel.number,
            result=duel.result or "",
        )
    return duel


def answer_overtaken(state: Situation, duel: int, fighter: int) -> bool:
    """D8: ``fighter``'s answer in ``duel`` is too late - their step is no longer open, and it timed out."""
    if not 0 <= duel < len(state.duels):
        return False
    found = state.duels[duel]
    if found.phase == AWAIT_ANSWER and found.step is not None and found.step.defender == fighter:
        return False  # still theirs to answer
    last = found.steps_done[-1] if found.steps_done else None
    return last is not None and last.timed_out and last.defender == fighter

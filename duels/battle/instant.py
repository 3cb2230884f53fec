"""An instant attack on someone already fighting (IA1, IA3, IA6, BP4, S2): the attacker joins their fight.

The duel's start page hands such a strike on through the core
(``duels.services.opening.strike_in``); this wing registers for both kinds it
can join (``DuelsConfig.ready``):

- a running duel grows into a battle (``grow_into_battle``: the duel's
  situation goes on as the battle, its clock and its instant attack, S2) whose
  declarer is the attacker, and the battle opens with their strike (D5);
- a running battle is joined by attacking (BP4: the newcomer strikes at once,
  out of turn, and takes turns from the next round).

The strike is the engine's ``InstantStrike`` (rules/battle/instant.py): a real
instant attack when IA1's two conditions hold and the situation has not used
its instant attack (IA6), else an ordinary attack - the join by aggression.
The blind draw (IA3) is the battle kind's ``chance``, logged like a duel's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.utils import timezone

from cards.models import Card
from duels.battle.start import battle_setup, grow_into_battle
from duels.models import Situation
from duels.services.commands import User
from duels.services.errors import BattlesOff, CardNotHeld, InAnotherFight, NotABattle
from duels.services.opening import opening, refuse_outsiders
from duels.services.store import Performed, Transition, actor_of
from events.models import Character
from rules import RuleError
from rules import battle as B


def _uid(state: B.Battle, character: Character, card_id: int | None) -> str:
    """The first copy of catalogue card ``card_id`` in the combatant's hand, or a clear refusal."""
    combatant = state.combatants.get(character.pk)
    found = None
    if combatant is not None and card_id is not None:
        found = next((u for u in combatant.hand if state.cards[u].face.card_id == card_id), None)
    if found is None:
        card = Card.objects.filter(pk=card_id).first() if card_id is not None else None
        raise CardNotHeld(name=character.name, card=card.name if card else f"#{card_id}")
    return found


def _builder(
    attacker: Character,
    victim: Character,
    card_id: int | None,
    *,
    out_of_sight: bool,
    within_reach: bool,
    parry: bool,
    focus_held: bool,
    drawn_card_id: int | None,
) -> Any:
    def build(state: B.Battle) -> B.InstantStrike:
        return B.InstantStrike(
            attacker=attacker.pk,
            victim=victim.pk,
            card=_uid(state, attacker, card_id),
            out_of_sight=out_of_sight,
            within_reach=within_reach,
            parry=parry,
            focus_held=focus_held,
            drawn=None if drawn_card_id is None else _uid(state, victim, drawn_card_id),
        )

    return build


def strike_into_duel(
    situation: Situation,
    attacker: Character,
    victim: Character,
    card_id: int | None,
    *,
    user: User,
    nonce: str,
    now: dt.datetime | None = None,
    **checklist: Any,
) -> Performed:
    """IA1: ``attacker`` strikes a duellist: the duel grows into a battle of three, the strike its first action."""
    now = now or timezone.now()
    situation.refresh_from_db()
    return grow_into_battle(
        situation,
        attacker,
        declarer=attacker,
        strike=_builder(attacker, victim, card_id, **checklist),
        user=user,
        seen_version=situation.version,
        nonce=nonce,
        now=now,
    )


def strike_into_battle(
    situation: Situation,
    attacker: Character,
    victim: Character,
    card_id: int | None,
    *,
    user: User,
    nonce: str,
    now: dt.datetime | None = None,
    **checklist: Any,
) -> Performed:
    """IA1, BP4: ``attacker`` strikes a combatant of a running battle and joins it by that strike.

    The join and the strike are one start: logged at the same instant, undone together.
    """
    now = now or timezone.now()
    if situation.kind != Situation.Kind.BATTLE:
        raise NotABattle()
    event = situation.event
    if not event.battles_on:
        raise BattlesOff()
    refuse_outsiders(event, [attacker])
    build = _builder(attacker, victim, card_id, **checklist)

    def start(nonce: str) -> Performed:
        row = Situation.objects.select_for_update().get(pk=situation.pk)
        tx = Transition(row, now)
        tx.expire()
        mark = tx.checkpoint()
        try:
            if tx.kind.is_ended(tx.state) or attacker.pk in tx.state.combatants:
                raise InAnotherFight(name=attacker.name)
            setup, cards = battle_setup(attacker)
            tx.command(B.JoinBattle(setup, attacker.side, cards, strike=True), actor=actor_of(user))
            tx.command(build(tx.state), actor=actor_of(user), nonce=nonce)
        except (RuleError, CardNotHeld, InAnotherFight):
            tx.restore(mark)  # the expiries stay, and commit with the refusal
            tx.save()
            raise
        tx.save()
        return Performed(row, tx.events, state=tx.state)

    return opening(event, nonce, start, refusals=(RuleError, CardNotHeld, InAnotherFight))

"""Starting a fight (S1): find the characters' situation or open one, join them, strike."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from cards.faces import face_of
from cards.models import ArsenalCard, Card
from duels.duel.kind import KIND, DuelKind
from duels.models import Situation
from duels.services.active import active_situation_for
from duels.services.commands import GROWN_FROM, User
from duels.services.errors import (
    CardNotHeld,
    CharacterBusy,
    DuelsOff,
    InAnotherFight,
    SeparateSituations,
)
from duels.services.opening import (
    Clock,
    carry_over,
    counters_of,
    fight_over,
    lock_characters,
    new_situation,
    opening,
    refuse_outsiders,
    save_or_drop,
    strike_in,
)
from duels.services.store import Performed, Transition, actor_of, check_nonce, nonce_used
from events.models import Character, Event
from rules import duel as engine


def start_instant_attack(
    event: Event,
    attacker: Character,
    victim: Character,
    card_id: int,
    *,
    out_of_sight: bool,
    within_reach: bool,
    max_rounds: int | None = None,
    parry: bool = True,
    focus_held: bool = True,
    drawn_card_id: int | None = None,
    user: User,
    nonce: str,
    now: dt.datetime | None = None,
) -> Performed:
    """IA1-IA7: ``attacker`` strikes ``victim`` with the catalogue card ``card_id`` from their hand.

    ``out_of_sight`` / ``within_reach`` are the referee's IA1 checklist; if
    either fails (or IA6 applies) the engine turns the blow into aggression.
    ``parry``: the victim tries to parry (IA3; False: nothing is drawn, not
    parried). ``focus_held``: a focused victim holds the focused card in front
    of them (F1; False: the draw is blind). The blind draw (IA3) is made by
    the situation kind with ``secrets`` and logged (see ``kinds.draw_for``),
    unless the event draws from real cards: then ``drawn_card_id`` is the
    catalogue card the victim drew, which must be in their hand (IA3).

    IA1: a victim already fighting someone else (a duellist, a battle's combatant)
    may be struck too; the attacker then joins that fight - through the core's
    ``strike_in``, to the wing that joins it (a duel grows into a battle).
    """
    now = now or timezone.now()
    running = _victims_fight(attacker, victim, now)
    if running is not None and not nonce_used(check_nonce(nonce)):
        refuse_outsiders(event, (attacker, victim))
        return strike_in(
            running,
            attacker,
            victim,
            card_id=card_id,
            out_of_sight=out_of_sight,
            within_reach=within_reach,
            parry=parry,
            focus_held=focus_held,
            drawn_card_id=drawn_card_id,
            user=user,
            nonce=nonce,
            now=now,
        )

    def build(kind: DuelKind, state: Any) -> Any:
        return engine.InstantAttack(
            attacker=attacker.pk,
            victim=victim.pk,
            card=_uid(kind, state, attacker, card_id),
            out_of_sight=out_of_sight,
            within_reach=within_reach,
            max_rounds=max_rounds,
            parry=parry,
            focus_held=focus_held,
            drawn=None if drawn_card_id is None else _uid(kind, state, victim, drawn_card_id),
        )

    return _start(event, attacker, victim, build, user=user, nonce=nonce, now=now)


def declare_aggression(
    event: Event,
    declarer: Character,
    target: Character,
    card_id: int | None = None,
    *,
    max_rounds: int | None = None,
    user: User,
    nonce: str,
    now: dt.datetime | None = None,
) -> Performed:
    """AG1: an open attack with ``card_id`` from the declarer's hand, or a spoken declaration (None)."""

    def build(kind: DuelKind, state: Any) -> Any:
        uid = None if card_id is None else _uid(kind, state, declarer, card_id)
        return engine.DeclareAggression(declarer=declarer.pk, target=target.pk, card=uid, max_rounds=max_rounds)

    return _start(event, declarer, target, build, user=user, nonce=nonce, now=now)


# --- internals ------------------------------------------------------------------------------------


def _uid(kind: DuelKind, state: Any, character: Character, card_id: int) -> str:
    uid = kind.uid_in_hand(state, character.pk, card_id)
    if uid is None:
        card = Card.objects.filter(pk=card_id).first()
        raise CardNotHeld(name=character.name, card=card.name if card else f"#{card_id}")
    return uid


def _check_fighters(event: Event, *characters: Character) -> None:
    if not event.duels_on:
        raise DuelsOff()
    refuse_outsiders(event, characters)


def _start(
    event: Event,
    first: Character,
    second: Character,
    build: Callable[[DuelKind, Any], Any],
    *,
    user: User,
    nonce: str,
    now: dt.datetime | None,
) -> Performed:
    now = now or timezone.now()
    _check_fighters(event, first, second)

    def start(nonce: str) -> Performed:
        situation = _situation_for(event, first, second, now)
        if situation.kind == KIND.key:
            return _strike(event, situation, first, second, build, user=user, nonce=nonce, now=now)
        # S2, IA6: their battle is over within its gap; the duel takes its situation on. A
        # refused strike takes the close back with it (the savepoint): the battle stays open.
        with transaction.atomic():
            reason = _("A duel takes the situation on: %(first)s and %(second)s.") % {
                "first": first.name,
                "second": second.name,
            }
            clock = carry_over(situation, reason=reason, user=user, now=now)
            if clock is None:
                raise InAnotherFight(name=first.name)  # a fight began in it meanwhile
            fresh = _open(event, now, clock, taken_from=situation.pk)
            # S2: the rest of its people stay in the situation (frozen, IA6), in no duel.
            stay = Character.objects.filter(situations=situation).exclude(pk__in=(first.pk, second.pk))
            return _strike(event, fresh, first, second, build, user=user, nonce=nonce, now=now, also=list(stay))

    # A refusal (two separate situations, busy, a card not held, a rule) is
    # raised after the commit, so the deadlines applied on the way are kept.
    refusals = (SeparateSituations, InAnotherFight, CharacterBusy, CardNotHeld, rules.RuleError)
    return opening(event, nonce, start, refusals=refusals)


def _strike(
    event: Event,
    situation: Situation,
    first: Character,
    second: Character,
    build: Callable[[DuelKind, Any], Any],
    *,
    user: User,
    nonce: str,
    now: dt.datetime,
    also: Sequence[Character] = (),
) -> Performed:
    """Join whoever is not in yet and apply the opening command; a refused one still saves the expiries.

    ``also``: the rest of a situation taken on (S2), joined with no duel.
    """
    # Lock the characters too: the arsenal builder holds these locks while it
    # checks ``in_active_situation``, so the hands read below are never half-way through a change.
    fighters = lock_characters([first, second, *also])
    tx = Transition(situation, now)
    tx.expire()
    if situation.ended or KIND.is_ended(tx.state):
        # The gap ran out just now (S2): close this one, open a fresh one.
        tx.save()
        situation = _open(event, now)
        tx = Transition(situation, now)
    mark = tx.checkpoint()
    try:
        _busy_check(tx.state, first, second)
        for character in fighters:
            if character.pk not in tx.state.fighters:
                tx.command(engine.Join(_setup(character)), actor=actor_of(user))
        tx.command(build(KIND, tx.state), actor=actor_of(user), nonce=nonce)
    except (rules.RuleError, CharacterBusy, CardNotHeld):
        # A refused start keeps only its expiries (the joins go too), which
        # commit with the refusal (commit_then_refuse).
        tx.restore(mark)
        save_or_drop(tx, situation)
        raise
    save_or_drop(tx, situation)
    return Performed(situation, tx.events)


def _victims_fight(attacker: Character, victim: Character, now: dt.datetime) -> Situation | None:
    """IA1: the running fight ``victim`` is in with others and ``attacker`` is not: a duel or a battle.

    None when the victim is in no fight, or in a duel situation with no open duel (a new duel
    opens in it as before), or when the attacker fights too (the usual checks apply).
    """
    theirs = active_situation_for(victim, now=now)
    if theirs is None or active_situation_for(attacker, now=now) is not None:
        return None
    if theirs.kind != KIND.key:
        # A battle over within its gap is not joined: a new fight takes its situation on (S2, IA6).
        return None if fight_over(theirs, now=now) else theirs
    return theirs if KIND.busy_with(KIND.from_dict(theirs.state), victim.pk) is not None else None


def _situation_for(event: Event, first: Character, second: Character, now: dt.datetime) -> Situation:
    """The situation both are in, the one either is in, or a new one (S2)."""
    mine = active_situation_for(first, now=now)
    theirs = active_situation_for(second, now=now)
    if mine is not None and theirs is not None and mine.pk != theirs.pk:
        raise SeparateSituations(name=first.name, other=second.name)
    found = mine or theirs
    if found is not None and found.kind != KIND.key:
        if fight_over(found, now=now):
            return found  # over within its gap: the duel takes its situation on (S2), ``_start``
        # A battle (or another kind) running is joined from its own page, never by a duel's start.
        busy = first if mine is not None else second
        raise InAnotherFight(name=busy.name)
    if found is not None:
        return Situation.objects.select_for_update().get(pk=found.pk)
    return _open(event, now)


def _open(event: Event, now: dt.datetime, clock: Clock = (None, False), taken_from: int | None = None) -> Situation:
    """A new duel situation; ``clock``: the open situation it takes on (``taken_from``), its last action and IA6 (S2).

    ``taken_from`` is named in the opening (``GROWN_FROM``): undoing the start opens it again.
    """
    settings = engine.Settings(
        answer_window_s=event.answer_window_s,
        gap_s=event.situation_gap_s,
        focus_abilities=event.focus_abilities,
        physical_draws=event.physical_draws,
    )
    opened = KIND.open(settings, counters_of(event), now)
    opened.last_action_at, opened.instant_attack_used = clock[0], clock[1]
    extra = {} if taken_from is None else {GROWN_FROM: [taken_from]}
    return new_situation(event, KIND, opened, **extra)


def _busy_check(state: Any, first: Character, second: Character) -> None:
    """D1 as a clear message: neither may already be in a duel, with each other or a third person."""
    for me in (first, second):
        opponent = KIND.busy_with(state, me.pk)
        if opponent is not None:
            raise CharacterBusy(name=me.name, other=state.fighters[opponent].name)


def _setup(character: Character) -> rules.FighterSetup:
    """The character as they come into the fight: current arsenal, focus (F1), condition."""
    hand: list[rules.CardFace] = []
    rows = ArsenalCard.objects.filter(character=character).select_related("card").order_by("card__kind", "card_id")
    for row in rows:
        hand.extend([face_of(row.card)] * row.copies)
    focus = character.focus_card_id
    allowed = [face for face in hand if face.is_defence and (face.is_spell or character.event.focus_abilities)]
    if focus is not None and not any(face.card_id == focus for face in allowed):
        # A stale focus on a card no longer held is dropped, not an error:
        # F1 focuses a defence card of the arsenal, and this one left it (or
        # the catalogue has since made it an attack card). Refusing would
        # keep the character out of every fight until someone noticed. The
        # same for an ability focused before the event stopped allowing it.
        focus = None
    return rules.FighterSetup(
        character_id=character.pk,
        name=character.name,
        hand=tuple(hand),
        focus_card_id=focus,
        condition=character.condition,
    )

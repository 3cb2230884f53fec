"""Starting a battle and adding a combatant to it (issue 11), through the shared situation core.

A battle is opened by the referee with three or more characters on two or more
sides (default: their own sides). Each joins with their current arsenal as
battle cards (face + the catalogue's action kind and trigger, R4) and their
condition; the declarer acts first (D5). Every later change goes through
``perform`` / ``undo_last`` like a duel's.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from cards.arsenal import next_round_arsenal, prepared_ids
from cards.faces import face_of
from cards.models import ArsenalCard, Card, PreparedArsenal
from duels.battle.kind import KIND
from duels.models import Situation
from duels.services.active import active_situation_for
from duels.services.commands import GROWN_FROM, User, perform, state_of
from duels.services.errors import (
    BattlesOff,
    InAnotherFight,
    NotABattle,
    NotInEvent,
    StaleVersion,
    StillInSituation,
    TooFewCombatants,
)
from duels.services.opening import (
    carry_all,
    counters_of,
    lock_characters,
    merge_clocks,
    new_situation,
    opening,
    refuse_if_fighting,
    refuse_outsiders,
)
from duels.services.store import Performed, Transition, actor_of, check_nonce, nonce_used
from events.models import Character, Event
from rules import CardFace, FighterSetup, RuleError
from rules import battle as B
from rules.conditions import can_fight
from rules.duel import EndSituation
from rules.errors import ARSENAL


def battle_card(face: CardFace, card: Card) -> B.BattleCard:
    """The catalogue card as a battle uses it: action kind and trigger (R4), double attack (BP2)."""
    return B.BattleCard(
        face=face,
        action=card.action_kind,
        trigger=card.trigger_text,
        trigger_kind=card.trigger_kind,
        double=card.double_attack,
    )


def battle_setup(character: Character) -> tuple[FighterSetup, tuple[B.BattleCard, ...]]:
    """The character as they come in: current arsenal (with action kinds, R4), focus, condition."""
    faces = []
    cards: list[B.BattleCard] = []
    rows = ArsenalCard.objects.filter(character=character).select_related("card").order_by("card__kind", "card_id")
    for row in rows:
        face = face_of(row.card)
        card = battle_card(face, row.card)
        faces.extend([face] * row.copies)
        cards.extend([card] * row.copies)
    focus = character.focus_card_id
    if focus is not None and not any(face.card_id == focus for face in faces):
        focus = None
    setup = FighterSetup(
        character_id=character.pk,
        name=character.name,
        hand=tuple(faces),
        focus_card_id=focus,
        condition=character.condition,
    )
    return setup, tuple(cards)


def _check(event: Event, characters: Sequence[Character]) -> None:
    if not event.battles_on:
        raise BattlesOff()
    refuse_outsiders(event, characters)


def start_battle(
    event: Event,
    combatants: Sequence[Character],
    *,
    declarer: Character,
    sides: dict[int, str] | None = None,
    max_rounds: int | None = None,
    carried: tuple[dt.datetime | None, bool] = (None, False),
    strike: Callable[[B.Battle], Any] | None = None,
    grown_from: int | None = None,
    user: User,
    nonce: str,
    now: dt.datetime | None = None,
) -> Performed:
    """Open a battle: join everyone (sides default to the characters' own) and begin round 1 (D5).

    ``carried``: a duel grown into this battle hands on its situation (S2): the time of its
    last combat action and whether its instant attack was used (IA6). ``strike``: the
    declarer opens it with an instant attack (IA1), the command built from the battle just
    begun; the begin goes with it (an undo takes both). ``grown_from``: the duel's row, kept in
    the opening so that undoing the battle's start gives the duel back (duels/services/commands.py).
    """
    now = now or timezone.now()
    _check(event, combatants)
    sides = {c.pk: (sides or {}).get(c.pk) or c.side for c in combatants}
    if len({c.pk for c in combatants}) < B.MIN_COMBATANTS or len(set(sides.values())) < 2:
        raise TooFewCombatants()
    if declarer.pk not in sides:
        raise NotInEvent(name=declarer.name)

    def start(nonce: str) -> Performed:
        # S2, IA6: a combatant whose fight is over within its gap brings that situation in.
        names = ", ".join(c.name for c in combatants)
        reason = _("A battle takes the situation on: %(names)s.") % {"names": names}
        taken, closed = carry_all(combatants, reason=reason, user=user, now=now)
        _refuse_left_behind(closed, combatants)
        locked = {c.pk: c for c in lock_characters(combatants)}
        refuse_if_fighting(locked.values(), now=now)
        settings = B.BattleSettings(
            answer_window_s=event.answer_window_s,
            gap_s=event.situation_gap_s,
            reactions_from_round=event.reactions_from_round,
            every_round_a_bout=event.every_round_a_bout,
            physical_draws=event.physical_draws,
        )
        last_action_at, instant_attack_used = merge_clocks(carried, taken)
        opened = B.open_battle(
            settings, counters_of(event), now, last_action_at=last_action_at, instant_attack_used=instant_attack_used
        )
        extra: dict[str, Any] = {} if grown_from is None else {GROWN_FROM: grown_from}
        if closed:
            # S2: undoing this start opens the situations it took on again (duels/services/commands.py).
            extra = {GROWN_FROM: [*([] if grown_from is None else [grown_from]), *closed]}
        situation = new_situation(event, KIND, opened, **extra)
        tx = Transition(situation, now)
        for character in dict.fromkeys(c.pk for c in combatants):
            setup, cards = battle_setup(locked[character])
            tx.command(B.JoinBattle(setup, sides[character], cards), actor=actor_of(user))
        begin = B.BeginBattle(declarer=declarer.pk, max_rounds=max_rounds, instant=strike is not None)
        tx.command(begin, actor=actor_of(user), nonce=nonce)
        if strike is not None:
            tx.command(strike(tx.state), actor=actor_of(user))
        tx.save()
        return Performed(situation, tx.events)

    return opening(event, nonce, start)


def _refuse_left_behind(closed: Sequence[int], combatants: Sequence[Character]) -> None:
    """S2: the situations taken on stay open for everyone in them; all who can still fight come along."""
    if not closed:
        return
    chosen = {c.pk for c in combatants}
    others = Character.objects.filter(situations__in=closed).exclude(pk__in=chosen).distinct().order_by("name")
    for other in others:
        if can_fight(other.condition):
            raise StillInSituation(name=other.name)


def add_combatant(
    situation: Situation,
    character: Character,
    *,
    side: str | None = None,
    strike: bool = False,
    user: User,
    seen_version: int,
    nonce: str,
    now: dt.datetime | None = None,
) -> Performed:
    """A newcomer joins a running battle and takes turns from the next round (BP4).

    ``strike``: they join by attacking; their attack is accepted at once, out of turn.
    """
    if situation.kind != Situation.Kind.BATTLE:
        raise NotABattle()
    _check(situation.event, [character])
    other = active_situation_for(character, now=now)
    if other is not None and other.pk != situation.pk:
        raise InAnotherFight(name=character.name)
    setup, cards = battle_setup(character)
    return perform(
        situation.pk,
        B.JoinBattle(setup, side or character.side, cards, strike=strike),
        user=user,
        seen_version=seen_version,
        nonce=nonce,
        now=now,
    )


def take_prepared_between_rounds(
    situation: Situation,
    character: Character,
    prepared: PreparedArsenal,
    *,
    user: User,
    seen_version: int,
    nonce: str,
    now: dt.datetime | None = None,
) -> Performed:
    """D3: between rounds a combatant takes a prepared arsenal, checked like any other (pool, size)."""
    if prepared.character_id != character.pk:
        raise NotInEvent(name=character.name)
    ids = prepared_ids(prepared)
    return _new_arsenal(
        situation, character, ids, prepared.name, user=user, seen_version=seen_version, nonce=nonce, now=now
    )


def build_between_rounds(
    situation: Situation,
    character: Character,
    card_ids: Sequence[int],
    *,
    user: User,
    seen_version: int,
    nonce: str,
    now: dt.datetime | None = None,
) -> Performed:
    """D3: between rounds a combatant builds a new arsenal on the spot from their pool (one id per copy).

    The pool and the arsenal limit are the engine's ``check_arsenal`` (through
    ``next_round_arsenal``), as in the arsenal builder and a duel's round break.
    """
    if not card_ids:
        # An empty hand is never what "build a new arsenal" means; the hand stays.
        raise RuleError(ARSENAL, gettext_noop("Pick at least one card for the new arsenal, or keep the hand."))
    return _new_arsenal(
        situation, character, sorted(card_ids), "", user=user, seen_version=seen_version, nonce=nonce, now=now
    )


def _new_arsenal(
    situation: Situation,
    character: Character,
    ids: list[int],
    label: str,
    *,
    user: User,
    seen_version: int,
    nonce: str,
    now: dt.datetime | None,
) -> Performed:
    """Check ``ids`` against the pool and limit, then give them to the engine's ``NewArsenal``.

    A refusal (here or in the engine) raises before anything is written.
    """
    if situation.kind != Situation.Kind.BATTLE:
        raise NotABattle()
    if character.event_id != situation.event_id:
        raise NotInEvent(name=character.name)
    faces = next_round_arsenal(character, ids)  # the same checks as the arsenal builder
    rows = {c.pk: c for c in Card.objects.filter(pk__in=set(ids))}
    arsenal = tuple(battle_card(f, rows[f.card_id]) for f in faces)
    return perform(
        situation.pk,
        B.NewArsenal(combatant=character.pk, arsenal=arsenal, label=label),
        user=user,
        seen_version=seen_version,
        nonce=nonce,
        now=now,
    )


def grow_into_battle(
    situation: Situation,
    newcomer: Character,
    *,
    declarer: Character,
    side: str | None = None,
    strike: Callable[[B.Battle], Any] | None = None,
    user: User,
    seen_version: int,
    nonce: str,
    now: dt.datetime | None = None,
) -> Performed:
    """A third Other attacks or is attacked in a running duel: it becomes a battle (issue 11).

    ``strike``: the newcomer, the declarer, opens the battle with an instant attack (IA1,
    duels/battle/instant.py); an undo of it gives the duel back.

    In one transaction the duel's situation is closed (EndSituation: open steps go back to
    hand, hands and conditions are written back), and a battle opens with everyone in it,
    holding what they held, the declarer first (D5). Returns the battle's ``Performed``; a
    repeated nonce returns the battle it made.
    """
    now = now or timezone.now()
    nonce = check_nonce(nonce)
    if situation.kind != Situation.Kind.DUEL:
        raise NotABattle()
    battle_nonce = f"{nonce}-battle" if nonce else ""
    if battle_nonce and (made := nonce_used(battle_nonce)) is not None:
        return Performed(made.situation, repeated=True)
    _check(situation.event, [newcomer])
    with transaction.atomic():
        # Lock order (store.py): the event's row first, as every opening does, then the situation.
        Event.objects.select_for_update().filter(pk=situation.event_id).first()
        fighters = list(Character.objects.filter(situations=situation).order_by("pk"))
        if newcomer.pk in {f.pk for f in fighters}:
            raise InAnotherFight(name=newcomer.name)
        duel_state = state_of(Situation.objects.get(pk=situation.pk))
        # S2: the duel's situation goes on as the battle - its clock and its instant attack (IA6).
        carried = (duel_state.last_action_at, bool(duel_state.instant_attack_used))
        closed = perform(
            situation.pk,
            EndSituation(reason=_("The duel grows into a battle: %(name)s joins.") % {"name": newcomer.name}),
            user=user,
            seen_version=seen_version,
            nonce=nonce,
            now=now,
        )
        sides = {newcomer.pk: side or newcomer.side}
        if closed.repeated:
            raise StaleVersion(closed.situation)
        for fighter in fighters:
            fighter.refresh_from_db()
        return start_battle(
            situation.event,
            [*fighters, newcomer],
            declarer=declarer,
            sides=sides,
            carried=carried,
            strike=strike,
            grown_from=situation.pk if strike is not None else None,
            user=user,
            nonce=battle_nonce,
            now=now,
        )

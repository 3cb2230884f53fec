"""Starting a mass battle (M1): two armies, the catalogue's magic cards, decks shuffled by the server.

Everything after the start goes through ``perform`` / ``undo_last`` like any
fight; the engine commands are ``rules.mass``'s.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext_noop

import rules.mass as magic
from cards.models_mass import Army, MagicCard, Warrior, in_natural_order
from duels.mass.kind import KIND
from duels.models import Situation
from duels.services.commands import User
from duels.services.errors import ServiceError
from duels.services.opening import new_situation, opening
from duels.services.store import Performed, Transition, actor_of
from events.models import Event


class MassBattlesOff(ServiceError):
    code = "MASS_OFF"
    default_message = gettext_noop("Mass battles are switched off for this event.")


class BadArmies(ServiceError):
    code = "ARMIES"
    default_message = gettext_noop("Choose two different armies of this event.")


class NoMagicCards(ServiceError):
    code = "NO_MAGIC"
    default_message = gettext_noop("The event's catalogue has no magic cards; add them before a mass battle.")


class ArmyInMassBattle(ServiceError):
    code = "BUSY"
    default_message = gettext_noop(
        "The army “%(name)s” is already in the running mass battle %(number)s; end it before starting another."
    )


class KeepableInWrongDeck(ServiceError):
    code = "M5"
    default_message = gettext_noop(
        "The magic card “%(name)s” is to be kept when you see fit, but in this event only decks %(decks)s "
        "may hold such cards, not deck %(deck)s (M5). Change the card or the event setting."
    )


def faces_of(cards: list[MagicCard]) -> list[magic.MagicFace]:
    """One face per physical copy; a uid names the catalogue card and the copy: ``"<id>.<n>"``."""
    return [
        magic.MagicFace(
            uid=f"{card.pk}.{n}",
            card_id=card.pk,
            deck=card.deck,
            magic_type=card.magic_type,
            acts_on_protected=card.acts_on_protected,
            keepable=card.keepable,
        )
        for card in cards
        for n in range(1, card.copies + 1)
    ]


def warriors_of(army: Army, side: str) -> list[magic.Warrior]:
    rows = in_natural_order(Warrior.objects.filter(army=army).select_related("warrior_type"))
    return [
        magic.Warrior(
            wid=str(w.pk),
            side=side,
            name=w.name,
            type_name=w.warrior_type.name_ru,
            protections=w.warrior_type.protection_set,
            place=w.state,
        )
        for w in rows
    ]


def opening_of(event: Event, army_a: Army, army_b: Army) -> magic.MassBattle:
    if not event.mass_battles_on:
        raise MassBattlesOff()
    if army_a.pk == army_b.pk or army_a.event_id != event.pk or army_b.event_id != event.pk:
        raise BadArmies()
    if event.catalogue_id is None:
        raise NoMagicCards()
    cards = list(MagicCard.objects.filter(catalogue_id=event.catalogue_id).order_by("deck", "pk"))
    if not cards:
        raise NoMagicCards()
    keepable = event.keepable_decks
    for card in cards:
        if card.keepable and card.deck not in keepable:
            raise KeepableInWrongDeck(name=card.name, deck=card.deck, decks=", ".join(map(str, keepable)) or "—")
    sides = [
        magic.Side(key="a", name=army_a.name, commander=army_a.commander_label),
        magic.Side(key="b", name=army_b.name, commander=army_b.commander_label),
    ]
    warriors = warriors_of(army_a, "a") + warriors_of(army_b, "b")
    settings = magic.MagicSettings(keepable_decks=keepable, printed_decks=event.magic_printed_decks)
    return magic.open_battle(settings, faces_of(cards), warriors, sides)


def start_mass_battle(
    event: Event, army_a: Army, army_b: Army, *, user: User, nonce: str, now: dt.datetime | None = None
) -> Performed:
    """M1: open a mass battle between two armies and shuffle its four decks (logged, with ``secrets``).

    ``army_a`` is side "a", ``army_b`` side "b"; the situation records which
    army is which in its opening state (``Side.name``) and in ``armies``.
    """
    now = now or timezone.now()

    def start(nonce: str) -> Performed:
        refuse_busy_armies(event, [army_a, army_b])
        armies = {"a": army_a.pk, "b": army_b.pk}
        situation = new_situation(event, KIND, opening_of(event, army_a, army_b), armies=armies)
        tx = Transition(situation, now)
        tx.command(magic.ShuffleDecks(), actor=actor_of(user), nonce=nonce)
        tx.save()
        return Performed(situation, tx.events)

    return opening(event, nonce, start, refusals=(ArmyInMassBattle,))


def refuse_busy_armies(event: Event, armies: list[Army]) -> None:
    """Issue 20: an army already in a running mass battle starts no other (its warriors' rows would be written by
    both). Called inside ``opening``, under the event's lock, which every start takes first; the armies' rows are
    locked too, in id order, as a duel's start locks its characters."""
    ids = sorted({army.pk for army in armies})
    locked = {a.pk: a for a in Army.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    running = Situation.objects.filter(event=event, kind=KIND.key, ended=False).order_by("pk")
    for situation in running.only("pk", "opening"):
        busy = set(armies_of(situation).values())
        for army_id in ids:
            if army_id in busy:
                name = locked[army_id].name if army_id in locked else str(army_id)
                raise ArmyInMassBattle(name=name, number=situation.pk)


def armies_of(situation: Situation) -> dict[str, int]:
    """Which army is side "a" and which side "b" (the commander's page needs it)."""
    return {str(k): int(v) for k, v in (situation.opening.get("armies") or {}).items()}

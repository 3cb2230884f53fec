"""The one way a fight of any kind opens: the event's lock, the nonce, the row, the joins.

Every kind's start (``duels/duel/start.py``, ``duels/battle/start.py``,
``duels/mass/start.py``) runs its own checks and builds its own commands
inside ``opening``; what they share is here, once:

- openings in one event go one at a time (the event's row is locked first,
  see store.py for the lock order), so two referees cannot open two fights
  for the same people, or the same armies;
- a nonce seen before is a repeat: the fight it opened is handed back and
  nothing changes - also when the repeat raced the first submission through
  the log's unique nonce (an ``IntegrityError``);
- a refusal of the kinds the start names commits what was applied on the way
  (overdue deadlines are facts) and is raised after the commit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import IntegrityError

from cards.faces import counter_rule_of
from cards.models import CounterRule
from duels.models import Situation
from duels.services.active import active_situation_for
from duels.services.commands import User, commit_then_refuse
from duels.services.errors import InAnotherFight, NotInEvent
from duels.services.kinds import SituationKind, kind_of
from duels.services.store import Performed, Transition, actor_of, check_nonce, nonce_used
from events.models import Character, Event
from rules.cards import CounterRule as EngineCounterRule


def opening(
    event: Event,
    nonce: str,
    start: Callable[[str], Performed],
    *,
    refusals: Sequence[type[Exception]] = (),
) -> Performed:
    """Run ``start(nonce)`` under the event's lock, or hand back the fight a repeated nonce opened."""
    nonce = check_nonce(nonce)
    try:
        with commit_then_refuse(*refusals):
            Event.objects.select_for_update().filter(pk=event.pk).first()
            used = nonce_used(nonce)
            if used is not None:
                return Performed(used.situation, repeated=True)
            return start(nonce)
    except IntegrityError:
        used = nonce_used(nonce)
        if used is not None:
            return Performed(used.situation, repeated=True)
        raise


def refuse_outsiders(event: Event, characters: Iterable[Character]) -> None:
    """Only the event's accepted characters fight in it (a refusal names the first who is not)."""
    for character in characters:
        if character.event_id != event.pk or character.status != Character.Status.ACCEPTED:
            raise NotInEvent(name=character.name)


def new_situation(event: Event, kind: SituationKind, opening_state: Any, **extra: Any) -> Situation:
    """The row of a new fight: its opening snapshot (settings, counter rules, decks), and its state."""
    snapshot = {**kind.to_dict(opening_state), **extra}
    return Situation.objects.create(event=event, kind=kind.key, opening=snapshot, state=snapshot)


def counters_of(event: Event) -> list[EngineCounterRule]:
    """The catalogue's counter rules (CR2) as the engine takes them, fixed for the fight when it opens."""
    rules = CounterRule.objects.filter(defence_card__catalogue=event.catalogue_id)
    return [counter_rule_of(rule) for rule in rules]


def lock_characters(characters: Iterable[Character]) -> list[Character]:
    """The characters' rows, locked in id order (the arsenal builder locks them too, store.py)."""
    ids = sorted({c.pk for c in characters})
    return list(Character.objects.select_for_update().filter(pk__in=ids).order_by("pk"))


def refuse_if_fighting(characters: Iterable[Character], *, now: dt.datetime, allowed: int | None = None) -> None:
    """Refuse a character already in a running fight (other than ``allowed``), by name."""
    for character in characters:
        running = active_situation_for(character, now=now)
        if running is not None and running.pk != allowed:
            raise InAnotherFight(name=character.name)


def save_or_drop(tx: Transition, situation: Situation) -> None:
    """Save what the opening did; a row opened for it that nothing happened in is dropped."""
    if not tx.save() and not situation.log.exists():
        situation.delete()


# --- a new fight that takes on an open situation (S2, IA6) ---------------------------------------
# S2: when a fight ends its situation stays open until the gap has passed (arsenals frozen, IA6
# counts). A new fight with one of its people - an instant attack (turned into an ordinary
# attack by IA6), an aggression, a referee's start - takes the situation on, as a duel grown
# into a battle does (duels/battle/start.py ``grow_into_battle``): the old row is closed now by
# the referee (its hands written back, store.py ``write_back``) and the new fight opens from
# those hands with the old clock and instant attack. The two rows never hold a hand at once.
Clock = tuple[dt.datetime | None, bool]


def fight_over(situation: Situation, *, now: dt.datetime) -> bool:
    """Its fight is over and its situation open (within the gap): a new fight would take it on (S2)."""
    kind = kind_of(situation)
    state, _ = kind.expire(kind.from_dict(situation.state), now)
    return not kind.is_ended(state) and kind.carry_on(state, "-") is not None


def carry_over(situation: Situation, *, reason: str, user: User, now: dt.datetime) -> Clock | None:
    """Close ``situation`` for a new fight that takes it on: its clock and IA6, or None if a fight runs in it.

    The close is logged by the referee with ``reason``; the core writes the hands back. Runs
    inside the opening (the event's row is locked first); the caller's transaction keeps the
    close and the new fight together, so a refused start leaves the old situation open.
    """
    row = Situation.objects.select_for_update().get(pk=situation.pk)
    tx = Transition(row, now)
    tx.expire()
    found = None if tx.kind.is_ended(tx.state) else tx.kind.carry_on(tx.state, reason)
    if found is None:
        tx.save()
        return None
    tx.command(found.close, actor=actor_of(user))
    tx.save()
    return found.last_action_at, found.instant_attack_used


def carry_all(characters: Iterable[Character], *, reason: str, user: User, now: dt.datetime) -> tuple[Clock, list[int]]:
    """Every open situation the characters' fights have ended in, closed and taken on (S2, IA6).

    Returns the clock the new fight carries (several: the newest last action; the instant
    attack spent if any spent it) and the rows closed, for the new fight's opening to name
    (``GROWN_FROM``: undoing its start opens them again). A fight still running is left alone
    (``refuse_if_fighting`` names who is in it).
    """
    clocks: list[Clock] = []
    taken: list[int] = []
    for character in characters:
        running = active_situation_for(character, now=now)
        clock = None if running is None else carry_over(running, reason=reason, user=user, now=now)
        if running is not None and clock is not None:
            clocks.append(clock)
            taken.append(running.pk)
    return merge_clocks(*clocks), taken


def merge_clocks(*clocks: Clock) -> Clock:
    """The clock a fight carries from several situations: the newest last action; IA6 spent by any."""
    times = [at for at, _ in clocks if at is not None]
    return (max(times) if times else None), any(used for _, used in clocks)


# --- an instant attack on someone already fighting (IA1) ------------------------------------------
# IA1: an instant attack may strike a duellist or a battle's combatant; the attacker joins that
# fight (a duel grows into a battle). The duel's start finds the victim's fight and hands the
# strike on through here, to whichever wing joins that kind of fight (the battle's, for a duel
# and a battle: duels/battle/instant.py); the wings never import each other.
StrikeIn = Callable[..., Performed]
_STRIKES: dict[str, StrikeIn] = {}


def register_strike_in(kind: str, strike: StrikeIn) -> None:
    """The wing that joins a running fight of ``kind`` by an instant attack (``DuelsConfig.ready``)."""
    _STRIKES[kind] = strike


def strike_in(situation: Situation, attacker: Character, victim: Character, **options: Any) -> Performed:
    """IA1: ``attacker`` strikes ``victim`` in their running fight and joins it; refused if no wing can."""
    strike = _STRIKES.get(situation.kind)
    if strike is None:
        raise InAnotherFight(name=victim.name)
    return strike(situation, attacker, victim, **options)

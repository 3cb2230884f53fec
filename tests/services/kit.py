"""Builders shared by the services, timers and concurrency tests."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from cards.models import ArsenalCard, Card, CounterRule, PoolEntry
from duels import services
from duels.duel.start import start_instant_attack
from duels.models import LogEntry, Situation
from events.models import Character
from rules import duel as engine

# D4: the names of the cards in ``secret_hands`` (tests/conftest.py), never played.
SECRET_ANTON = ("Покров тайны", "Veil of Secrets")
SECRET_ZAVULON = ("Тёмное зеркало", "Dark Mirror")


def nonce() -> str:
    return uuid.uuid4().hex


def record_draws(monkeypatch: pytest.MonkeyPatch, choose: Callable[[int], int] = lambda n: 0) -> list[int]:
    """The services' chance (``secrets.randbelow``) replaced: each draw's size is recorded, ``choose`` picks."""
    sizes: list[int] = []

    def randbelow(n: int) -> int:
        sizes.append(n)
        return choose(n)

    monkeypatch.setattr("secrets.randbelow", randbelow)
    return sizes


def instant_attack(attacker: Character, victim: Character, card: Card, referee: Any, now: Any, **options: Any) -> Any:
    """IA through the services at ``now``: unseen and within reach unless ``sight``/``reach`` say otherwise (IA1)."""
    return start_instant_attack(
        attacker.event,
        attacker,
        victim,
        card.pk,
        out_of_sight=options.pop("sight", True),
        within_reach=options.pop("reach", True),
        user=referee,
        nonce=nonce(),
        now=now,
        **options,
    )


def arm(character: Character, *cards: Card | tuple[Card, int]) -> None:
    """Give the character these cards in pool and current arsenal."""
    for item in cards:
        card, copies = item if isinstance(item, tuple) else (item, 1)
        PoolEntry.objects.update_or_create(character=character, card=card, defaults={"copies": copies})
        ArsenalCard.objects.update_or_create(character=character, card=card, defaults={"copies": copies})


def arsenal(character: Character) -> dict[int, int]:
    return dict(ArsenalCard.objects.filter(character=character).values_list("card_id", "copies"))


def parries(defence: Card, tag: str) -> CounterRule:
    return CounterRule.objects.create(defence_card=defence, attack_tag=tag, outcome="parried")


def state(situation: Situation) -> Any:
    situation.refresh_from_db()
    return services.state_of(situation)


def assert_replays(situation: Situation) -> None:
    """DESIGN.md §4: state = replay of the log."""
    situation.refresh_from_db()
    assert engine.to_dict(services.replayed(situation)) == situation.state


def kinds(situation: Situation) -> list[str]:
    """The log as command types ("join", "attack", ...), "expire" and "undo"; undone ones marked with ~."""
    out = []
    for entry in LogEntry.objects.filter(situation=situation).order_by("seq"):
        name = entry.command_type
        out.append(("~" if entry.undone else "") + name)
    return out


def uid(situation: Situation, character: Character, card: Card) -> str:
    st = state(situation)
    return next(u for u in st.fighters[character.pk].hand if st.cards[u].card_id == card.pk)


def act(situation: Situation, command: Any, user: Any, **kwargs: Any) -> services.Performed:
    situation.refresh_from_db()
    kwargs.setdefault("nonce", nonce())
    return services.perform(situation.pk, command, user=user, seen_version=situation.version, **kwargs)


def event_types(performed: services.Performed) -> list[str]:
    return [e.type for e in performed.events]


# --- a fight on the server's clock: every time is T0 plus seconds (the module's ``clock`` fixture) ---

T0 = dt.datetime(2026, 12, 5, 20, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def instant(attacker: Character, victim: Character, card: Card, referee: Any, t: float, **options: Any) -> Any:
    return instant_attack(attacker, victim, card, referee, at(t), **options)


def undo(situation: Situation, referee: Any, t: float) -> None:
    situation.refresh_from_db()
    services.undo_last(
        situation.pk, user=referee, reason="wrong victim", seen_version=situation.version, nonce=nonce(), now=at(t)
    )


def knock_out(situation, anton, zavulon, referee, attack_card, defence_card, spark):
    """The whole duel of test_perform: Zavulon ends heavily wounded (D11), Anton lightly wounded."""
    act(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, defence_card)), referee)
    act(situation, engine.ConfirmResult(duel=0), referee)
    act(situation, engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, spark)), referee)
    act(situation, engine.Answer(duel=0, fighter=anton.pk, card=None), referee)
    act(situation, engine.ConfirmResult(duel=0), referee)
    act(situation, engine.Attack(duel=0, fighter=anton.pk, card=uid(situation, anton, attack_card)), referee)
    act(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=None), referee)
    act(situation, engine.ConfirmResult(duel=0), referee)

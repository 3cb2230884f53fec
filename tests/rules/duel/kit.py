"""Builders for engine tests: a small catalogue, fixed fighters and a Fight driver."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

import pytest

from rules import (
    ATTACK,
    DEFENCE,
    HEAVILY_WOUNDED,
    HELPLESS,
    LIGHTLY_WOUNDED,
    NO_EFFECT,
    PARALYSED,
    PARRIED,
    SOFTENED,
    CardFace,
    CounterRule,
    EngineEvent,
    FighterSetup,
    RuleError,
)
from rules.cards import ABILITY
from rules.duel import (
    AWAIT_ANSWER,
    AWAIT_RESULT,
    Command,
    InstantAttack,
    Join,
    LogEntry,
    Settings,
    Situation,
    apply,
    draw_size_for,
    expire,
    open_situation,
    replay,
    to_dict,
)

T0 = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


# A tiny catalogue. Attacks
FIRE = CardFace(1, "Fireball", ATTACK, HEAVILY_WOUNDED, LIGHTLY_WOUNDED, ("fire",))
DART = CardFace(2, "Magic Dart", ATTACK, LIGHTLY_WOUNDED, NO_EFFECT, ("missile",))
SLEEP = CardFace(3, "Sleep", ATTACK, HELPLESS, PARALYSED, ("mind",))
# Defences
SHIELD = CardFace(10, "Mage Shield", DEFENCE)
HEAL = CardFace(11, "Healing", DEFENCE)
WARD = CardFace(12, "Mind Ward", DEFENCE)

COUNTERS = [
    CounterRule(10, None, "fire", SOFTENED),  # Mage Shield softens fire
    CounterRule(10, None, "missile", PARRIED),  # and stops missiles
    CounterRule(12, None, "mind", PARRIED),  # Mind Ward stops mind attacks
    CounterRule(11, 1, None, SOFTENED),  # Healing softens a Fireball
]

ANTON, ZAVULON, OLGA = 1, 2, 3
NAMES = {ANTON: "Anton", ZAVULON: "Zavulon", OLGA: "Olga"}


def setup(cid: int, *hand: CardFace, focus: int | None = None, condition: str = "fit") -> FighterSetup:
    return FighterSetup(cid, NAMES.get(cid, f"F{cid}"), tuple(hand), focus, condition)


def uid(state: Situation, fighter: int, card_id: int, nth: int = 0) -> str:
    """The nth copy of ``card_id`` in the fighter's hand."""
    found = [u for u in state.fighters[fighter].hand if state.cards[u].card_id == card_id]
    return found[nth]


def card_places(state: Situation) -> Counter[str]:
    """How many places hold each uid (conservation: exactly one each)."""
    places: Counter[str] = Counter()
    for fighter in state.fighters.values():
        for uid_ in fighter.hand + fighter.discards + fighter.set_aside:
            places[uid_] += 1
    for duel in state.duels:
        if duel.step is not None:
            places[duel.step.attack_card] += 1
            if duel.step.answer_card is not None:
                places[duel.step.answer_card] += 1
    return places


def check_invariants(state: Situation) -> None:
    places = card_places(state)
    assert set(places) == set(state.cards), "a card was lost or invented"
    assert all(n == 1 for n in places.values()), f"a card is in two places: {places}"
    for cid, fighter in state.fighters.items():
        for uid_ in fighter.hand + fighter.discards + fighter.set_aside:
            assert uid_.startswith(f"{cid}:"), "a card changed owner"
        if fighter.focus is not None:
            in_step = any(
                d.step is not None and d.step.answer_card == fighter.focus and d.step.defender == cid
                for d in state.duels
            )
            assert fighter.focus in fighter.hand or in_step
            assert state.cards[fighter.focus].kind == DEFENCE
    open_by_fighter: Counter[int] = Counter()
    for duel in state.duels:
        if duel.phase != "ended":
            open_by_fighter[duel.a] += 1
            open_by_fighter[duel.b] += 1
        assert (duel.step is not None) == (duel.phase in (AWAIT_ANSWER, AWAIT_RESULT))
    assert all(n <= 1 for n in open_by_fighter.values()), "D1: a fighter in two open duels"


class Fight:
    """Drives a situation the way the persistence layer does: expire, then command, logging both."""

    def __init__(
        self, *setups: FighterSetup, settings: Settings | None = None, counters: list[CounterRule] | None = None
    ) -> None:
        self.opening = open_situation(settings or Settings(), COUNTERS if counters is None else counters, T0)
        self.state = self.opening
        self.log: list[LogEntry] = []
        self.events: list[EngineEvent] = []
        for s in setups:
            self.do(Join(s), 0)

    def tick(self, t: float) -> list[EngineEvent]:
        now = at(t)
        new, events = expire(self.state, now)
        if events:
            self.log.append(("expire", now))
            self.state = new
            self.events += events
        return events

    def do(self, command: Command, t: float, draw: int | None = None) -> list[EngineEvent]:
        self.tick(t)
        now = at(t)
        self.state, events = apply(self.state, command, now, draw)
        self.log.append(("command", command, now, draw))
        self.events += events
        check_invariants(self.state)
        return events

    def refused(self, command: Command, t: float, draw: int | None = None, *, expire_first: bool = True) -> RuleError:
        """Assert the command is refused and changes nothing; return the error."""
        if expire_first:
            self.tick(t)
        before = to_dict(self.state)
        with pytest.raises(RuleError) as info:
            apply(self.state, command, at(t), draw)
        assert to_dict(self.state) == before
        return info.value

    def uid(self, fighter: int, card_id: int, nth: int = 0) -> str:
        return uid(self.state, fighter, card_id, nth)

    @property
    def duel(self):  # the latest duel, the usual subject of a test
        return self.state.duels[-1]

    def fighter(self, cid: int):
        return self.state.fighters[cid]


def types(events: list[EngineEvent]) -> list[str]:
    return [e.type for e in events]


def the[E: EngineEvent](cls: type[E], event: EngineEvent) -> E:
    """``event``, checked to be a ``cls``: a test reads its typed fields."""
    assert isinstance(event, cls), f"{event.type} is not {cls.type}"
    return event


def first[E: EngineEvent](cls: type[E], events: Iterable[EngineEvent]) -> E:
    """The first event of class ``cls`` (a failure if none)."""
    found = [e for e in events if isinstance(e, cls)]
    assert found, f"no {cls.type} among {[e.type for e in events]}"
    return found[0]


# --- from test_audit_duel_rules.py ---

ABILITY_WARD = CardFace(13, "Stone Skin", DEFENCE, category="ability")


def replays(f: Fight) -> None:
    assert to_dict(replay(f.opening, f.log)) == to_dict(f.state)


def strike(f: Fight, t: float, draw: int | None = 0, *, attacker=ANTON, victim=ZAVULON, card=FIRE, **kw):
    cmd = InstantAttack(attacker, victim, f.uid(attacker, card.card_id), True, True, **kw)
    size = draw_size_for(f.state, cmd)
    return f.do(cmd, t, draw if size else None)


def draw_index(f: Fight, fighter: int, card: CardFace) -> int:
    """The blind-draw index that picks ``card`` from the fighter's hand."""
    return [f.state.cards[u].card_id for u in f.fighter(fighter).hand].index(card.card_id)


# --- from test_rules_corrections.py ---

# A defence ability (not a spell): F1 does not let it be focused by default.
DODGE = CardFace(13, "Dodge", DEFENCE, category=ABILITY)


def strike_with(f, card_id, t, draw=None, **kw):
    return f.do(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, card_id), True, True, **kw), t, draw)

"""Builders for battle engine tests: a small battle catalogue and a driver that keeps the log."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from rules import (
    ATTACK,
    DEFENCE,
    HEAVILY_WOUNDED,
    LIGHTLY_WOUNDED,
    NO_EFFECT,
    PARRIED,
    CardFace,
    CounterRule,
    EngineEvent,
    FighterSetup,
    RuleError,
)
from rules import battle as B

T0 = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def card(
    card_id: int,
    name: str,
    kind: str,
    full: str = NO_EFFECT,
    soft: str = NO_EFFECT,
    tags: tuple[str, ...] = (),
    action: str = B.STANDARD,
    trigger: str = "",
    trigger_kind: str = "",
    double: bool = False,
) -> B.BattleCard:
    return B.BattleCard(
        face=CardFace(card_id, name, kind, full, soft, tags),
        action=action,
        trigger=trigger,
        trigger_kind=trigger_kind,
        double=double,
    )


# BP2: the Blade is a fighter's blade that grants a double attack (two Blades, or a Blade and another attack).
BLADE = card(1, "Blade", ATTACK, LIGHTLY_WOUNDED, NO_EFFECT, ("melee",), double=True)
BOLT = card(2, "Bolt", ATTACK, LIGHTLY_WOUNDED, NO_EFFECT, ("ranged", "missile"))
NOVA = card(3, "Nova", ATTACK, LIGHTLY_WOUNDED, NO_EFFECT, ("area",))
FIRE = card(4, "Fireball", ATTACK, HEAVILY_WOUNDED, LIGHTLY_WOUNDED, ("ranged", "fire"))
SHIELD = card(10, "Shield", DEFENCE)
COUNTER = card(20, "Counterspell", DEFENCE, action=B.INTERRUPT, trigger="an enemy casts at you")
RIPOSTE = card(21, "Riposte", ATTACK, LIGHTLY_WOUNDED, NO_EFFECT, action=B.RESPONSE, trigger="you are attacked")
SNAP = card(22, "Snap", ATTACK, LIGHTLY_WOUNDED, NO_EFFECT, action=B.OPPORTUNITY)
ZAP = card(23, "Zap", ATTACK, LIGHTLY_WOUNDED, NO_EFFECT, action=B.INTERRUPT, trigger="an enemy attacks")

COUNTERS = [CounterRule(10, None, "missile", PARRIED)]

ANNA, BORIS, VERA, GLEB = 1, 2, 3, 4
NAMES = {ANNA: "Anna", BORIS: "Boris", VERA: "Vera", GLEB: "Gleb"}
SIDES = {ANNA: "light", BORIS: "light", VERA: "dark", GLEB: "dark"}
HAND = (BLADE, BOLT, NOVA, FIRE, SHIELD, COUNTER, RIPOSTE, SNAP, ZAP, BLADE)


def part_of(frame: B.Frame) -> B.Part:
    """The frame's part being resolved; a test that reads it expects the frame to be still open."""
    part = frame.current
    assert part is not None, f"frame {frame.number} has no part left to resolve"
    return part


class Fight:
    """Runs a battle like the services do: expire first, then the command; keeps the log for replay."""

    def __init__(
        self,
        *,
        reactions_from: int = 2,
        window: int = 15,
        who: tuple[int, ...] = (ANNA, BORIS, VERA, GLEB),
        hand: tuple[B.BattleCard, ...] = HAND,
        every_round_a_bout: bool = False,
    ) -> None:
        settings = B.BattleSettings(
            answer_window_s=window, reactions_from_round=reactions_from, every_round_a_bout=every_round_a_bout
        )
        self.opening = B.open_battle(settings, COUNTERS, T0)
        self.state = self.opening
        self.log: list[tuple[Any, ...]] = []
        self.events: list[EngineEvent] = []
        self.t = 0.0
        for cid in who:
            self.do(B.JoinBattle(FighterSetup(cid, NAMES[cid], tuple(c.face for c in hand)), SIDES[cid], hand))

    def now(self) -> datetime:
        return at(self.t)

    def tick(self, seconds: float) -> Fight:
        self.t += seconds
        return self

    def expire(self) -> list[EngineEvent]:
        new, events = B.expire(self.state, self.now())
        if events or B.to_dict(new) != B.to_dict(self.state):
            self.log.append(("expire", self.now()))
            self.state = new
            self.events.extend(events)
        return events

    def do(self, command: Any) -> list[EngineEvent]:
        self.expire()
        self.state, events = B.apply(self.state, command, self.now())
        self.log.append(("command", command, self.now(), None))
        self.events.extend(events)
        return events

    def refused(self, rule_id: str, command: Any) -> RuleError:
        self.expire()
        before = B.to_dict(self.state)
        with pytest.raises(RuleError) as caught:
            B.apply(self.state, command, self.now())
        assert caught.value.rule_id == rule_id, caught.value
        assert B.to_dict(self.state) == before
        return caught.value

    # --- shortcuts -------------------------------------------------------------------------------
    def uid(self, cid: int, card_: B.BattleCard, n: int = 0) -> str:
        found = [u for u in self.state.combatants[cid].hand if self.state.cards[u].face.card_id == card_.face.card_id]
        return found[n]

    def begin(self, declarer: int = ANNA, order: tuple[int, ...] | None = (ANNA, VERA, BORIS, GLEB)) -> Fight:
        self.do(B.BeginBattle(declarer=declarer, order=order))
        return self

    def top(self) -> B.Frame:
        frame = B.top(self.state)
        assert frame is not None
        return frame

    def attack(
        self,
        actor: int,
        card_: B.BattleCard,
        *targets: int,
        engaged: tuple[int, ...] = (),
        second: B.BattleCard | None = None,
    ) -> B.Frame:
        cards = (self.uid(actor, card_),) + (
            () if second is None else (self.uid(actor, second, 1 if second == card_ else 0),)
        )
        self.do(B.Act(actor=actor, act=B.ATTACK, cards=cards, targets=targets, engaged=engaged))
        return self.top()

    def answer(
        self, defender: int, card_: B.BattleCard | None = None, outcome: str | None = None, reason: str = ""
    ) -> None:
        frame = self.top()
        uid = None if card_ is None else self.uid(defender, card_)
        self.do(B.AnswerAttack(frame=frame.number, defender=defender, card=uid))
        self.do(B.ConfirmAnswer(frame=frame.number, defender=defender, outcome=outcome, reason=reason))

    def go_on(self) -> None:
        self.do(B.Proceed(frame=self.top().number))

    def next_turn(self) -> None:
        self.do(B.NextTurn())

    def pass_turn(self) -> None:
        self.do(B.Act(actor=self.state.turn_of or 0, act=B.PASS))
        self.next_turn()

    def to_round(self, n: int) -> Fight:
        """Everybody passes until round ``n`` has begun."""
        while self.state.round < n:
            if self.state.phase == B.BETWEEN_ROUNDS:
                self.do(B.StartRound())
            else:
                self.pass_turn()
        return self

    def replayed(self) -> B.Battle:
        return B.replay(self.opening, self.log)


def places(state: B.Battle) -> Counter[str]:
    """Where every card uid is (card conservation)."""
    found: Counter[str] = Counter()
    for c in state.combatants.values():
        found.update(c.hand + c.discards + c.set_aside)

    def walk(frame: B.Frame) -> None:
        for part in frame.parts:
            if part.begun and not part.done and part.card is not None:
                found[part.card] += 1
            for window in part.windows:
                if window.answer_card is not None and not window.resolved:
                    found[window.answer_card] += 1
        for q in frame.queue:
            walk(q)

    for frame in state.stack:
        walk(frame)
    return found


def resolution(fight: Fight) -> list[tuple[str, int, int]]:
    """The results in the order they were applied: (role, attacker, defender)."""
    return [(r.role, r.attacker, r.defender) for r in fight.state.records]


# --- from test_audit_battle_rules.py ---


def conserved(fight: Fight) -> None:
    """Every card is in exactly one place, and the log replays to the same state."""
    assert places(fight.state) == Counter(set(fight.state.cards)), "a card is lost or in two places"
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)

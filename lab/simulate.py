"""The balance lab's duels: the real rules engine, played by simple fighters (issue 15).

No Django here: the worker processes of a lab run import only this module and
the engine. A duel is played with the same ``rules.duel.apply`` a referee's tablet
uses - the same counter rules, aggression or an instant attack, answer windows
that run out - so what the lab finds is what the game will see.

The fighters' policies (docs/balance-lab.md):

- ``random``: every choice uniform among the legal ones (an attack card; a
  defence card of the hand or no answer).
- ``greedy``: attacks with the card whose full effect is the most severe;
  answers with the card whose counter rule does best against the shown attack
  (parried over softened over nothing; an attack card only if nothing else
  helps), and keeps its hand otherwise.

Chance is the lab's own ``random.Random`` seeded per duel from the run's seed
and the duel's number, so a run is reproducible whatever the number of worker
processes. The instant attack's blind draw (IA3) is chosen from that source and
passed to the engine like the services pass theirs.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from rules import duel as engine
from rules.cards import NOT_PARRIED, PARRIED, SOFTENED, CardFace, CounterRule, CounterTable
from rules.conditions import SEVERITY, can_fight
from rules.fighters import FighterSetup

RANDOM = "random"
GREEDY = "greedy"
POLICIES = (RANDOM, GREEDY)
_SEVERITY_RANK = {condition: rank for rank, condition in enumerate(SEVERITY)}
_OUTCOME_RANK = {PARRIED: 2, SOFTENED: 1, NOT_PARRIED: 0}
START = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
A, B = 1, 2  # the two fighters' ids inside a lab duel


@dataclass(frozen=True)
class Arsenal:
    """One side of a match-up: a label (a prepared arsenal's or a character's name) and its cards, copies repeated."""

    label: str
    cards: tuple[CardFace, ...]


@dataclass(frozen=True)
class LabSettings:
    duels: int = 1000
    seed: int = 1
    policy: str = GREEDY
    instant_share: float = 0.2  # how many duels open with an instant attack (the rest: aggression)
    focus_share: float = 0.5  # of the instant attacks, how many victims are focused on a defence card (F1)
    timeout_share: float = 0.05  # how many answers come too late (D8)
    max_rounds: int = 3
    answer_window_s: int = 15
    gap_s: int = 180

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}")
        for share in (self.instant_share, self.focus_share, self.timeout_share):
            if not 0 <= share <= 1:
                raise ValueError("shares are between 0 and 1")
        if self.duels < 1 or self.max_rounds < 1:
            raise ValueError("at least one duel of at least one bout")


@dataclass
class Tally:
    """What a batch of duels did; batches add up (the worker processes each return one)."""

    duels: int = 0
    results: Counter[tuple[str, str, str]] = field(default_factory=Counter)  # (a label, b label, a|b|draw)
    attack_outcomes: Counter[tuple[int, str]] = field(default_factory=Counter)  # (card id, outcome|timed_out)
    defence_outcomes: Counter[tuple[int, str]] = field(default_factory=Counter)  # (card id, outcome)
    pairs: Counter[tuple[int | None, int, str]] = field(default_factory=Counter)  # (defence|None, attack, outcome)
    rounds: int = 0
    steps: int = 0
    instant: Counter[tuple[bool, str]] = field(default_factory=Counter)  # (focused, succeeded|parried|softened)

    def add(self, other: Tally) -> Tally:
        self.duels += other.duels
        self.results.update(other.results)
        self.attack_outcomes.update(other.attack_outcomes)
        self.defence_outcomes.update(other.defence_outcomes)
        self.pairs.update(other.pairs)
        self.rounds += other.rounds
        self.steps += other.steps
        self.instant.update(other.instant)
        return self


def duel_seed(seed: int, number: int) -> int:
    """Each duel's own seed: a run replays the same whichever process plays which duel."""
    return (seed * 1_000_003 + number * 7_919) % (2**63)


class Fighter:
    def __init__(self, policy: str, table: CounterTable, rng: random.Random) -> None:
        self.policy, self.table, self.rng = policy, table, rng

    def attack(self, state: engine.Situation, fighter: int) -> str:
        choices = engine.attack_cards(state, fighter)
        if self.policy == RANDOM:
            return self.rng.choice(choices)
        return max(choices, key=lambda uid: (_SEVERITY_RANK.get(state.cards[uid].full_effect, 0), uid))

    def answer(self, state: engine.Situation, fighter: int, attack: CardFace) -> str | None:
        hand = state.fighters[fighter].hand
        if self.policy == RANDOM:
            options: list[str | None] = [uid for uid in hand if not state.cards[uid].is_attack]
            return self.rng.choice([*options, None])
        scored = [(_OUTCOME_RANK[self.table.propose(state.cards[uid], attack)], uid) for uid in hand]
        best = max(scored, default=(0, None))
        return best[1] if best[0] > 0 else None


def _now(clock: list[datetime]) -> datetime:
    clock[0] += timedelta(seconds=3)
    return clock[0]


def play(a: Arsenal, b: Arsenal, counters: Iterable[CounterRule], settings: LabSettings, number: int) -> Tally:
    """One duel of ``a`` against ``b`` through the engine; its figures as a one-duel tally."""
    rng = random.Random(duel_seed(settings.seed, number))
    rules = list(counters)
    table = CounterTable(rules)
    fighter = Fighter(settings.policy, table, rng)
    clock = [START]
    tally = Tally(duels=1)
    opening = engine.Settings(answer_window_s=settings.answer_window_s, gap_s=settings.gap_s)
    state = engine.open_situation(opening, rules, clock[0])
    state.whole_record = True  # the tally reads every finished step, not only the newest a stored state keeps
    instant = rng.random() < settings.instant_share
    focused = instant and rng.random() < settings.focus_share
    # F1: only a defence spell can be focused (the lab plays the rule's default, no abilities).
    defences_of_b = [face.card_id for face in b.cards if face.is_defence and face.is_spell]
    focus = rng.choice(defences_of_b) if focused and defences_of_b else None
    state, _ = engine.apply(state, engine.Join(FighterSetup(A, a.label, a.cards)), _now(clock))
    state, _ = engine.apply(state, engine.Join(FighterSetup(B, b.label, b.cards, focus_card_id=focus)), _now(clock))
    attacks = engine.attack_cards(state, A)
    if instant and attacks:
        card = fighter.attack(state, A)
        size = engine.instant_attack_draw_size(state, B)
        draw = rng.randrange(size) if size else None
        command = engine.InstantAttack(A, B, card, out_of_sight=True, within_reach=True, max_rounds=settings.max_rounds)
        state, _ = engine.apply(state, command, _now(clock), draw)
    else:
        instant = False
        state, _ = engine.apply(
            state, engine.DeclareAggression(A, B, None, max_rounds=settings.max_rounds), _now(clock)
        )
    for _ in range(400):  # a duel of the lab's size ends far earlier; the bound keeps a bad catalogue finite
        duel = next((d for d in state.duels if d.is_open), None)
        if duel is None or state.ended:
            break
        state = _advance(state, duel, state.duels.index(duel), fighter, settings, rng, clock, (a, b))
    duel = state.duels[0] if state.duels else None
    if duel is not None:
        records = duel.steps_done
        for record in records:
            attack_face = state.cards[record.attack_card]
            outcome = "timed_out" if record.timed_out else record.outcome
            tally.attack_outcomes[(attack_face.card_id, outcome)] += 1
            answer = state.cards[record.answer_card] if record.answer_card else None
            tally.pairs[(answer.card_id if answer else None, attack_face.card_id, record.outcome)] += 1
            if answer is not None:
                tally.defence_outcomes[(answer.card_id, record.outcome)] += 1
            if record.instant:
                kind = "succeeded" if record.outcome == NOT_PARRIED else record.outcome
                tally.instant[(focus is not None, kind)] += 1
        tally.steps += len(records)
        tally.rounds += duel.round
    tally.results[(a.label, b.label, _winner(state))] += 1
    return tally


def _advance(
    state: engine.Situation,
    duel: engine.Duel,
    number: int,
    fighter: Fighter,
    settings: LabSettings,
    rng: random.Random,
    clock: list[datetime],
    arsenals: tuple[Arsenal, Arsenal],
) -> engine.Situation:
    if duel.phase == engine.AWAIT_ATTACK:
        command: Any = engine.Attack(number, duel.attacker, fighter.attack(state, duel.attacker))
    elif duel.phase == engine.AWAIT_ANSWER:
        step = duel.step
        assert step is not None
        if rng.random() < settings.timeout_share:
            clock[0] += timedelta(seconds=settings.answer_window_s + 1)
            return engine.expire(state, clock[0])[0]
        card = fighter.answer(state, step.defender, state.cards[step.attack_card])
        command = engine.Answer(number, step.defender, card)
    elif duel.phase == engine.AWAIT_RESULT:
        command = engine.ConfirmResult(number)
    elif duel.phase == engine.BETWEEN_ROUNDS:
        waiting = next(f for f in (duel.a, duel.b) if f not in duel.round_choices)
        go_on = can_fight(state.fighters[waiting].condition)
        # D3: a new round with the arsenal taken whole again (a prepared arsenal, restored).
        cards = arsenals[0].cards if waiting == A else arsenals[1].cards
        command = engine.RoundChoice(number, waiting, go_on, cards if go_on else None)
    else:
        raise AssertionError(f"unexpected phase {duel.phase}")
    return engine.apply(state, command, _now(clock))[0]


def _winner(state: engine.Situation) -> str:
    a_fights = can_fight(state.fighters[A].condition)
    b_fights = can_fight(state.fighters[B].condition)
    if a_fights and not b_fights:
        return "a"
    if b_fights and not a_fights:
        return "b"
    return "draw"


def matchups(arsenals: list[Arsenal]) -> list[tuple[Arsenal, Arsenal]]:
    """Every ordered pair of different arsenals (the first one declares the fight), or one mirror match."""
    pairs = [(x, y) for x in arsenals for y in arsenals if x is not y]
    return pairs or [(arsenals[0], arsenals[0])]


def batch(arsenals: list[Arsenal], counters: list[CounterRule], settings: LabSettings, numbers: Iterable[int]) -> Tally:
    """The duels with these numbers; duel n plays match-up n modulo the number of match-ups."""
    pairs = matchups(arsenals)
    tally = Tally()
    for number in numbers:
        a, b = pairs[number % len(pairs)]
        tally.add(play(a, b, counters, settings, number))
    return tally


def chunks(total: int, size: int) -> Iterator[range]:
    for start in range(0, total, size):
        yield range(start, min(start + size, total))

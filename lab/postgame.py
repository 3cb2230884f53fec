"""The post-game report: what the event's real fights did, read from their logs (issue 15).

Only the log is read - the accepted commands, the deadlines that passed and the
events the engine emitted, undone entries left out - so the figures are those
of the fights as they were finally recorded. Battles and mass battles count as
fights of their kind; the card, answer and instant-attack figures come from the
duel steps (the events ``attack_shown``, ``answered``, ``card_drawn``,
``answer_timed_out`` and ``result_applied``).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.utils import timezone

from duels.models import LogEntry, Situation
from events.models import Event
from rules.conditions import FIT, parts

INSTANT = "instant_attack"
AGGRESSION = "aggression"
TIMED_OUT = "timed_out"


@dataclass
class Step:
    attack: int
    shown_at: dt.datetime
    attacker: int
    defender: int | None = None
    answer: int | None = None
    answered_at: dt.datetime | None = None
    instant: bool = False
    focused: bool = False
    timed_out: bool = False


@dataclass
class PostGame:
    fights: int = 0
    kinds: Counter[str] = field(default_factory=Counter)  # aggression, instant_attack, battle, mass_battle
    per_hour: Counter[dt.datetime] = field(default_factory=Counter)
    per_referee: Counter[str] = field(default_factory=Counter)
    results: Counter[str] = field(default_factory=Counter)
    conditions: Counter[str] = field(default_factory=Counter)
    attack_cards: dict[int, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    defence_cards: dict[int, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    answers: int = 0
    timeouts: int = 0
    results_applied: int = 0
    overrides: int = 0
    override_cells: Counter[tuple[int | None, int, str, str]] = field(default_factory=Counter)
    answer_seconds: list[float] = field(default_factory=list)
    instant: Counter[tuple[bool, str]] = field(default_factory=Counter)
    characters: dict[int, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    cards_played: dict[int, Counter[int]] = field(default_factory=lambda: defaultdict(Counter))
    answers_in_grace: int = 0  # D8: arrived after the deadline, tapped in time, accepted within the lag grace
    physical_draws: int = 0  # IA3: instant-attack draws recorded from the real cards

    @property
    def timeouts_per_100_answers(self) -> float:
        asked = self.answers + self.timeouts
        return 100 * self.timeouts / asked if asked else 0.0

    @property
    def overrides_per_100_results(self) -> float:
        return 100 * self.overrides / self.results_applied if self.results_applied else 0.0

    @property
    def average_answer_s(self) -> float | None:
        return sum(self.answer_seconds) / len(self.answer_seconds) if self.answer_seconds else None


def read(event: Event) -> PostGame:
    report = PostGame()
    situations = Situation.objects.filter(event=event).order_by("created_at", "pk")
    entries = (
        LogEntry.objects.filter(situation__event=event, undone=False)
        .exclude(kind=LogEntry.Kind.UNDO)
        .select_related("actor")
        .order_by("situation_id", "seq")
    )
    by_situation: dict[int, list[LogEntry]] = defaultdict(list)
    for entry in entries:
        by_situation[entry.situation_id].append(entry)
    for situation in situations:
        log = by_situation.get(situation.pk, [])
        if not log:
            continue  # undone from its start: no fight happened
        _read_situation(report, situation, log)
    return report


def _count_fight(report: PostGame, kind: str, entry: LogEntry) -> None:
    report.fights += 1
    report.kinds[kind] += 1
    report.per_hour[timezone.localtime(entry.at).replace(minute=0, second=0, microsecond=0)] += 1
    if entry.actor is not None:
        report.per_referee[entry.actor.get_username()] += 1


def _read_situation(report: PostGame, situation: Situation, log: list[LogEntry]) -> None:
    """A duel situation counts each duel opened in it (S2: several duels may share one); other kinds count once."""
    if situation.kind != Situation.Kind.DUEL:
        _count_fight(report, str(situation.kind), log[0])
    open_steps: dict[Any, Step] = {}
    fighters: set[int] = set()
    for entry in log:
        for event in entry.events or []:
            if event.get("type") == "duel_opened" and situation.kind == Situation.Kind.DUEL:
                _count_fight(report, str(event.get("opened_by") or AGGRESSION), entry)
            _read_event(report, event, entry.at, open_steps, fighters)
    for fighter in fighters:
        report.characters[fighter]["fights"] += 1


def _read_event(
    report: PostGame, event: dict[str, Any], at: dt.datetime, steps: dict[Any, Step], fighters: set[int]
) -> None:
    kind, duel = event.get("type"), event.get("duel")
    if kind == "fighter_joined":
        fighters.add(int(event["fighter"]))
    elif kind == "attack_shown":
        steps[duel] = Step(attack=int(event["card_id"]), shown_at=at, attacker=int(event["fighter"]))
        report.cards_played[int(event["fighter"])][int(event["card_id"])] += 1
    elif kind == "lag_grace_used":
        report.answers_in_grace += 1
    elif kind == "card_drawn" and duel in steps:
        report.physical_draws += 1 if event.get("physical") else 0
        step = steps[duel]
        step.instant, step.focused = True, bool(event.get("by_focus"))
        step.answer, step.defender = int(event["card_id"]), int(event["fighter"])
    elif kind == "answered" and duel in steps:
        step = steps[duel]
        step.defender = int(event["fighter"])
        step.answer = int(event["card_id"]) if event.get("card_id") is not None else None
        step.answered_at = at
        report.answers += 1
        report.answer_seconds.append((at - step.shown_at).total_seconds())
        if step.answer is not None:
            report.cards_played[step.defender][step.answer] += 1
    elif kind == "answer_timed_out" and duel in steps:
        steps[duel].timed_out = True
        report.timeouts += 1
    elif kind == "result_applied" and duel in steps:
        _result(report, steps.pop(duel), event)
    elif kind == "condition_changed":
        # Conditions accumulate (CR1): count what this change dealt, not what was there already.
        for part in _parts(event.get("new")) - _parts(event.get("old")):
            report.conditions[part] += 1
    elif kind == "duel_ended":
        report.results[str(event.get("result") or "")] += 1


def _parts(condition: Any) -> set[str]:
    """The conditions of a written set (rules.conditions); an unreadable one counts as none."""
    try:
        return set(parts(str(condition or FIT)))
    except ValueError:
        return set()


def _result(report: PostGame, step: Step, event: dict[str, Any]) -> None:
    outcome = str(event["outcome"])
    report.results_applied += 1
    report.attack_cards[step.attack][TIMED_OUT if step.timed_out else outcome] += 1
    if step.answer is not None:
        report.defence_cards[step.answer][outcome] += 1
    if event.get("overridden"):
        report.overrides += 1
        report.override_cells[(step.answer, step.attack, str(event.get("proposed") or ""), outcome)] += 1
    if step.instant:
        report.instant[(step.focused, outcome)] += 1
    wins = "won" if outcome == "not_parried" else "parried" if outcome == "parried" else "softened"
    report.characters[step.attacker][f"attacks_{wins}"] += 1

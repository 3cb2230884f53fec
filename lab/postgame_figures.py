"""The post-game report's figures and the counting every kind's steps share (lab/postgame.py reads the logs)."""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from rules.conditions import FIT, parts

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
    reactions: Counter[str] = field(default_factory=Counter)  # a battle frame's role: opportunity, interrupt...
    magic_cards: dict[int, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    magic_cards_declined: int = 0
    rolls: Counter[str] = field(default_factory=Counter)  # M8: "server", "referee"; "tied"
    warriors_moved: Counter[str] = field(default_factory=Counter)  # a warrior's new state
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


def count_conditions(report: PostGame, event: dict[str, Any]) -> None:
    # Conditions accumulate (CR1): count what this change dealt, not what was there already.
    for part in _parts(event.get("new")) - _parts(event.get("old")):
        report.conditions[part] += 1


def _parts(condition: Any) -> set[str]:
    """The conditions of a written set (rules.conditions); an unreadable one counts as none."""
    try:
        return set(parts(str(condition or FIT)))
    except ValueError:
        return set()


def count_result(report: PostGame, step: Step, event: dict[str, Any]) -> None:
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

"""The post-game report: what the event's real fights did, read from their logs (issue 15).

Only the log is read - the accepted commands, the deadlines that passed and the
events the engine emitted, undone entries left out - so the figures are those
of the fights as they were finally recorded. Battles and mass battles count as
fights of their kind; the card, answer and instant-attack figures come from the
duel steps (the events ``attack_shown``, ``answered``, ``card_drawn``,
``answer_timed_out`` and ``result_applied``) and from the battle steps (one per
target of an attack: ``lab/postgame_kinds.py``), which also count reactions;
a mass battle counts its magic cards, rolls and warriors' moves (issue 20).
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from typing import Any

from django.utils import timezone

from duels.models import LogEntry, Situation
from events.models import Event
from lab.postgame_figures import PostGame, Step, count_conditions, count_result
from lab.postgame_kinds import read_battle_event, read_mass_event

INSTANT = "instant_attack"
AGGRESSION = "aggression"


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
            if situation.kind == Situation.Kind.BATTLE:
                read_battle_event(report, event, entry.at, open_steps, fighters)
                continue
            if situation.kind == Situation.Kind.MASS_BATTLE:
                read_mass_event(report, event)
                continue
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
        count_result(report, steps.pop(duel), event)
    elif kind == "condition_changed":
        count_conditions(report, event)
    elif kind == "duel_ended":
        report.results[str(event.get("result") or "")] += 1

"""What the referee's fight screen says beyond the state: why a tap came too late, why a
situation ended, and that an instant attack became aggression (issue 10).

A tablet whose page is a few seconds old sends the version it saw. When only the
clock moved the fight on since then (the D8 window closed, the S2 gap ran out),
"another referee acted first" would be a wrong and alarming explanation: the
referee must hear the rule that decided, in the rule's own words.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext, ngettext

import rules
from duels.duel.presenters import FighterView, SituationView
from duels.models import LogEntry
from rules import duel as engine


@dataclass(frozen=True)
class Note:
    """A message with the rule it cites (shown small, as a link to the help, to referees only)."""

    level: str
    text: str
    rule: str = ""


def late_answer(state: Any) -> Note:
    seconds = state.settings.answer_window_s
    text = ngettext(
        "The %(seconds)s second to answer ran out; the attack took full effect.",
        "The %(seconds)s seconds to answer ran out; the attack took full effect.",
        seconds,
    ) % {"seconds": seconds}
    return Note("warning", text, "D8")


def gap_ended(state: Any) -> Note:
    minutes, seconds = divmod(state.settings.gap_s, 60)
    if seconds:
        span = ngettext("%(n)s second", "%(n)s seconds", state.settings.gap_s) % {"n": state.settings.gap_s}
    else:
        span = ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    text = gettext("This combat situation ended: %(span)s passed without a combat action.") % {"span": span}
    return Note("secondary", text, "S2")


def overtaken_by_clock(state: Any, command: Any) -> Note | None:
    """The rule that refused a tap the clock overtook, or None when a person acted first.

    ``state`` is the fresh state (the overdue deadlines applied). An answer for a
    step whose window has since closed (its record says so) gets D8; any tap on
    a situation the gap ended gets S2.
    """
    if state.ended:
        return gap_ended(state)
    if isinstance(command, engine.Answer) and 0 <= command.duel < len(state.duels):
        duel = state.duels[command.duel]
        waiting = duel.phase == engine.AWAIT_ANSWER and duel.step is not None
        last = duel.steps_done[-1] if duel.steps_done else None
        mine_open = waiting and duel.step.defender == command.fighter
        if not mine_open and last is not None and last.timed_out and last.defender == command.fighter:
            return late_answer(state)
    return None


def is_late_refusal(err: Exception) -> bool:
    """The engine's own D8 refusal of an answer (the window closed within this very request)."""
    return isinstance(err, rules.RuleError) and err.rule_id == "D8"


def conversions(entries: Iterable[LogEntry], view: SituationView) -> list[Note]:
    """IA1: an instant attack that became aggression, with the condition that failed, while its duel runs.

    ``entries`` are the log lines the page shows anyway (the newest ones): the
    banner matters at the start of the fight, and reading the whole log for it
    would make every poll cost more as the fight grows.
    """
    open_pairs = {frozenset((d.a.id, d.b.id)) for d in view.open_duels if d.round == 1}
    if not open_pairs:
        return []
    notes = []
    for entry in sorted(entries, key=lambda e: e.seq):
        cmd = entry.command or {}
        if entry.kind != LogEntry.Kind.COMMAND or entry.undone or cmd.get("type") != "instant_attack":
            continue
        if not any(e.get("type") == "converted_to_aggression" and e.get("rule") == "IA1" for e in entry.events):
            continue
        attacker, victim = _fighter(view, cmd.get("attacker")), _fighter(view, cmd.get("victim"))
        if attacker is None or victim is None or frozenset((attacker.id, victim.id)) not in open_pairs:
            continue
        notes.append(Note("warning", _conversion_text(cmd, attacker, victim), "IA1"))
    return notes


def _fighter(view: SituationView, fighter_id: object) -> FighterView | None:
    """The fighter a logged command names; a missing or malformed id names nobody."""
    return view.by_id.get(fighter_id) if isinstance(fighter_id, int) else None


def _conversion_text(cmd: dict[str, Any], attacker: FighterView, victim: FighterView) -> str:
    failed = []
    if not cmd.get("out_of_sight"):
        failed.append(gettext("%(attacker)s was in %(victim)s's field of view") % _names(attacker, victim))
    if not cmd.get("within_reach"):
        too_far = gettext("%(attacker)s was not close enough, or something stood between them")
        failed.append(too_far % _names(attacker, victim))
    return gettext("The instant attack became aggression: %(why)s. The fight goes on under the general rules.") % {
        "why": "; ".join(failed)
    }


def _names(attacker: FighterView, victim: FighterView) -> dict[str, str]:
    return {"attacker": attacker.name, "victim": victim.name}

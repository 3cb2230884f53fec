"""What the duel's tablet says beyond the state: when the clock refused a tap (D8, S2; the
words are duels/web/notes.py's, for every kind), and that an instant attack became
aggression (IA1).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext

from duels.duel.presenters import FighterView, SituationView
from duels.models import LogEntry
from duels.services.rows import with_command
from duels.web.notes import Note, clock_says, gap_ended
from rules import duel as engine


def clock_note(state: engine.Situation, command: Any, err: Exception | None) -> Note | None:
    """Any tap on a situation the gap ended gets S2; an answer for a step whose window has since closed, D8."""
    overtaken = isinstance(command, engine.Answer) and engine.answer_overtaken(state, command.duel, command.fighter)
    window_s = state.settings.answer_window_s
    if state.closed_by_referee:
        return went_on_as_battle()
    return clock_says(err, gap_s=state.settings.gap_s, window_s=window_s, gap_ended_it=state.ended, overtaken=overtaken)


def went_on_as_battle() -> Note:
    """A situation the referee closed because it grew into a battle: not the S2 gap, which did not pass."""
    return Note("secondary", gettext("This combat situation went on as a battle."), "S2")


def ended_note(state: engine.Situation) -> Note | None:
    """Why the situation is over, if it is: the S2 gap, or its growing into a battle."""
    if not state.ended:
        return None
    return went_on_as_battle() if state.closed_by_referee else gap_ended(state.settings.gap_s)


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
    # Only the instant attacks are read (of a step's newest entries, only they are built: services.rows.Entries).
    for entry in sorted(with_command(entries, "instant_attack"), key=lambda e: e.seq):
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

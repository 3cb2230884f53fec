"""D8 lag grace (issue 23): an answer tapped inside its window, held by the network past the deadline.

The deadline stays the server's (D8). The tablet sends how long after it
received the window the tap was made (``lag_ms``, its own monotonic clock).
An answer that arrives after the deadline is accepted when that time is
inside the window and the arrival is within the event's grace (at most
3 s): it is applied as made at the deadline, and a timeout the server had
applied meanwhile (a poll, the timer) is taken back - its log entry marked
undone - since the answer overtakes it. The answer's log entry records the
lag (``rules.LagGraceUsed``), and the post-game record counts such answers.

It names no kind: "the window" is the state's next deadline, and the tap
answers it if, applied at that instant, it removes that deadline. So every
kind's answer windows get it (a duel's step, a battle's frame).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from duels.models import LogEntry, Situation
from duels.services.kinds import replay
from duels.services.store import Transition
from rules import LagGraceUsed, RuleError

# What a replay never reads of a log entry (as commands.REPLAY_UNNEEDED).
_UNNEEDED = ("events", "reason", "nonce", "actor")


def _trailing_expiries(recent: Sequence[LogEntry]) -> list[LogEntry]:
    """The deadline entries after the log's last command or undo, newest first."""
    found = []
    for entry in recent:
        if entry.kind != LogEntry.Kind.EXPIRE or entry.undone:
            break
        found.append(entry)
    return found


def _state_before(tx: Transition, expiries: list[LogEntry]) -> Any:
    if not expiries:
        return tx.state
    opening = Situation.objects.filter(pk=tx.situation.pk).values_list("opening", flat=True).get()
    skip = {e.pk for e in expiries}
    live = [e for e in tx.situation.log.order_by("seq").defer(*_UNNEEDED) if e.pk not in skip]
    return replay(tx.kind, opening, live)


def _window_ms(state: Any) -> int | None:
    seconds = getattr(getattr(state, "settings", None), "answer_window_s", None)
    return None if seconds is None else int(seconds) * 1000


def graced(tx: Transition, command: Any, lag_ms: int | None) -> LagGraceUsed | None:
    """Set ``tx`` up to apply ``command`` at the deadline it overtook, if the grace covers it; else None.

    Call it before ``tx.expire()``. On success the transition's state is the
    one before the window timed out and its clock the deadline; the caller
    runs the command, then moves the clock back to now and expires.
    """
    grace_ms = int(getattr(tx.situation.event, "lag_grace_ms", 0) or 0)
    if lag_ms is None or grace_ms <= 0:
        return None
    now = tx.now
    expiries = _trailing_expiries(tx.recent)
    pending = tx.kind.next_deadline(tx.state)
    if not expiries and (pending is None or pending >= now):
        return None  # in time, or nothing timed out: nothing to forgive
    before = _state_before(tx, expiries)
    deadline = tx.kind.next_deadline(before)
    window = _window_ms(before)
    if deadline is None or window is None or not 0 <= lag_ms <= window:
        return None
    if not deadline < now <= deadline + dt.timedelta(milliseconds=grace_ms):
        return None
    try:
        tried, draw = tx.kind.chance(before, command, tx.situation)
        after, _events = tx.kind.apply(before, tried, deadline, draw)
    except RuleError:
        return None
    if tx.kind.next_deadline(after) == deadline:
        return None  # the command does not answer the window that closed
    if expiries:
        LogEntry.objects.filter(pk__in=[e.pk for e in expiries]).update(undone=True)
        for entry in expiries:
            entry.undone = True
    tx.state = before
    tx.now = deadline
    late_ms = round((now - deadline).total_seconds() * 1000)
    return LagGraceUsed(tapped_ms=lag_ms, late_ms=late_ms, grace_ms=grace_ms)

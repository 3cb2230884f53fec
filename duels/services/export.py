"""A situation as one JSON document, for post-game review and disputes.

Everything needed to check a fight by hand is in it: the opening snapshot
(settings and counter rules), every log entry - undone ones included, with
who, when, the draw and the reason, and the events as the log stores them
(``rules.event_from_dict`` reads each back) - the final state, and what the
kind adds for a review (a duel: the figures of its blind draws, how many were
undone, reused or redrawn). ``replay`` of the non-undone entries from
``opening`` gives ``state``. The states' static parts (counter rules, card
faces; rules/snapshots.py) are written out with their data: the document
needs nothing else to be read.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from duels.models import LogEntry, Situation
from duels.services.kinds import kind_of
from duels.services.record import whole_state
from rules import LagGraceUsed, snapshots

FORMAT = "sumrak-situation/1"


def _iso(value: dt.datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _entry(entry: LogEntry) -> dict[str, Any]:
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "command": entry.command,
        "actor": entry.actor.get_username() if entry.actor is not None else None,
        "at": _iso(entry.at),
        "draw": entry.draw,
        "nonce": entry.nonce,
        "undone": entry.undone,
        "reason": entry.reason,
        "events": entry.events,
    }


def _in_grace(entry: LogEntry) -> bool:
    return any(event.get("type") == LagGraceUsed.type for event in entry.events or [])


def _whole(situation: Situation) -> dict[str, Any]:
    kind = kind_of(situation)
    return kind.to_dict(whole_state(situation)) if kind.trims_record else situation.state


def export_situation(situation: Situation) -> dict[str, Any]:
    """JSON-safe: ``json.dumps(export_situation(s))`` always works."""
    participants = situation.participants.order_by("pk").values_list("pk", "name")
    log = list(situation.log.select_related("actor").order_by("seq"))
    return {
        "format": FORMAT,
        "situation": {
            "id": situation.pk,
            "event": {"id": situation.event_id, "name": situation.event.name},
            "kind": situation.kind,
            "version": situation.version,
            "ended": situation.ended,
            "ended_at": _iso(situation.ended_at),
            "created_at": _iso(situation.created_at),
            "participants": [{"id": pk, "name": name} for pk, name in participants],
        },
        "opening": snapshots.inlined(situation.opening),
        "log": [_entry(e) for e in log],
        # With every finished step, as the state was stored before issue 24 (the row keeps the newest).
        "state": snapshots.inlined(_whole(situation)),
        # D8 lag grace: answers accepted after the deadline because the tablet showed them tapped in time.
        "lag_grace": {"answers_in_grace": sum(1 for e in log if not e.undone and _in_grace(e))},
        # What the kind adds for a review (a duel: the blind draws' figures, IA3).
        **kind_of(situation).review(situation, log),
    }

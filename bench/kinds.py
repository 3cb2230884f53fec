"""Battles and mass battles played by their engines, for the benchmark's game and cost (issue 24).

As ``bench.fights`` does for duels: a patient referee's commands, each a real
engine command, so the log replays to the state. For each state the referee
has a short list of wishes, tried in order (``bench.kind_battle``,
``bench.kind_mass``); the engine refuses what the rules do not allow (a
refusal changes nothing) and the first accepted one is the step.

``form`` gives each command as the fight form's POST fields (None where the
form cannot send it); ``steps`` the next ones a referee would tap on the
tablet, across round breaks ("start round") as long as the fight goes on.
"""

from __future__ import annotations

import copy
import datetime as dt
import secrets
from collections.abc import Iterator
from typing import Any

import rules.mass as magic
from bench import kind_battle, kind_mass
from rules import RuleError
from rules import battle as B

STEP = dt.timedelta(milliseconds=5)
# The steps prepared for each fight of the load: a load of 6 s at ~30 steps/s of a kind over 60 fights
# sends ~3 a fight; 120 keep a long round and a slow machine (or a fast one) well inside them.
AHEAD = 120


def memo_for(kind: str, state: Any) -> dict[str, Any]:
    return kind_battle.memo_of(state) if kind == "battle" else {}


def play(
    kind: str, state: Any, entries: int, start: dt.datetime, memo: dict[str, Any] | None = None
) -> Iterator[tuple[Any, dt.datetime, Any, list[Any]]]:
    """Up to ``entries`` commands from ``state``: (command, at, new state, events) each."""
    from duels.services.kinds import KINDS

    engine = KINDS["mass_battle" if kind == "mass" else kind]
    memo = memo_for(kind, state) if memo is None else memo
    wishes_of = kind_battle.wishes if kind == "battle" else kind_mass.wishes
    at = start
    for _ in range(entries):
        for command in wishes_of(state, memo):
            try:
                new, events = engine.apply(state, command, at, None)
            except RuleError:
                continue
            if isinstance(command, B.Act):
                memo["acted"] = state.turn_seq
            state = new
            yield command, at, state, events
            break
        else:
            return
        at += STEP


def _ids(values: Any) -> list[str]:
    return [str(v) for v in values]


def form(command: Any) -> dict[str, Any] | None:
    """The fight form's POST fields for one command (lists are repeated fields), or None."""
    match command:
        case B.Act():
            return {"action": "act", "who": command.actor, "act": command.act, "cards": list(command.cards),
                    "targets": _ids(command.targets)}  # fmt: skip
        case B.AnswerAttack():
            return {"action": "answer", "frame": command.frame, "who": command.defender, "card": command.card or ""}
        case B.ConfirmAnswer():
            return {"action": "confirm", "frame": command.frame, "who": command.defender,
                    "outcome": command.outcome or "", "reason": command.reason}  # fmt: skip
        case B.Proceed():
            return {"action": "proceed", "frame": command.frame}
        case B.Immediate():
            return {"action": command.mode, "frame": command.frame, "who": command.reactor, "card": command.card or "",
                    "target": command.target or "", "negates": "1" if command.negates else "0"}  # fmt: skip
        case B.NextTurn():
            return {"action": "next_turn"}
        case B.StartRound():
            return {"action": "start_round"}
        case magic.RollInitiative() if command.dice is not None:
            return {"action": "roll_entered", "dice_a": command.dice[0], "dice_b": command.dice[1]}
        case magic.ChooseStarter():
            return {"action": "choose", "side": command.side, "starts": "yes" if command.starts else "no"}
        case magic.UsePoints():
            return {"action": "points", "side": command.side, "warrior": command.warrior or "",
                    "take": "yes" if command.take else "no"}  # fmt: skip
        case magic.KeepCard():
            return {"action": "keep", "side": command.side}
        case magic.CarryOut():
            return {"action": "carry_out", "side": command.side, "targets": list(command.targets),
                    "target_side": command.target_side or "", "move_to": command.move_to or ""}  # fmt: skip
        case magic.EndTurn():
            return {"action": "end_turn", "side": command.side}
        case magic.MoveWarrior():
            return {"action": "move", "warrior": command.warrior, "to": command.to}
        case magic.NextCycle():
            return {"action": "next_cycle"}
    return None  # a new arsenal (each combatant's own form): the tablet's steps never send one


def steps(kind: str, state: Any, ahead: int, now: dt.datetime, memo: dict[str, Any]) -> list[dict[str, Any]]:
    """The tablet form's next ``ahead`` steps from ``state`` (a round break: "start round" with the hands left)."""
    out = []
    for command, _at, _state, _events in play(kind, state, ahead, now, {**copy.deepcopy(memo), "form": True}):
        fields = form(command)
        if fields is None:
            break
        out.append(fields)
    return out


# --- the bench game's battles and mass battles (Django set up) ---------------------------------------


def extend(situation: Any, kind: str, entries: int, memo: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
    """Append ``entries`` played commands to a stored battle or mass battle; the new state and the memo."""
    from django.db.models import Max

    from duels.models import LogEntry
    from duels.services.kinds import kind_of
    from duels.services.live import publish
    from duels.services.store import stored_events

    engine = kind_of(situation)
    state = engine.from_dict(situation.state)
    memo = memo_for(kind, state) if memo is None else memo
    last = situation.log.aggregate(seq=Max("seq"), at=Max("at"))
    seq, at = last["seq"] + 1, last["at"] + STEP
    rows, final = [], state
    for command, when, final, events in play(kind, state, entries, at, memo):  # noqa: B007 - the last one is kept
        rows.append(
            LogEntry(
                situation=situation,
                seq=seq,
                kind=LogEntry.Kind.COMMAND,
                command=engine.encode(command),
                at=when,
                reason=engine.reason_of(command),
                events=stored_events(events),
            )
        )
        seq += 1
    LogEntry.objects.bulk_create(rows, batch_size=500)
    situation.state = engine.to_dict(final)
    situation.version += len(rows)
    situation.next_deadline = engine.next_deadline(final)
    situation.save(update_fields=["state", "version", "next_deadline", "updated_at"])
    ids = list(engine.participants(final))
    publish(situation, ids, ids)
    return final, memo


def last_at(situation: Any) -> dt.datetime:
    from django.db.models import Max

    last: dt.datetime = situation.log.aggregate(at=Max("at"))["at"]
    return last


_last_at = last_at  # the name the tests knew


def described(
    situation: Any, kind: str, length: int, state: Any, memo: dict[str, Any], ahead: int, tokens: list[str]
) -> dict[str, Any]:
    """A fight of the game as the load reads it (bench/load.py): its pages and its prepared steps."""
    path = {"battle": f"/battles/{situation.pk}/", "mass": f"/mass/{situation.pk}/"}[kind]
    watch = {"battle": f"/watch/{situation.pk}/", "mass": f"/mass/{situation.pk}/watch/"}[kind]
    return {
        "id": situation.pk,
        "kind": kind,
        "length": length,
        "entries": situation.log.count(),
        "version": situation.version,
        "steps": steps(kind, state, ahead, last_at(situation) + STEP, memo),
        "tokens": tokens,
        "path": path,
        "watch": watch,
    }


def battles(event: Any, user: Any, people: list[Any], now: Any, ahead: int = AHEAD) -> list[dict[str, Any]]:
    """The game's battles of four (bench/kind_battle.py)."""
    return kind_battle.build(event, user, people, ahead)


def mass_battles(event: Any, user: Any, now: Any, ahead: int = AHEAD) -> list[dict[str, Any]]:
    """The game's mass battles (bench/kind_mass.py)."""
    return kind_mass.build(event, user, ahead)


def secrets_hex() -> str:
    """A fresh nonce for a step sent through the form."""
    return secrets.token_hex(16)

"""Long fights, played by the engine itself: for the benchmark's game and the flatness tests.

``play`` drives a situation the way a patient referee would - attack, answer
with a defence card if there is one, confirm "parried" (an override with a
reason, so nobody ever drops out), and between rounds both go on with the
arsenal they came in with (D3), which refills their hands. Every command is
a real engine command: the log it yields replays to the state it yields.
``extend`` appends such a log to a stored situation, bypassing only the
request path (what the tests and the benchmark measure is what comes after).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import rules
from duels.services.store import stored_events
from rules import duel as engine

STEP = dt.timedelta(milliseconds=5)


def _arsenals(state: engine.Situation) -> dict[int, tuple[rules.CardFace, ...]]:
    """Each fighter's arsenal of this round: the one they came in with, or the one taken at the last break.

    Not everything the fighter ever held: earlier rounds' discards and set-aside
    hands stay in the state (kept for conservation), and a fight extended again
    after a round break would otherwise take all of them back as one arsenal -
    hands of 160 cards that no arsenal limit allows, and fragments and states
    the size of those hands instead of a real fight's.
    """
    faces = {face.card_id: face for face in state.cards.values()}
    held: dict[int, list[str]] = {cid: [*f.hand, *f.discards] for cid, f in state.fighters.items()}
    for duel in state.duels:
        if duel.step is not None:
            held[duel.step.attacker].append(duel.step.attack_card)
            if duel.step.answer_card is not None:
                held[duel.step.defender].append(duel.step.answer_card)
    arsenals = {}
    for cid, fighter in state.fighters.items():
        if fighter.composed is not None:  # D3: the arsenal taken at the last round break
            arsenals[cid] = tuple(faces[card_id] for card_id in fighter.composed)
        else:  # still the first round: the hand came in with, what of it was played, the open step
            arsenals[cid] = tuple(state.cards[u] for u in held[cid])
    return arsenals


def _next_command(state: engine.Situation, arsenals: dict[int, tuple[rules.CardFace, ...]]) -> Any:
    duel = state.duels[-1] if state.duels else None
    if duel is None or duel.phase == engine.ENDED:
        a, b = (list(state.fighters)[:2]) if duel is None else (duel.a, duel.b)
        if not (engine.attack_cards(state, a) or engine.attack_cards(state, b)):
            return None
        return engine.DeclareAggression(declarer=a, target=b)
    if duel.phase == engine.AWAIT_ATTACK:
        card = engine.attack_cards(state, duel.attacker)[0]
        return engine.Attack(duel.number, duel.attacker, card)
    if duel.phase == engine.AWAIT_ANSWER:
        assert duel.step is not None
        defender = state.fighters[duel.step.defender]
        answer = next((u for u in defender.hand if state.cards[u].is_defence), None)
        return engine.Answer(duel.number, defender.character_id, answer)
    if duel.phase == engine.AWAIT_RESULT:
        assert duel.step is not None
        if duel.step.proposed == rules.PARRIED:
            return engine.ConfirmResult(duel.number)
        return engine.ConfirmResult(duel.number, rules.PARRIED, "benchmark: parried")
    if duel.phase == engine.BETWEEN_ROUNDS:
        fid = next(f for f in (duel.a, duel.b) if f not in duel.round_choices)
        return engine.RoundChoice(duel.number, fid, True, arsenals[fid], "again")
    raise AssertionError(f"unknown phase {duel.phase}")


def play(
    state: engine.Situation, entries: int, start: dt.datetime, step: dt.timedelta = STEP
) -> Iterator[tuple[Any, dt.datetime, engine.Situation, list[Any]]]:
    """Up to ``entries`` commands from ``state``: (command, at, new state, events) each."""
    arsenals = _arsenals(state)
    at = start
    for _ in range(entries):
        command = _next_command(state, arsenals)
        if command is None:
            return
        state, events = engine.apply(state, command, at)
        yield command, at, state, events
        at += step


def extend(situation: Any, entries: int, *, actor: Any = None, start: dt.datetime | None = None) -> Any:
    """Append ``entries`` played commands to a stored duel situation (a Django row); returns the new state."""
    from django.db.models import Max

    from duels.models import LogEntry
    from duels.services.kinds import kind_of
    from duels.services.live import publish

    kind = kind_of(situation)
    state = kind.from_dict(situation.state)
    last = situation.log.aggregate(seq=Max("seq"), at=Max("at"))
    seq = 0 if last["seq"] is None else last["seq"] + 1
    at = start or ((last["at"] + STEP) if last["at"] else state.opened_at)
    rows = []
    final = state
    for command, when, final, events in play(state, entries, at):  # noqa: B007 - the last one is kept
        rows.append(
            LogEntry(
                situation=situation,
                seq=seq,
                kind=LogEntry.Kind.COMMAND,
                command=kind.encode(command),
                actor=actor,
                at=when,
                reason=kind.reason_of(command),
                events=stored_events(events),
            )
        )
        seq += 1
    LogEntry.objects.bulk_create(rows, batch_size=500)
    situation.state = kind.to_dict(final)
    situation.version += len(rows)
    situation.next_deadline = kind.next_deadline(final)
    situation.save(update_fields=["state", "version", "next_deadline", "updated_at"])
    # Like every write path: the polls' cached version follows at once.
    ids = list(final.fighters)
    publish(situation, ids, ids)
    return final

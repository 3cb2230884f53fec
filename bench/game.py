"""The benchmark's game: a big event with long fights, written straight into the bench database.

2,000 characters, a 300-card catalogue with counter rules, 100 running duels
whose logs hold 10, 100 or 500 entries, and (issue 24, bench/kinds.py) sixty
battles of four (60 and 200 entries: area attacks, reactions, round breaks)
and sixty mass battles (40 and 150 entries of magic cycles), 120 steps ahead
each (played by the engine, bench/fights.py and bench/kinds.py, so state and
log are what a real fight of that length leaves), a referee
with a session, and for every fight the next steps a referee would tap,
already encoded as the fight form's POST bodies (``steps``): the load
generator sends them in order with the version each one expects.

Run by ``python -m bench`` (inside its own Django settings); it prints a JSON
description of the game for the load generator.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import secrets
import sys
from typing import Any

import rules
from rules import duel as engine

CHARACTERS = 2000
CARDS = 300
TAGS = ["fire", "mind", "frost", "blood", "light", "dark", "spark", "storm"]
LENGTHS = (10, 100, 500)
FIGHTS = 100
HAND_ATTACK, HAND_DEFENCE = 8, 8
STEPS_AHEAD = 60
# Fewer prepared steps than this and a fight plays on into its next round (see _fight).
MIN_AHEAD = 20
STEP = dt.timedelta(milliseconds=5)
# Characters after the duels' kept for the timer test's fights; the battles take the ones after them.
SPARE = 400


def _catalogue() -> tuple[Any, list[Any], list[Any]]:
    from cards.models import Card, Catalogue, CounterRule

    catalogue = Catalogue.objects.create(name="Bench catalogue")
    cards = []
    for i in range(CARDS):
        attack = i % 2 == 0
        cards.append(
            Card(
                catalogue=catalogue,
                name_ru=f"{'Удар' if attack else 'Щит'} {i}",
                name_en=f"{'Strike' if attack else 'Shield'} {i}",
                kind="attack" if attack else "defence",
                full_effect="lightly_wounded" if attack else "",
                softened_effect="",
                tags=TAGS[i % len(TAGS)] if attack else "",
            )
        )
    Card.objects.bulk_create(cards)
    attacks = [c for c in cards if c.kind == "attack"]
    defences = [c for c in cards if c.kind == "defence"]
    rng = random.Random(8)
    rules = []
    for d in defences:
        # Each defence parries one tag and softens two particular attacks: ~450 rules.
        rules.append(CounterRule(defence_card=d, attack_tag=rng.choice(TAGS), outcome="parried"))
        for a in rng.sample(attacks, 2):
            rules.append(CounterRule(defence_card=d, attack_card=a, outcome="softened"))
    CounterRule.objects.bulk_create(rules)
    return catalogue, attacks, defences


def _people(event: Any, attacks: list[Any], defences: list[Any], count: int = CHARACTERS) -> list[Any]:
    from cards.models import ArsenalCard
    from events.models import Character

    Character.objects.bulk_create(
        Character(event=event, name=f"Иной {i:04d}", status=Character.Status.ACCEPTED) for i in range(count)
    )
    people = list(Character.objects.filter(event=event).order_by("pk"))
    rng = random.Random(9)
    rows = []
    for person in people:
        for card in rng.sample(attacks, HAND_ATTACK) + rng.sample(defences, HAND_DEFENCE):
            rows.append(ArsenalCard(character=person, card=card, copies=1))
    ArsenalCard.objects.bulk_create(rows, batch_size=2000)
    return people


def _setup(person: Any, faces: dict[int, rules.CardFace]) -> rules.FighterSetup:
    hand = tuple(faces[row.card_id] for row in person.arsenal.all())
    return rules.FighterSetup(character_id=person.pk, name=person.name, hand=hand, condition="fit")


def _form(command: Any) -> dict[str, Any] | None:
    """The fight form's POST fields for one engine command, or None where the form would need more."""
    match command:
        case engine.Attack():
            return {"action": "attack", "duel": command.duel, "fighter": command.fighter, "card": command.card}
        case engine.Answer():
            return {"action": "answer", "duel": command.duel, "fighter": command.fighter, "card": command.card or ""}
        case engine.ConfirmResult() if command.outcome is None:
            return {"action": "confirm", "duel": command.duel}
        case engine.ConfirmResult():
            return {"action": "override", "duel": command.duel, "outcome": command.outcome, "reason": command.reason}
    return None  # a round choice with a new arsenal: the sequence stops there


def _fight(
    event: Any, kind: Any, a: Any, b: Any, faces: dict[int, Any], counters: list[Any], entries: int
) -> dict[str, Any]:
    from django.utils import timezone

    # bench.fights reads the duels app: imported once Django is set up (python -m bench.game).
    from bench.fights import play
    from duels.models import LogEntry, Situation
    from duels.services.store import stored_events

    now = timezone.now()
    # The log ends a moment ago (room for playing on, below); the fight runs on (S2 gap and D8 windows of an hour).
    start = now - STEP * (entries + 3 + STEPS_AHEAD)
    settings = engine.Settings(answer_window_s=event.answer_window_s, gap_s=event.situation_gap_s)
    opening = engine.open_situation(settings, counters, start)
    log: list[tuple[Any, dt.datetime, list[Any]]] = []
    state = opening
    for person in (a, b):
        command = engine.Join(_setup(person, faces))
        state, events = engine.apply(state, command, start)
        log.append((command, start, events))
    final = state
    at = start
    for command, at, final, events in play(state, entries - 2, start + STEP):  # noqa: B007
        log.append((command, at, events))
    state = final
    steps = _steps(state, now)
    if len(steps) < MIN_AHEAD:
        # Near a round's end the form cannot go on (a round choice names an arsenal): play on
        # into the next round, so that every fight - 500 entries too - has steps for the load.
        for command, when, after, events in play(state, STEPS_AHEAD, at + STEP):
            log.append((command, when, events))
            state = after
            if isinstance(command, engine.RoundChoice) and after.duels[-1].phase == engine.AWAIT_ATTACK:
                break
        steps = _steps(state, now)
    situation = Situation.objects.create(
        event=event,
        kind=kind.key,
        opening=kind.to_dict(opening),
        state=kind.to_dict(state),
        version=len(log),
        next_deadline=kind.next_deadline(state),
    )
    situation.participants.set([a.pk, b.pk])
    LogEntry.objects.bulk_create(
        LogEntry(
            situation=situation,
            seq=i,
            kind=LogEntry.Kind.COMMAND,
            command=kind.encode(command),
            at=at,
            reason=kind.reason_of(command),
            events=stored_events(events),
        )
        for i, (command, at, events) in enumerate(log)
    )
    return {
        "id": situation.pk,
        "kind": "duel",
        "length": entries,
        "entries": len(log),
        "version": situation.version,
        "steps": steps,
        "path": f"/fights/{situation.pk}/",
        "watch": f"/watch/{situation.pk}/",
    }


def _steps(state: Any, now: dt.datetime) -> list[dict[str, Any]]:
    """The fight form's next steps from ``state``, up to the first one the form cannot send."""
    from bench.fights import play

    steps = []
    for command, _at, _state, _events in play(state, STEPS_AHEAD, now):
        form = _form(command)
        if form is None:
            break
        steps.append(form)
    return steps


def build() -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from django.contrib.sessions.backends.cached_db import SessionStore
    from django.db import transaction

    from cards.faces import counter_rule_of, face_of
    from cards.models import Card, CounterRule
    from duels.services.kinds import KINDS
    from events.models import Event, StaffRole

    with transaction.atomic():
        catalogue, attacks, defences = _catalogue()
        today = dt.date.today()
        event = Event.objects.create(
            name="Bench event",
            starts_on=today,
            ends_on=today + dt.timedelta(days=2),
            catalogue=catalogue,
            # Long windows: the fights under load must not time out between two steps.
            answer_window_s=3600,
            situation_gap_s=7200,
            mass_battles_on=True,
        )
        _people(event, attacks, defences)
        user = get_user_model().objects.create_user("bench-referee", password=secrets.token_urlsafe(12))
        StaffRole.objects.create(event=event, user=user, role=StaffRole.Role.REFEREE)
    faces = {card.pk: face_of(card) for card in Card.objects.filter(catalogue=catalogue)}
    counters = [counter_rule_of(r) for r in CounterRule.objects.filter(defence_card__catalogue=catalogue)]
    kind = KINDS["duel"]
    fighters = list(Event.objects.get(pk=event.pk).characters.prefetch_related("arsenal").order_by("pk"))
    fights = []
    for i in range(FIGHTS):
        a, b = fighters[2 * i], fighters[2 * i + 1]
        fight = _fight(event, kind, a, b, faces, counters, LENGTHS[i % len(LENGTHS)])
        fight["tokens"] = [a.link_token, b.link_token]
        fights.append(fight)
    # Issue 24: every kind under load - battles of four and mass battles beside the duels.
    from bench import kinds

    now = dt.datetime.now(dt.UTC)
    battlers = fighters[2 * FIGHTS + SPARE :]
    event = Event.objects.get(pk=event.pk)
    fights += kinds.battles(event, user, battlers, now)
    fights += kinds.mass_battles(event, user, now)
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "helpers.auth.SessionUserBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    # The next 400 characters are free for the timer test's fights.
    return {
        "event": event.pk,
        "referee": user.pk,
        "session": session.session_key,
        "fights": fights,
        "spare": [c.pk for c in fighters[2 * FIGHTS : 2 * FIGHTS + SPARE]],
    }


def pending_windows(count: int, first_s: float, spread_s: float) -> list[dict[str, Any]]:
    """``count`` fights each with an attack shown and its answer window (D8) open, through the real service.

    The windows close between ``first_s`` and ``first_s + spread_s`` seconds
    from now; the service schedules each timer on commit, as in a real game.
    """
    from django.contrib.auth import get_user_model

    from cards.models import ArsenalCard
    from duels.duel.start import declare_aggression  # Django is set up by now (python -m bench.game)
    from duels.models import Situation
    from events.models import Character, Event

    base = Event.objects.get(name="Bench event")
    user = get_user_model().objects.get(username="bench-referee")
    made = []
    # Characters of the game in no fight: a second timer test (--scale-out) must not take the
    # battles' combatants, who follow the spare ones, once the first test's moved to their events.
    busy = Situation.objects.filter(ended=False, participants__isnull=False).values("participants")
    duellists = Character.objects.filter(event=base).order_by("pk").values_list("pk", flat=True)[: 2 * FIGHTS]
    free = Character.objects.filter(event=base).exclude(pk__in=busy).exclude(pk__in=list(duellists))
    spare = list(free.order_by("pk")[: 2 * count])
    if len(spare) < 2 * count:
        raise SystemExit(f"the game has {len(spare)} characters in no fight for {count} timer windows")
    for i in range(count):
        window = round(first_s + spread_s * i / max(1, count - 1))
        # One event per window length: the window is an event setting (D8).
        event, _ = Event.objects.get_or_create(
            name=f"Bench timers {window}",
            defaults={
                "starts_on": base.starts_on,
                "ends_on": base.ends_on,
                "catalogue": base.catalogue,
                "answer_window_s": window,
                "situation_gap_s": 7200,
            },
        )
        a, b = spare[2 * i], spare[2 * i + 1]
        Character.objects.filter(pk__in=[a.pk, b.pk]).update(event=event)
        a.event, b.event = event, event
        card = ArsenalCard.objects.filter(character=a, card__kind="attack").first()
        assert card is not None, "every bench character holds attack cards"
        performed = declare_aggression(event, a, b, card.card_id, user=user, nonce=secrets.token_hex(16))
        deadline = performed.situation.next_deadline
        assert deadline is not None, "an attack shown opens its answer window (D8)"
        made.append({"id": performed.situation.pk, "deadline": deadline.isoformat()})
    return made


if __name__ == "__main__":
    import django

    django.setup()
    what = sys.argv[1]
    if what == "build":
        print(json.dumps(build()))
    elif what == "windows":
        print(json.dumps(pending_windows(int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]))))

"""Conflicting referee commands sent at the same moment over HTTP (issue 13).

Shared by the PostgreSQL test (the live server of this process) and the SQLite
one (a server over a database file in another process, tests/concurrency/
sqlite_race.py): the same fights, the same requests, the same checks.

Each trial opens a fresh duel, then fires the conflicting requests from
threads released by one barrier, each with its own cookies and connection:

- answer against undo, at the same version;
- the referee's confirmation against an override, at the same version;
- an answer against the timeout (D8) as the 1-second window closes, the
  sweeper applying the deadline at the same moment.

Checked after every trial: exactly one change applied (the version moved by
one, or by one expiry); each other request got a clear refusal (409 stale, or
422 with the D8 wording for a late answer), never a 5xx; the log holds exactly
one of the competing entries; and the log replays to the stored state.
"""

from __future__ import annotations

import html
import http.cookiejar
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from cards.models import ArsenalCard, Card, Catalogue, CounterRule, PoolEntry
from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.models import Character, Event, StaffRole
from rules import duel as engine

CSRF = re.compile(r'"X-CSRFToken"\s*:\s*"([^"]+)"')


@dataclass
class Answer:
    status: int
    text: str


class Tablet:
    """A referee's tablet: its own cookies, talking htmx to the fight page."""

    def __init__(self, base_url: str, user: User) -> None:
        client = Client()
        client.force_login(user)
        self.base = base_url
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.session = client.cookies["sessionid"].value
        self.csrf = ""

    def _request(self, path: str, data: dict[str, Any] | None = None, *, htmx: bool = True) -> Answer:
        body = None if data is None else urllib.parse.urlencode(data).encode()
        request = urllib.request.Request(self.base + path, data=body)
        request.add_header("Cookie", f"sessionid={self.session}" + "".join(f"; {c.name}={c.value}" for c in self.jar))
        if htmx:
            request.add_header("HX-Request", "true")
        request.add_header("Accept-Language", "en")
        if self.csrf:
            request.add_header("X-CSRFToken", self.csrf)
        try:
            with self.opener.open(request, timeout=30) as response:
                return Answer(response.status, response.read().decode())
        except urllib.error.HTTPError as err:
            return Answer(err.code, err.read().decode())

    def open(self, situation: Situation) -> None:
        page = self._request(reverse("duels:situation", args=[situation.pk]), htmx=False)
        assert page.status == 200, page.status
        self.csrf = CSRF.search(html.unescape(page.text)).group(1)  # type: ignore[union-attr]

    def act(self, situation: Situation, **fields: Any) -> Answer:
        return self._request(reverse("duels:act", args=[situation.pk]), {**fields, "nonce": uuid.uuid4()})

    def undo(self, situation: Situation, version: int) -> Answer:
        data = {"version": version, "nonce": uuid.uuid4(), "reason": "the referee misheard"}
        return self._request(reverse("duels:undo", args=[situation.pk]), data)


def race(*calls: Callable[[], Any]) -> list[Any]:
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = call()
        except Exception as err:  # reported by the checks
            results[i] = err
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
        assert not thread.is_alive(), "a request hung: a lock was never released"
    return results


@dataclass
class World:
    event: Event
    referees: tuple[User, User]
    fireball: Card
    shield: Card


def build_world(window_s: int = 600) -> World:
    catalogue = Catalogue.objects.create(name=f"Race catalogue {uuid.uuid4().hex[:6]}")
    event = Event.objects.create(
        name="Race", starts_on="2026-01-01", ends_on="2099-01-01", catalogue=catalogue, answer_window_s=window_s
    )
    referees = (User.objects.create_user(f"ref-a-{event.pk}"), User.objects.create_user(f"ref-b-{event.pk}"))
    for referee in referees:
        StaffRole.objects.create(event=event, user=referee, role=StaffRole.Role.REFEREE)
    fireball = Card.objects.create(
        catalogue=catalogue,
        name_ru="Огненный шар",
        kind="attack",
        full_effect="heavily_wounded",
        softened_effect="lightly_wounded",
        tags="fire",
    )
    shield = Card.objects.create(catalogue=catalogue, name_ru="Щит мага", kind="defence")
    CounterRule.objects.create(defence_card=shield, attack_tag="fire", outcome="softened")
    return World(event, referees, fireball, shield)


def new_duel(world: World, n: int) -> tuple[Situation, Character, Character]:
    """Anton has shown a Fireball to Zavulon; the answer window is open."""
    anton = Character.objects.create(event=world.event, name=f"Anton {n}")
    zavulon = Character.objects.create(event=world.event, name=f"Zavulon {n}")
    for character in (anton, zavulon):
        for card, copies in ((world.fireball, 2), (world.shield, 1)):
            PoolEntry.objects.create(character=character, card=card, copies=copies)
            ArsenalCard.objects.create(character=character, card=card, copies=copies)
    done = declare_aggression(
        world.event, anton, zavulon, world.fireball.pk, user=world.referees[0], nonce=uuid.uuid4().hex
    )
    return done.situation, anton, zavulon


def shield_uid(situation: Situation, fighter: Character, card: Card) -> str:
    state = services.state_of(Situation.objects.get(pk=situation.pk))
    return next(u for u in state.fighters[fighter.pk].hand if state.cards[u].card_id == card.pk)


def consistent(situation: Situation) -> Situation:
    fresh = Situation.objects.get(pk=situation.pk)
    assert engine.to_dict(services.replayed(fresh)) == fresh.state, "the log does not replay to the state"
    return fresh


def check_one_applied(answers: list[Any], version: int, situation: Situation) -> list[int | str]:
    statuses = [a.status if isinstance(a, Answer) else repr(a) for a in answers]
    assert all(isinstance(s, int) and s < 500 for s in statuses), statuses
    assert sorted(statuses) == [200, 409], statuses
    fresh = consistent(situation)
    assert fresh.version == version + 1, (fresh.version, version)
    stale = next(a for a in answers if a.status == 409)
    assert "Nothing was changed" in stale.text, stale.text[:300]
    return statuses


def answer_against_undo(base_url: str, world: World, n: int) -> None:
    situation, _anton, zavulon = new_duel(world, n)
    version = Situation.objects.get(pk=situation.pk).version
    card = shield_uid(situation, zavulon, world.shield)
    a, b = Tablet(base_url, world.referees[0]), Tablet(base_url, world.referees[1])
    a.open(situation)
    b.open(situation)
    answers = race(
        lambda: a.act(situation, action="answer", duel=0, fighter=zavulon.pk, card=card, version=version),
        lambda: b.undo(situation, version),
    )
    check_one_applied(answers, version, situation)
    entries = LogEntry.objects.filter(situation=situation)
    answered = entries.filter(command__type="answer").exists()
    undone = entries.filter(kind=LogEntry.Kind.UNDO).exists()
    assert answered != undone, "both the answer and the undo were applied, or neither"


def confirm_against_override(base_url: str, world: World, n: int) -> None:
    situation, _anton, zavulon = new_duel(world, n)
    version = Situation.objects.get(pk=situation.pk).version
    services.perform(
        situation.pk,
        engine.Answer(duel=0, fighter=zavulon.pk, card=shield_uid(situation, zavulon, world.shield)),
        user=world.referees[0],
        seen_version=version,
        nonce=uuid.uuid4().hex,
    )
    version += 1
    a, b = Tablet(base_url, world.referees[0]), Tablet(base_url, world.referees[1])
    a.open(situation)
    b.open(situation)
    answers = race(
        lambda: a.act(situation, action="confirm", duel=0, version=version),
        lambda: b.act(situation, action="override", duel=0, outcome="parried", reason="held higher", version=version),
    )
    check_one_applied(answers, version, situation)
    results = LogEntry.objects.filter(situation=situation, command__type="confirm_result")
    assert results.count() == 1


def answer_against_timeout(base_url: str, world: World, n: int) -> None:
    """The 1-second window (the world's setting) closes while the answer and the sweeper race for it."""
    situation, _anton, zavulon = new_duel(world, n)
    fresh = Situation.objects.get(pk=situation.pk)
    version, deadline = fresh.version, fresh.next_deadline
    card = shield_uid(situation, zavulon, world.shield)
    tablet = Tablet(base_url, world.referees[0])
    tablet.open(situation)
    assert deadline is not None
    # Release both just as the window closes: sometimes the answer is in time, sometimes not.
    time.sleep(max(0.0, (deadline - timezone.now()).total_seconds() - 0.01 * (n % 3)))
    answers = race(
        lambda: tablet.act(situation, action="answer", duel=0, fighter=zavulon.pk, card=card, version=version),
        lambda: services.sweep(),
    )
    http_answer = answers[0]
    assert isinstance(http_answer, Answer) and http_answer.status < 500, answers
    services.refresh(Situation.objects.get(pk=situation.pk))
    consistent(situation)
    entries = LogEntry.objects.filter(situation=situation, undone=False)
    answered = entries.filter(command__type="answer").exists()
    timed_out = any(
        e.get("type") == "answer_timed_out" for entry in entries.filter(kind="expire") for e in entry.events or []
    )
    assert answered != timed_out, "the step was both answered and timed out, or neither"
    if answered:
        assert http_answer.status == 200, http_answer.status
    else:
        # Refused, and told nothing of it was applied.
        assert http_answer.status in (409, 422), http_answer.status


SCENARIOS = (answer_against_undo, confirm_against_override, answer_against_timeout)

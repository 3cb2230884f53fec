"""A 10,000-row character import while the game goes on (issue 27).

Shared by the PostgreSQL test (the live server of this process,
tests/concurrency/test_import_stall.py) and the SQLite one (a server over a
database file in another process, tests/concurrency/import_stall_sqlite.py).

A thread runs the import as the Celery task would (``runner.run``), with its own
database connection; meanwhile, every half second, a player logs in (a real login:
the session, ``last_login`` and django-axes' access log are written) and a referee of
*another* event answers a fresh duel over HTTP (a write under the fight's lock; the
duel itself is set up beforehand, untimed).
Before issue 27 the import held SQLite's write lock for the whole file (~27 minutes for
10,000 rows) and every such request failed with "database is locked".

Checked: every request succeeded (302 for the login, 200 for the answer) without waiting
more than ``LOCK_WAIT_SECONDS`` for a lock the import held (the import writes in batches of
~0.3 s): the database itself refuses a longer wait (PostgreSQL's ``lock_timeout``, SQLite's busy
timeout, both set by the caller), and a refused request is a 503. Requests ran while the import
was both checking and writing, and the import ended with all its rows written, once.

The wall-clock bound, ``MAX_SECONDS``, only catches a request that hangs: it once was the
check itself (2 s), and failed at random on a loaded 2-core CI machine, where a login's two
requests beside an import running in the same process took over 2 s with no lock waited for.
"""

from __future__ import annotations

import http.cookiejar
import re
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.urls import reverse

from events.imports import runner
from events.imports.kinds import ImportKind, kind_of
from events.imports.models import TableImport
from events.models import Character, Event, StaffRole
from events.resources import CHARACTERS
from tests.concurrency import http_race

ROWS = 10_000
# What a request may wait for the import's locks: a batch or two (each ~0.3 s), never the whole file.
LOCK_WAIT_SECONDS = 2
# A request that takes longer hangs; slowness alone on a loaded machine stays under it.
MAX_SECONDS = 20.0
EVERY = 0.5
PASSWORD = "a-long-player-password"
CSRF_INPUT = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class World:
    event: Event
    duels: http_race.World
    player: User


@dataclass
class Seen:
    """Each request: (what, import status when it started, seconds, HTTP status)."""

    requests: list[tuple[str, str, float, int]] = field(default_factory=list)


def build_world() -> World:
    event = Event.objects.create(name="Big import", starts_on="2026-01-01", ends_on="2099-01-01")
    organizer = User.objects.create_user("stall-organizer")
    StaffRole.objects.create(event=event, user=organizer, role=StaffRole.Role.ORGANIZER)
    player = User.objects.create_user("stall-player", password=PASSWORD)
    return World(event, http_race.build_world(600), player)


def characters_file(rows: int = ROWS) -> bytes:
    lines = ["name,side,power_level,notes"]
    lines += [f"Персонаж {n:05d},{'light' if n % 2 else 'dark'},{n % 7 + 1},из файла" for n in range(rows)]
    return ("\n".join(lines) + "\n").encode()


def _timed(call) -> tuple[float, int]:
    started = time.monotonic()
    try:
        status = call()
    except urllib.error.HTTPError as err:
        status = err.code
    return time.monotonic() - started, status


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


def login(base_url: str, username: str) -> int:
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
    url = base_url + reverse("login")
    with opener.open(url, timeout=30) as page:
        token = CSRF_INPUT.search(page.read().decode()).group(1)  # type: ignore[union-attr]
    body = urllib.parse.urlencode({"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token})
    request = urllib.request.Request(url, data=body.encode(), headers={"Referer": url})
    try:
        with opener.open(request, timeout=30) as answer:
            return answer.status
    except urllib.error.HTTPError as err:
        return err.code  # 302 arrives here: redirects are not followed


def referee_tap(base_url: str, world: http_race.World, n: int):
    """A fresh duel in the other event (set up untimed), and the referee's answer, ready to send."""
    situation, _anton, zavulon = http_race.new_duel(world, 1000 + n)
    version = situation.__class__.objects.get(pk=situation.pk).version
    card = http_race.shield_uid(situation, zavulon, world.shield)
    tablet = http_race.Tablet(base_url, world.referees[0])
    tablet.open(situation)
    return lambda: tablet.act(situation, action="answer", duel=0, fighter=zavulon.pk, card=card, version=version).status


def run(base_url: str, world: World, rows: int = ROWS) -> Seen:
    table = CHARACTERS.read(characters_file(rows), "csv")
    record = runner.start(world.event, "characters", table)
    failures: list[BaseException] = []
    # The check may end before one login and one tap have been timed (a quiet machine): its end waits
    # (at most 30 s) until the requests have been timed during it, so both phases are always seen.
    sampled_while_checking = threading.Event()

    class Gated(ImportKind):
        """The real kind, whose check ends only once requests were timed during it (the runner's ``kinds``)."""

        def __init__(self, kind: ImportKind) -> None:
            self.kind, self.key = kind, kind.key

        def lookups(self, event: Any) -> Any:
            return self.kind.lookups(event)

        def check(self, *args: Any, **kwargs: Any) -> Any:
            checked = self.kind.check(*args, **kwargs)
            sampled_while_checking.wait(30)
            return checked

        def write(self, *args: Any, **kwargs: Any) -> Any:
            return self.kind.write(*args, **kwargs)

    def work() -> None:
        try:
            runner.run(record.pk, kinds=lambda key: Gated(kind_of(key)))
        except BaseException as err:  # reported below
            failures.append(err)
        finally:
            connection.close()

    importer = threading.Thread(target=work)
    seen = Seen()
    # Warm the server first (its first request loads the URLs, templates and translations).
    assert login(base_url, world.player.username) == 302
    assert referee_tap(base_url, world.duels, -1)() == 200
    importer.start()
    n = 0
    while importer.is_alive():
        status = TableImport.objects.filter(pk=record.pk).values_list("status", flat=True).get()
        seconds, code = _timed(lambda: login(base_url, world.player.username))
        seen.requests.append(("login", status, seconds, code))
        seconds, code = _timed(referee_tap(base_url, world.duels, n))
        seen.requests.append(("referee", status, seconds, code))
        if status == TableImport.Status.CHECKING:
            sampled_while_checking.set()
        n += 1
        time.sleep(EVERY)
    importer.join()
    assert not failures, failures
    done = TableImport.objects.get(pk=record.pk)
    assert done.status == TableImport.Status.DONE, (done.status, done.errors[:3], done.failure)
    assert done.created == rows and Character.objects.filter(event=world.event).count() == rows
    slow = [r for r in seen.requests if r[2] >= MAX_SECONDS or r[3] != (302 if r[0] == "login" else 200)]
    assert not slow, f"requests slow or refused during the import: {slow[:10]}"
    phases = {status for _what, status, _s, _c in seen.requests}
    assert {TableImport.Status.CHECKING, TableImport.Status.WRITING} <= phases, phases
    return seen

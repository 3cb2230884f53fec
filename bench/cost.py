"""What each request costs the app server, one request at a time: CPU, statements, Redis round trips.

    bench/run.sh --keep ...                      # leaves the bench database and game behind, or any run
    .venv/bin/python -m bench.cost [--repeat 300] [--profile NAME] [--only NAME,...]

Load figures (wrk) depend on everything else the machine runs; these do not.
Each request type of the benchmark (bench/load.py) is sent through the WSGI
application in this process (``config.wsgi.application``, the early poll path
included) - exactly what a gunicorn thread runs - against the bench database
and Redis db of the last run (bench/var/game.json), and measured by
``time.process_time`` (this process's CPU only), by the SQL statements sent
and by the Redis round trips. ``--profile NAME`` prints
cProfile's top functions for one of them. The database server's and Redis's
own work is not in the CPU figure; the round trips stand for it.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import itertools
import json
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CSRF = "c" * 32


def _environ(method: str, path: str, headers: dict[str, str], body: bytes = b"") -> dict[str, Any]:
    env = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "18471",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1:18471",
        "HTTP_X_FORWARDED_PROTO": "https",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    if body:
        env["CONTENT_LENGTH"] = str(len(body))
        env["CONTENT_TYPE"] = "application/x-www-form-urlencoded"
    for name, value in headers.items():
        env["HTTP_" + name.upper().replace("-", "_")] = value
    return env


class Counters:
    """SQL statements (Django's execute wrapper) and Redis round trips (redis-py's packed sends)."""

    def __init__(self) -> None:
        self.sql = 0
        self.redis = 0

    def install(self) -> None:
        from django.db import connection
        from redis.connection import AbstractConnection

        def sql(execute: Callable[..., Any], *args: Any) -> Any:
            self.sql += 1
            return execute(*args)

        connection.execute_wrappers.append(sql)
        original = AbstractConnection.send_packed_command
        counters = self

        def send(conn: Any, command: Any, check_health: bool = True) -> Any:
            counters.redis += 1
            return original(conn, command, check_health)

        AbstractConnection.send_packed_command = send  # type: ignore[method-assign]


class Requests:
    """Every request type of the benchmark, as endless cycles of WSGI environs."""

    def __init__(self, game: dict[str, Any]) -> None:
        self.game = game
        self.cookie = f"sessionid={game['session']}; csrftoken={CSRF}"
        self.fights = game["fights"]
        self.cursor: dict[int, int] = {}

    def _get(self, path: str, **headers: str) -> Callable[[], dict[str, Any]]:
        return lambda: _environ("GET", path, headers)

    def _etag(self, app: Any, path: str, headers: dict[str, str]) -> str:
        _status, out, _body = _call(app, _environ("GET", path, headers))
        return dict(out)["ETag"]

    def kinds(self, app: Any) -> dict[str, Iterator[Callable[[], dict[str, Any]]]]:
        hx = {"HX-Request": "true"}
        staff = {**hx, "Cookie": self.cookie}
        public = {**hx, "Cookie": f"csrftoken={CSRF}"}  # as bench/load.py: the page load set it
        duels = [f for f in self.fights if f.get("kind", "duel") == "duel"]
        short = [f for f in duels if f["length"] == 10]
        long_ = [f for f in duels if f["length"] == 500]

        def of(kind: str) -> list[dict[str, Any]]:
            return [f for f in self.fights if f.get("kind", "duel") == kind]

        def polls(fights: list[dict[str, Any]], role: str) -> list[tuple[str, dict[str, str]]]:
            if role == "spectator":
                return [(f.get("watch", f"/watch/{f['id']}/"), public) for f in fights]
            if role == "player":
                return [(f"/c/{t}/live/", public) for f in fights for t in f["tokens"]]
            return [(f"/fights/{f['id']}/", staff) for f in fights]

        def unchanged(urls: list[tuple[str, str]]) -> Iterator[Callable[[], dict[str, Any]]]:
            made = [(p, {**h, "If-None-Match": self._etag(app, p, h)}) for p, h in urls]
            for p, h in made:
                # A first poll of each: what a phone polling every 2 s finds in steady state (a player's
                # link answer is kept for 60 s, events/link_cache.py), not each URL's very first poll.
                _call(app, _environ("GET", p, h))
            return itertools.cycle([self._get(p, **h) for p, h in made])

        def changed(urls: list[tuple[str, str]]) -> Iterator[Callable[[], dict[str, Any]]]:
            return itertools.cycle([self._get(p, **h, **{"If-None-Match": '"older"'}) for p, h in urls])

        def fresh(urls: list[tuple[str, str]]) -> Iterator[Callable[[], dict[str, Any]]]:
            # The first poll of a version after a step: no viewer had its fragment rendered yet (a "changed"
            # poll above finds it in the shared cache after the first one). Forgotten before each, untimed.
            for p, h in itertools.cycle(urls):
                yield self._forgetting(app, p, {**h, "If-None-Match": '"older"'})

        post = {**hx, "Cookie": self.cookie, "X-CSRFToken": CSRF, "Origin": "https://127.0.0.1:18471"}
        return {
            "bare": itertools.cycle([self._get("/ping/")]),
            "bare_post": itertools.cycle([lambda: _environ("POST", "/ping/", post, b"x=1")]),
            "spectator_poll_unchanged": unchanged(polls(duels, "spectator")),
            "player_poll_unchanged": unchanged(polls(duels, "player")),
            "referee_poll_unchanged": unchanged(polls(duels, "referee")),
            "spectator_poll_changed_10": changed(polls(short, "spectator")),
            "spectator_poll_changed_500": changed(polls(long_, "spectator")),
            "player_poll_changed_10": changed(polls(short, "player")),
            "player_poll_changed_500": changed(polls(long_, "player")),
            "referee_poll_changed_500": changed(polls(long_, "referee")),
            # Issue 24: what the mixed load's changed polls mostly are (each player's fragment is their own).
            "spectator_poll_fresh_10": fresh(polls(short, "spectator")),
            "player_poll_fresh_10": fresh(polls(short, "player")),
            "player_poll_fresh_battle": fresh(polls(of("battle"), "player")),
            "spectator_poll_fresh_battle": fresh(polls(of("battle"), "spectator")),
            "spectator_poll_fresh_mass": fresh(polls(of("mass"), "spectator")),
            "referee_page_10": itertools.cycle([self._get(f"/fights/{f['id']}/", Cookie=self.cookie) for f in short]),
            # The referee's running-fights list after a change (bench/load.py's referee_list_changed).
            "referee_list_changed": itertools.cycle(
                [self._get(f"/events/{self.game['event']}/referee/", **staff, **{"HX-Target": "running"})]
            ),
            "step_post": self._steps(post, "duel"),
            # Issue 24: the step of every kind (bench/kinds.py), each at its fights' realistic lengths.
            "step_post_battle": self._steps(post, "battle"),
            "step_post_mass": self._steps(post, "mass"),
        }

    @staticmethod
    def _forgetting(app: Any, path: str, headers: dict[str, str]) -> Callable[[], dict[str, Any]]:
        """A GET of ``path`` once its current fragment is out of the shared cache (untimed: before the call)."""
        from django.core.cache import cache

        _status, out, _body = _call(app, _environ("GET", path, headers))
        etag = dict(out).get("ETag", "").strip('"')
        client = cache._cache.get_client()  # type: ignore[attr-defined]  # the Redis cache's own client
        for key in client.scan_iter(match=f"*fragment-pieces:*:{etag}", count=1000):
            client.delete(key)
        return lambda: _environ("GET", path, headers)

    def _steps(self, headers: dict[str, str], kind: str) -> Iterator[Callable[[], dict[str, Any]]]:
        """Each fight's next prepared step, with the version it is at now (round robin over the fights of ``kind``)."""
        from urllib.parse import urlencode

        from duels.models import Situation

        fights = [f for f in self.fights if f["steps"] and f.get("kind", "duel") == kind]
        if not fights:  # a game built before issue 24 has duels only
            return
        idle = 0
        for fight in itertools.cycle(fights):
            version = Situation.objects.values_list("version", flat=True).get(pk=fight["id"])
            done = version - fight["version"]
            if done >= len(fight["steps"]):
                idle += 1
                if idle > len(fights):  # every prepared step sent: the measure ends with what it has
                    return
                continue
            idle = 0
            body = urlencode({**fight["steps"][done], "version": version, "nonce": os.urandom(16).hex()}, doseq=True)
            path = fight.get("path") or f"/fights/{fight['id']}/"
            yield lambda p=path, b=body: _environ("POST", f"{p}act/", headers, b.encode())


def _call(app: Any, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes]:
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        seen.update(status=status, headers=headers)

    result = app(environ, start_response)
    try:
        body = b"".join(result)
    finally:
        if hasattr(result, "close"):
            result.close()
    return seen["status"], seen["headers"], body


def database_cpu() -> tuple[int, float] | None:
    """The PostgreSQL server process serving this connection, and the CPU it has used (seconds); None off it.

    A local server only (its process must be visible here); the kernel counts in clock ticks
    (10 ms), so only a mean over many requests means anything.
    """
    import psutil
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid  # psycopg's, without a statement
    try:
        times = psutil.Process(pid).cpu_times()
    except (psutil.Error, OSError):
        return None
    return pid, times.user + times.system


def connection_is_postgresql() -> bool:
    from django.db import connection

    return connection.vendor == "postgresql"


def measure(app: Any, counters: Counters, make: Iterator[Callable[[], dict[str, Any]]], repeat: int) -> dict[str, Any]:
    cpu, statuses = [], set()
    warm = 10
    db_seconds, db_same = 0.0, True
    sql = redis = 0
    for i in range(warm + repeat):
        try:
            environ = next(make)()
        except StopIteration:  # out of prepared steps (or none of this kind): what was measured
            repeat = max(1, i - warm)
            break
        # Only the request's own statements and round trips: not those that prepared it (a "fresh" poll's).
        sql0, redis0, db0 = counters.sql, counters.redis, database_cpu()
        start = time.process_time()
        status, _headers, _body = _call(app, environ)
        took = time.process_time() - start
        if i >= warm:
            cpu.append(took)
            statuses.add(status.split()[0])
            sql, redis = sql + counters.sql - sql0, redis + counters.redis - redis0
            db1 = database_cpu()
            if db0 and db1 and db0[0] == db1[0]:
                db_seconds += db1[1] - db0[1]
            else:
                db_same = False
    if not cpu:
        return {"cpu_us_median": 0, "cpu_us_mean": 0, "sql": 0, "redis": 0, "db_us_mean": None, "status": "none"}
    # The server's CPU for this connection during the measured requests (each served by one server process).
    db = round(db_seconds / repeat * 1e6) if db_same and connection_is_postgresql() else None
    return {
        "cpu_us_median": round(statistics.median(cpu) * 1e6),
        "cpu_us_mean": round(statistics.fmean(cpu) * 1e6),
        "sql": round(sql / repeat, 2),
        "redis": round(redis / repeat, 2),
        "db_us_mean": db,
        "status": ",".join(sorted(statuses)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.cost", description=__doc__)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--only", default="", help="comma-separated request types")
    parser.add_argument("--profile", default="", help="cProfile one request type")
    parser.add_argument("--lines", type=int, default=45, help="functions shown by --profile")
    parser.add_argument("--dump", default="", help="--profile's stats also to this file (pstats)")
    parser.add_argument("--game", default=str(ROOT / "bench" / "var" / "game.json"))
    parser.add_argument("--database", default="postgres://postgres@127.0.0.1:5432/sumrak_bench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of a table")
    args = parser.parse_args()
    from bench.__main__ import _database_url, _env, _redis_url

    # As bench/run.sh: a bare database name or Redis db number names one on the default server.
    args.database, args.redis = _database_url(args.database), _redis_url(args.redis)
    os.environ.update(_env(args))
    sys.path.insert(0, str(ROOT))
    # The real entry, as gunicorn serves it: the early poll path (config/early.py), then Django's handler.
    from config.wsgi import application as app

    counters = Counters()
    counters.install()
    game = json.loads(Path(args.game).read_text())
    kinds = Requests(game).kinds(app)
    wanted = [k for k in args.only.split(",") if k] or list(kinds)
    if args.profile:
        # CPU time, like the figures: a wait for PostgreSQL or Redis (or for a core) is not counted.
        profiler = cProfile.Profile(time.process_time)
        make = kinds[args.profile]
        for _ in range(10):
            _call(app, next(make)())
        for _ in range(args.repeat):
            environ = next(make)()  # prepared outside the profile (a "fresh" poll's)
            profiler.enable()
            _call(app, environ)
            profiler.disable()
        stats = pstats.Stats(profiler)
        if args.dump:
            stats.dump_stats(args.dump)
        stats.sort_stats("cumulative").print_stats(args.lines)
        stats.sort_stats("tottime").print_stats(25)
        return
    results = {name: measure(app, counters, kinds[name], args.repeat) for name in wanted}
    if args.json:
        print(json.dumps(results))
        return
    bare = results.get("bare", {}).get("cpu_us_median")
    print("| request | CPU µs (median) | mean | ÷ bare | SQL | Redis | database CPU µs (mean) | status |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for name, r in results.items():
        ratio = f"{r['cpu_us_median'] / bare:.2f}" if bare else ""
        db = "" if r["db_us_mean"] is None else r["db_us_mean"]
        cells = [name, r["cpu_us_median"], r["cpu_us_mean"], ratio, r["sql"], r["redis"], db, r["status"]]
        print("| " + " | ".join(str(c) for c in cells) + " |")


if __name__ == "__main__":
    main()

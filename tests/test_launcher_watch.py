"""The launcher says when a service it does not run is away and back, and when the disk runs low
(launcher_watch.py; issues 26 and 27). Redis is a real one of the test's own; PostgreSQL's probe
meets a stand-in that answers its first bytes as PostgreSQL does, and a port nobody listens on."""

from __future__ import annotations

import ast
import signal
import socket
import threading
from collections import namedtuple
from pathlib import Path

import pytest

import launcher
import launcher_watch as lw
from tests.resilience.servers import OwnRedis, free_port

# A bound on wall time or real processes: runs alone, never beside an xdist worker (scripts/test.sh).
pytestmark = pytest.mark.serial

ROOT = Path(__file__).resolve().parent.parent
Usage = namedtuple("Usage", "total used free")
MB = 1024 * 1024


def test_the_watch_imports_neither_django_nor_celery_nor_any_app():
    tree = ast.parse((ROOT / "launcher_watch.py").read_text(encoding="utf-8"))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
    assert imported and not imported & {"django", "celery", "config", "duels", "events", "cards", "helpers"}


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("redis://10.0.0.5:6390/4", ("10.0.0.5", 6390)),
        ("rediss://:secret@cache.lan/0", ("cache.lan", 6379)),
        ("unix:///run/redis/redis.sock", ("/run/redis/redis.sock", 0)),
        ("", None),
    ],
)
def test_the_redis_address_comes_from_redis_url(url, address):
    assert lw.redis_address(url) == (None if address is None else lw.Address(*address))


@pytest.mark.parametrize(
    ("url", "address"),
    [
        ("postgres://postgres@127.0.0.1:5433/sumrak", ("127.0.0.1", 5433)),
        ("postgresql://u:p@db.lan/sumrak", ("db.lan", 5432)),
        ("postgres://%2Fvar%2Frun%2Fpostgresql/sumrak", ("/var/run/postgresql/.s.PGSQL.5432", 5432)),
        ("sqlite:////tmp/game.sqlite3", None),
        ("", None),
    ],
)
def test_the_database_address_comes_from_database_url(url, address):
    assert lw.postgresql_address(url) == (None if address is None else lw.Address(*address))


def test_the_embedded_default_watches_only_the_disk(tmp_path):
    found = lw.watches(tmp_path, {})
    assert len(found) == 1 and found[0].every == 30.0


def _ticks(watch: lw.Watch, times: int, start: float) -> tuple[list[str], float]:
    said: list[str] = []
    now = start
    for _ in range(times):
        watch.tick(said.append, now=now)
        now += watch.every
    return said, now


def test_redis_away_and_back_is_said_once_each(tmp_path):
    redis = OwnRedis(tmp_path)
    redis.start()
    try:
        (watch,) = [w for w in lw.watches(tmp_path, {"REDIS_URL": redis.url}) if w.every == lw.WATCH_EVERY]
        said, now = _ticks(watch, 2, 0.0)
        assert said == []
        redis.stop()
        said, now = _ticks(watch, 3, now)
        assert len(said) == 1
        assert said[0].startswith(f"WARNING: Redis at 127.0.0.1:{redis.port} (REDIS_URL) is unreachable")
        assert "the pages answer from the database" in said[0]
        redis.start()
        said, now = _ticks(watch, 3, now)
        assert said == [f"Redis at 127.0.0.1:{redis.port} is back: the game carries on as before."]
    finally:
        redis.stop()


def test_it_asks_no_more_often_than_its_interval(tmp_path):
    asked: list[float] = []

    def healthy() -> bool:
        asked.append(1)
        return True

    watch = lw.Watch(healthy=healthy, away=str, back=str, every=5.0)
    for step in range(50):
        watch.tick(print, now=step * 0.5)  # the supervisor's loop turns every 0.5 s
    assert len(asked) == 5


class _FakePostgreSQL:
    """Answers an SSLRequest with "N", as a PostgreSQL without TLS does."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.requests: list[bytes] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            with client:
                self.requests.append(client.recv(8))
                client.sendall(b"N")

    def close(self) -> None:
        self.listener.close()


def test_postgresql_away_and_back_is_said_once_each(tmp_path):
    fake = _FakePostgreSQL()
    url = f"postgres://postgres@127.0.0.1:{fake.port}/sumrak"
    (watch,) = [w for w in lw.watches(tmp_path, {"DATABASE_URL": url}) if w.every == lw.WATCH_EVERY]
    said, now = _ticks(watch, 2, 0.0)
    assert said == [] and fake.requests[0] == bytes.fromhex("0000000804d2162f")  # the SSLRequest
    fake.close()
    said, now = _ticks(watch, 3, now)
    assert len(said) == 1 and "PostgreSQL at 127.0.0.1" in said[0] and "is unreachable" in said[0]
    assert "every page answers 503" in said[0]
    assert not lw.postgresql_answers(lw.Address("127.0.0.1", free_port()))


def test_a_listener_that_is_not_redis_or_postgresql_still_counts_only_if_it_replies(tmp_path):
    silent = socket.create_server(("127.0.0.1", 0))
    try:
        lw.PROBE_SECONDS, kept = 0.3, lw.PROBE_SECONDS
        assert not lw.postgresql_answers(lw.Address("127.0.0.1", silent.getsockname()[1]))
    finally:
        lw.PROBE_SECONDS = kept
        silent.close()


def test_the_launcher_warns_when_free_space_falls_under_the_threshold(tmp_path):
    """Issue 27: a fake disk_usage; the threshold is SUMRAK_DISK_WARN_MB (500 MB by default)."""
    free = [900 * MB]
    watch = lw.disk_watch(tmp_path, {}, usage=lambda folder: Usage(0, 0, free[0]))
    said, now = _ticks(watch, 2, 0.0)
    assert said == []
    free[0] = 120 * MB
    said, now = _ticks(watch, 1, now)
    assert said == [
        f"WARNING: only 120 MB free on the disk of {tmp_path}. Free space on the laptop now: with a full disk "
        "every change in the game (a referee's tap, a check-in) answers 503 'the game's disk is full' until "
        "space is freed."
    ]
    free[0] = 30 * MB
    said, now = _ticks(watch, 3, now)
    assert said == []  # once per fall, not per check
    free[0] = 2048 * MB
    said, now = _ticks(watch, 2, now)
    assert said == [f"Free disk space is back to 2048 MB on the disk of {tmp_path}."]


def test_the_disk_threshold_is_a_setting(tmp_path):
    watch = lw.disk_watch(tmp_path, {"SUMRAK_DISK_WARN_MB": "50"}, usage=lambda folder: Usage(0, 0, 100 * MB))
    assert _ticks(watch, 1, 0.0)[0] == []
    watch = lw.disk_watch(tmp_path, {"SUMRAK_DISK_WARN_MB": "5000"}, usage=lambda folder: Usage(0, 0, 100 * MB))
    assert "only 100 MB free" in _ticks(watch, 1, 0.0)[0][0]


def test_the_supervisors_loop_asks_the_watches(capsys):
    sup = launcher.Supervisor([], stop_seconds=1)

    def away() -> bool:
        sup.stop_signal = signal.SIGTERM  # stop after this turn of the loop
        return False

    sup.watches = [lw.Watch(healthy=away, away=lambda: "WARNING: Redis is away", back=str)]
    assert sup.supervise(poll_seconds=0.01) == 128 + signal.SIGTERM
    assert "[sumrak] WARNING: Redis is away" in capsys.readouterr().err


def test_main_watches_the_services_its_environment_names(tmp_path, monkeypatch):
    captured: dict[str, list[lw.Watch]] = {}

    class Stop(Exception):
        pass

    def fake_supervisor(programs, *, watches=(), **kwargs):
        captured["watches"] = list(watches)
        raise Stop

    monkeypatch.setattr(launcher, "Supervisor", fake_supervisor)
    monkeypatch.setenv("SUMRAK_VAR_DIR", str(tmp_path))
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:1/x")
    with pytest.raises(Stop):
        launcher.main(["--no-setup", "--no-web"])
    assert len(captured["watches"]) == 3  # Redis, PostgreSQL, the disk

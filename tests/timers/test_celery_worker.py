"""Timers with a real Celery worker and Redis (DESIGN.md §4, §7): D8 expires with no request at all.

The worker (and, for the restart test, a beat) run as subprocesses against the
test database, which is why these tests need PostgreSQL (``transactional_db``:
the subprocess must see committed rows) and Redis. Skipped without them
locally; a failure in CI (``CI=true``).
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
import redis
from django.conf import settings
from django.db import connection

from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from duels.services.store import EXPIRE_TASK, TIMER_LAG
from events.models import Character
from rules import duel as engine
from tests.services.kit import nonce

# The timers really reach the broker here (no ``no_broker``).
pytestmark = [pytest.mark.celery_worker, pytest.mark.real_timers]

WINDOW_S = 3
# The two tests that stop a worker holding the timer need the window still open after the worker
# started, received the timer and was stopped: a worker's start takes seconds on a loaded machine,
# so they open the step after it is up, with a window long enough for the stop to come first.
HELD_WINDOW_S = 15
CELERY = str(Path(sys.executable).with_name("celery"))


@pytest.fixture
def services_up(transactional_db) -> None:
    missing = []
    if connection.vendor != "postgresql":
        missing.append("PostgreSQL (DATABASE_URL)")
    if not os.environ.get("REDIS_URL"):
        missing.append("Redis (REDIS_URL)")
    if missing:
        message = "a real Celery worker needs " + " and ".join(missing)
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)


def _test_database_url() -> str:
    db = connection.settings_dict
    auth = quote(db["USER"] or "")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    host = db.get("HOST") or "127.0.0.1"
    port = db.get("PORT") or 5432
    return f"postgres://{auth}@{host}:{port}/{db['NAME']}"


class Processes:
    """Celery subprocesses, each in its own process group, all stopped at teardown."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.running: list[tuple[subprocess.Popen[bytes], Path]] = []
        self.env = {
            **os.environ,
            "DATABASE_URL": _test_database_url(),
            "REDIS_URL": os.environ["REDIS_URL"],
            "SUMRAK_VAR_DIR": str(tmp_path / "var"),
            "SUMRAK_SWEEP_SECONDS": "1",
            "CELERY_TASK_ALWAYS_EAGER": "false",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }

    def start(self, *args: str, ready: str) -> tuple[subprocess.Popen[bytes], Path]:
        log = self.tmp_path / f"{args[0]}-{uuid.uuid4().hex[:8]}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                [CELERY, "-A", "config", *args],
                cwd=settings.BASE_DIR,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.running.append((proc, log))
        wait_for(lambda: ready in log.read_text(errors="replace"), 40, f"{args[0]} did not start:\n{log}")
        return proc, log

    def worker(self) -> tuple[subprocess.Popen[bytes], Path]:
        name = f"sumrak-test-{uuid.uuid4().hex[:8]}@%h"
        # solo pool: one process, so SIGKILL leaves no orphaned child behind.
        return self.start(
            "worker", "-P", "solo", "-n", name, "-l", "INFO", "--without-gossip", "--without-mingle", ready="ready."
        )

    def beat(self) -> tuple[subprocess.Popen[bytes], Path]:
        return self.start("beat", "-s", str(self.tmp_path / "beat-schedule"), "-l", "INFO", ready="beat: Starting")

    def kill(self, proc: subprocess.Popen[bytes], sig: int = signal.SIGKILL) -> None:
        if proc.poll() is None:
            os.killpg(proc.pid, sig)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)

    def stop_all(self) -> None:
        for proc, _log in reversed(self.running):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc, _log in reversed(self.running):
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill(proc)


def wait_for(condition: Callable[[], bool], seconds: float, message: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(message)


@pytest.fixture
def celery(services_up, tmp_path) -> Iterator[Processes]:
    processes = Processes(tmp_path)
    try:
        yield processes
    finally:
        processes.stop_all()


@pytest.fixture
def show(armed, referee, attack_card, event) -> Callable[[int], tuple[Situation, dt.datetime]]:
    """Anton shows a Fireball to Zavulon with a ``window_s`` answer window (event setting, D8)."""

    def shown(window_s: int) -> tuple[Situation, dt.datetime]:
        anton, zavulon = armed
        event.answer_window_s = window_s
        event.save()
        anton.refresh_from_db()
        done = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce())
        step = engine.from_dict(Situation.objects.get(pk=done.situation.pk).state).duels[0].step
        assert step is not None and step.answer_deadline is not None
        return done.situation, step.answer_deadline

    return shown


@pytest.fixture
def shown_briefly(show) -> tuple[Situation, dt.datetime]:
    return show(WINDOW_S)


def timer_waits_in_the_broker(situation_id: int, deadline: dt.datetime) -> bool:
    """Whether the expiry timer for this deadline is in Redis's ``celery`` queue, not yet taken by a worker."""
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        queued = [json.loads(raw) for raw in client.lrange("celery", 0, -1)]
    finally:
        client.close()
    return any(
        message["headers"].get("task") == EXPIRE_TASK
        and json.loads(base64.b64decode(message["body"]))[0] == [situation_id]
        and dt.datetime.fromisoformat(message["headers"]["eta"]) == deadline + TIMER_LAG
        for message in queued
    )


def resolved_by_timeout(situation_id: int) -> bool:
    """Reads the row only: no service call, so nothing here can apply the deadline."""
    state = engine.from_dict(Situation.objects.get(pk=situation_id).state)
    done = state.duels[0].steps_done
    return bool(done) and done[-1].timed_out


def assert_applied_in_full(situation_id: int, deadline: dt.datetime, rival: Character) -> None:
    state = engine.from_dict(Situation.objects.get(pk=situation_id).state)
    record = state.duels[0].steps_done[-1]
    assert (record.outcome, record.answer_card) == ("not_parried", None)
    expired = LogEntry.objects.get(situation_id=situation_id, kind="expire")
    assert expired.at > deadline  # never early: the server's deadline holds
    rival.refresh_from_db()
    assert rival.condition == "heavily_wounded"  # CR1 full effect, written back by the worker


def test_D8_the_window_expires_with_no_request_at_all(celery, shown_briefly, rival):
    """The ETA timer alone (no beat running) resolves the step in full."""
    situation, deadline = shown_briefly
    # The timer was sent on commit, before the worker even started: the broker keeps it. (It once was
    # never sent: another test's broker outage was still on record, docs/testing.md.)
    assert timer_waits_in_the_broker(situation.pk, deadline), "the timer never reached the broker"
    celery.worker()
    wait_for(lambda: resolved_by_timeout(situation.pk), WINDOW_S + 20, "the answer window never expired")
    assert_applied_in_full(situation.pk, deadline, rival)


def test_D8_a_worker_killed_mid_countdown_loses_no_deadline(celery, show, rival):
    """SIGKILL the worker holding the timer; a new worker and the sweeper apply the deadline."""
    first, log = celery.worker()
    situation, deadline = show(HELD_WINDOW_S)
    wait_for(lambda: "duels.tasks.expire_situation" in log.read_text(errors="replace"), 20, "timer not received")
    assert dt.datetime.now(dt.UTC) < deadline, "the machine took the whole window to hand the timer over"
    celery.kill(first, signal.SIGKILL)
    assert not resolved_by_timeout(situation.pk)
    celery.beat()
    celery.worker()
    wait_for(lambda: resolved_by_timeout(situation.pk), HELD_WINDOW_S + 30, "the deadline was lost with the worker")
    assert_applied_in_full(situation.pk, deadline, rival)


def test_a_worker_stopped_cold_hands_its_timer_back(celery, show, rival):
    """Soft shutdown (settings): SIGQUIT returns the held ETA task; the next worker runs it, no beat needed."""
    first, log = celery.worker()
    situation, deadline = show(HELD_WINDOW_S)
    wait_for(lambda: "duels.tasks.expire_situation" in log.read_text(errors="replace"), 20, "timer not received")
    os.killpg(first.pid, signal.SIGQUIT)
    first.wait(30)
    assert dt.datetime.now(dt.UTC) < deadline, "the machine took the whole window to stop the worker"
    assert not resolved_by_timeout(situation.pk)
    celery.worker()
    wait_for(lambda: resolved_by_timeout(situation.pk), HELD_WINDOW_S + 20, "the stopped worker kept the timer")
    assert_applied_in_full(situation.pk, deadline, rival)

"""The launcher restarts a SIGKILLed worker or beat cleanly, and a pending deadline is applied once (issue 13).

The real launcher (launcher.py, what ./scripts/start.sh runs) starts the
worker and the beat, each its own supervised process, against the test
database; a step's D8 window is open; the test SIGKILLs one of them. The
launcher must start it again (the killed one's pool children gone), the
deadline must be applied exactly once (one ``expire`` log entry, the full
effect written back), and Ctrl-C must then leave no process behind. Needs
PostgreSQL and Redis, as every real-worker test (skipped locally without them,
a failure in CI).
"""

from __future__ import annotations

import datetime as dt
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from rules import duel as engine
from tests.services.kit import nonce

pytestmark = pytest.mark.celery_worker

WINDOW_S = 8


def _database_url() -> str:
    db = connection.settings_dict
    auth = quote(db["USER"] or "") + (":" + quote(db["PASSWORD"]) if db.get("PASSWORD") else "")
    return f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"


@pytest.fixture
def launched(transactional_db, tmp_path):
    """The launcher with the worker and the beat only, on the test database and Redis; its log file."""
    missing = [
        what
        for what, ok in (
            ("PostgreSQL (DATABASE_URL)", connection.vendor == "postgresql"),
            ("Redis (REDIS_URL)", bool(os.environ.get("REDIS_URL"))),
        )
        if not ok
    ]
    if missing:
        message = "the launcher's restart test needs " + " and ".join(missing)
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    env = dict(os.environ) | {
        "DATABASE_URL": _database_url(),
        "SUMRAK_VAR_DIR": str(tmp_path / "var"),
        "SUMRAK_SWEEP_SECONDS": "1",
        "SUMRAK_WORKER_LOGLEVEL": "INFO",
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    log = tmp_path / "launcher.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "launcher", "--no-web", "--no-setup"],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for(lambda: "ready." in _text(log) and "beat: Starting" in _text(log), 60, f"no start:\n{_text(log)}")
        yield proc, log
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(45)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)


def _text(log: Path) -> str:
    return log.read_text(errors="replace")


def wait_for(condition, seconds: float, message: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    raise AssertionError(message)


def _stat(pid: int | str) -> list[str]:
    return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()


def _live(pid: int) -> bool:
    try:
        return _stat(pid)[0] not in ("Z", "X")
    except OSError:
        return False


def _group(pgid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = _stat(entry.name)
            except OSError:
                continue
            if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
                found.append(int(entry.name))
    return found


def _programs(launcher_pid: int) -> dict[str, int]:
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int(_stat(entry.name)[1]) != launcher_pid:
                    continue
                words = (entry / "cmdline").read_bytes().decode().split("\0")
            except OSError:
                continue
            found["worker" if "worker" in words else "beat"] = int(entry.name)
    return found


@pytest.mark.parametrize("victim", ["worker", "beat"])
def test_D8_a_killed_worker_or_beat_is_restarted_and_the_deadline_applies_once(
    launched, victim, armed, referee, attack_card, event, rival
):
    proc, log = launched
    before = _programs(proc.pid)
    assert set(before) == {"worker", "beat"}
    old_group = _group(before[victim])
    event.answer_window_s = WINDOW_S
    event.save()
    anton, zavulon = armed
    done = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce())
    situation_id = done.situation.pk
    step = engine.from_dict(Situation.objects.get(pk=situation_id).state).duels[0].step
    assert step is not None and step.answer_deadline is not None
    deadline = step.answer_deadline
    wait_for(lambda: "duels.tasks.expire_situation" in _text(log), 20, "the worker never received the timer")
    assert dt.datetime.now(dt.UTC) < deadline, "too slow to kill anything mid-countdown"

    os.kill(before[victim], signal.SIGKILL)
    wait_for(
        lambda: f"The {victim} stopped unexpectedly (signal 9); restarting it." in _text(log),
        10,
        f"no restart:\n{_text(log)}",
    )
    wait_for(lambda: _programs(proc.pid).get(victim, before[victim]) != before[victim], 10, "not started again")
    assert not [pid for pid in old_group if _live(pid)], "the killed program left processes behind"
    survivor = "worker" if victim == "beat" else "beat"
    assert _programs(proc.pid)[survivor] == before[survivor]  # the other one was left running

    def expired() -> bool:
        done = engine.from_dict(Situation.objects.get(pk=situation_id).state).duels[0].steps_done
        return bool(done) and done[-1].timed_out

    wait_for(expired, WINDOW_S + 40, f"the deadline was lost:\n{_text(log)}")
    time.sleep(3)  # room for a second application (the sweeper runs every second) to show up
    entries = LogEntry.objects.filter(situation_id=situation_id, kind="expire")
    assert entries.count() == 1 and entries.get().at > deadline
    rival.refresh_from_db()
    assert rival.condition == "heavily_wounded"  # CR1's full effect, written back once

    everyone = [pid for program in _programs(proc.pid).values() for pid in _group(program)]
    proc.send_signal(signal.SIGINT)
    assert proc.wait(45) == 128 + signal.SIGINT
    assert not [pid for pid in everyone if _live(pid)], "Ctrl-C left processes behind"

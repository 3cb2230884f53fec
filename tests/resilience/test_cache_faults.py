"""A cache or broker that is away is a miss and a skipped timer, with one warning per outage (issue 26).

A Redis of the test's own (tests/resilience/servers.py) is stopped and started, or cut off by a proxy
while it keeps its data; the file cache of the embedded default gets a full disk (issue 27).
"""

from __future__ import annotations

import datetime as dt
import errno
import logging
import tempfile

import pytest
from django.core.cache import cache
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.utils import timezone

from config.forgiving_cache import FileCache
from duels.services import store
from helpers.outage import BROKER
from tests.resilience.servers import OwnRedis, TcpProxy, redis_broker, redis_cache

# A bound on wall time or real processes: runs alone, never beside an xdist worker (scripts/test.sh).
pytestmark = pytest.mark.serial


def outage_lines(caplog, level: int = logging.WARNING) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "sumrak.outage" and r.levelno == level]


@pytest.fixture
def redis(tmp_path):
    server = OwnRedis(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def redis_cache_at(settings, redis):
    with redis_cache(settings, redis.url):
        yield redis


def test_a_stopped_redis_is_a_miss_and_one_warning_and_back_by_itself(redis_cache_at, caplog, monkeypatch):
    monkeypatch.setattr("helpers.outage.time.monotonic", clock := _Clock())
    cache.set("meta", 1)
    assert cache.get("meta") == 1
    redis_cache_at.stop()

    for _ in range(50):
        assert cache.get("meta", "missed") == "missed"
        assert cache.get_many(["meta", "other"]) == {}
        assert cache.add("meta", 2) is False
        cache.set("meta", 3)
        assert set(cache.set_many({"a": 1, "b": 2})) == {"a", "b"}  # what could not be stored
        cache.delete_many(["a", "b"])
        assert cache.has_key("meta") is False
        clock.now += 0.3  # a few retries of the real Redis fall in the loop
    assert outage_lines(caplog) == [
        "the cache (Redis) is unreachable (ConnectionError): pages answer from the database"
    ]

    redis_cache_at.start()
    clock.now += 1.0
    cache.set("meta", 4)
    assert cache.get("meta") == 4
    assert len(outage_lines(caplog, logging.INFO)) == 1 and "is back" in outage_lines(caplog, logging.INFO)[0]
    assert len(outage_lines(caplog)) == 1


def test_while_away_the_cache_is_not_asked_until_the_retry_time(redis_cache_at, monkeypatch):
    """A tablet's request does not wait on a Redis known to be away: one try per second."""
    monkeypatch.setattr("helpers.outage.time.monotonic", clock := _Clock())
    asked: list[str] = []
    real = DjangoRedisCache.get  # under the forgiving one

    def counting(self, *args, **kwargs):
        asked.append("get")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(DjangoRedisCache, "get", counting)
    redis_cache_at.stop()
    for _ in range(20):
        cache.get("meta")
    assert len(asked) == 1
    clock.now += 1.1
    cache.get("meta")
    assert len(asked) == 2


def test_a_key_written_while_redis_was_unreachable_is_deleted_when_it_answers(settings, redis, monkeypatch):
    """Unreachable is not restarted: Redis keeps the old entry (a logged-out session, an old version)."""
    monkeypatch.setattr("helpers.outage.time.monotonic", clock := _Clock())
    proxy = TcpProxy(("127.0.0.1", redis.port))
    proxy.start()
    try:
        with redis_cache(settings, f"redis://127.0.0.1:{proxy.port}/0"):
            cache.set("session", "logged in")
            proxy.cut()
            cache.delete("session")  # a logout meanwhile: the database row goes, the cached copy cannot
            cache.set("version", 7)
            proxy.resume()
            clock.now += 1.1  # the cache's retry time: the next call asks it again
            assert cache.get("other") is None  # the first answer deletes what could not be written
            assert cache.get("session") is None
            assert cache.get("version") is None
    finally:
        proxy.stop()


def test_the_embedded_file_cache_with_a_full_disk_is_a_miss(tmp_path, monkeypatch, caplog):
    """Issue 27: on the embedded default a full disk must not turn a read into a 500 through the cache."""
    clock = _Clock()
    monkeypatch.setattr("helpers.outage.time.monotonic", clock)
    files = FileCache(str(tmp_path / "cache"), {})
    files.set("meta", 1)
    assert files.get("meta") == 1

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    real_mkstemp = tempfile.mkstemp
    monkeypatch.setattr(tempfile, "mkstemp", full)
    files.set("meta", 2)  # nothing raised; the old entry is dropped when the disk takes writes again
    assert files.add("other", 1) is False
    assert len(outage_lines(caplog)) == 1
    assert "the cache folder (var/cache) is unreachable (OSError)" in outage_lines(caplog)[0]
    monkeypatch.setattr(tempfile, "mkstemp", real_mkstemp)
    clock.now += 1.1
    assert files.get("other") is None
    assert files.get("meta") is None  # the entry the failed write left behind is gone, not served stale
    files.set("meta", 3)
    assert files.get("meta") == 3


@pytest.mark.real_timers
def test_a_timer_that_cannot_reach_the_broker_is_left_to_the_sweeper_once_logged(
    db, redis, caplog, monkeypatch, django_capture_on_commit_callbacks
):
    """The command commits; the send fails without raising, one warning, and the next sends wait."""
    monkeypatch.setattr("helpers.outage.time.monotonic", clock := _Clock())
    monkeypatch.setattr(BROKER, "_since", None)
    deadline = timezone.now() + dt.timedelta(seconds=15)
    with redis_broker(redis.url):
        redis.stop()
        tries: list[int] = []
        real_failed = BROKER.failed

        def counted(error):
            tries.append(1)
            return real_failed(error)

        monkeypatch.setattr(BROKER, "failed", counted)
        for situation_id in range(5):
            with django_capture_on_commit_callbacks(execute=True):
                store.schedule_expiry(situation_id, deadline)
        assert len(tries) == 1  # only the first send paid the publish retries; the rest were skipped
        timers = [r for r in caplog.records if "could not schedule the timer" in r.getMessage()]
        assert len(timers) == 1 and len(outage_lines(caplog)) == 1
        redis.start()
        clock.now += BROKER.retry_seconds + 0.1
        with django_capture_on_commit_callbacks(execute=True):
            store.schedule_expiry(99, deadline)
        assert not BROKER.down
        assert any("is back" in line for line in outage_lines(caplog, logging.INFO))


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

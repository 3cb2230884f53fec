"""Services the outage tests start, stop and cut themselves (issue 26), never the machine's own.

- ``OwnRedis``: a ``redis-server`` of the test's own on a free port, without persistence; ``stop``
  kills it (its data is gone, as after a real restart), ``start`` brings it back on the same port.
- ``TcpProxy``: a port that forwards to a server; ``cut`` closes every connection through it and
  refuses new ones (the server is away for its clients, though it runs on), ``resume`` lets them
  in again. In front of PostgreSQL it is the database going away; in front of Redis, a Redis that
  was unreachable but kept its data.
- ``redis_cache`` / ``redis_broker``: point the cache (with cached sessions) and Celery's broker
  at a Redis of the test's own, for the duration of a test.
- ``database_through``: every new database connection goes through a proxy.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import shutil
import socket
import subprocess
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from celery import current_app
from django.core.cache import caches as django_caches
from django.db import connection, connections


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


def need(what: str) -> None:
    """Skip locally, fail in CI (DESIGN.md §7: nothing may skip there)."""
    if in_ci():
        pytest.fail(what)
    pytest.skip(what)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"{what} within {seconds} s")


def answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


class OwnRedis:
    def __init__(self, folder: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            need("the outage tests start a Redis of their own: apt-get install redis-server")
        self.binary = str(binary)
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        argv = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        argv += ["--dir", str(self.folder)]
        self.process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_until(lambda: answers(self.port), 10, f"redis-server did not answer on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
            self.process = None
        wait_until(lambda: not answers(self.port), 5, "redis-server did not stop")


class TcpProxy:
    """Forwards 127.0.0.1:port to ``upstream``; each connection is pumped by a thread of its own."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.port = free_port()
        self._lock = threading.Lock()
        self._pairs: list[tuple[socket.socket, socket.socket]] = []
        self._listener: socket.socket | None = None
        self._accepting: threading.Thread | None = None

    def start(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self._listener = listener
        self._accepting = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        self._accepting.start()

    resume = start

    def cut(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        if self._accepting is not None:
            self._accepting.join(5)
        with self._lock:
            pairs, self._pairs = self._pairs, []
        for pair in pairs:
            for end in pair:
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)
                end.close()

    stop = cut

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                if self._listener is not listener:
                    return  # cut
                time.sleep(0.05)  # a connection aborted before it was accepted: the proxy still serves
                continue
            try:
                server = socket.create_connection(self.upstream, timeout=5)
            except OSError:
                client.close()
                continue
            with self._lock:
                if self._listener is not listener:
                    client.close()
                    server.close()
                    return
                self._pairs.append((client, server))
            threading.Thread(target=self._pump, args=(client, server), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        # A selector (epoll), not select.select: select() refuses a descriptor above 1024 with ValueError,
        # which closed every connection through the proxy once the test process held that many (the
        # database then looked "unreachable" before anything was cut).
        ends = [a, b]
        try:
            with selectors.DefaultSelector() as selector:
                for end in ends:
                    selector.register(end, selectors.EVENT_READ)
                while a.fileno() != -1 and b.fileno() != -1:  # closed by ``cut``: epoll does not report it
                    for key, _ in selector.select(1.0):
                        source = a if key.fileobj is a else b
                        data = source.recv(65536)
                        if not data:
                            return
                        (b if source is a else a).sendall(data)
        except OSError:
            return  # cut, or a side closed
        finally:
            for end in ends:
                with contextlib.suppress(OSError):
                    end.close()


def close_cache_connections() -> None:
    """Close the Redis connections of this thread's cache backends.

    ``settings.CACHES = ...`` makes Django start new backends, but it never closes the old ones' Redis
    connections (its ``RedisCache.close`` does nothing), and the backends a thread made stay referenced
    by the cache handler's context variable for as long as the thread lives: the test thread kept
    one socket per test.
    """
    for cache in django_caches.all(initialized_only=True):
        client = cache.__dict__.get("_cache")  # Django's RedisCacheClient, made on first use
        for pool in getattr(client, "_pools", {}).values():
            pool.disconnect()


@contextlib.contextmanager
def redis_cache(settings: Any, url: str) -> Iterator[None]:
    """The cache (and the cached sessions a server has) on this Redis, as config/settings.py sets them."""
    settings.CACHES = {
        "default": {
            "BACKEND": "config.redis_cache.RedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 2.0},
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        }
    }
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    try:
        yield
    finally:
        close_cache_connections()


@contextlib.contextmanager
def redis_broker(url: str) -> Iterator[None]:
    """Celery's broker on this Redis: the timers a commit schedules really try to reach it."""
    conf = current_app.conf
    kept = {name: conf.get(name) for name in ("broker_url", "broker_transport", "broker_transport_options")}

    def reset() -> None:
        # Celery keeps its producer pool for the broker it first met.
        current_app._pool = None  # type: ignore[attr-defined]
        current_app.amqp._producer_pool = None  # type: ignore[attr-defined]

    conf.update(broker_url=url, broker_transport=None, broker_transport_options={})
    reset()
    try:
        yield
    finally:
        for name, value in kept.items():
            conf[name] = value
        reset()


@contextlib.contextmanager
def filesystem_broker(folder: Path) -> Iterator[None]:
    """Celery's broker the embedded default's way (config/broker.py), in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    options = {"data_folder_in": str(folder), "data_folder_out": str(folder), "control_folder": str(folder)}
    with redis_broker("filesystem://localhost//"):
        current_app.conf.update(broker_transport="config.broker:Transport", broker_transport_options=options)
        yield


@contextlib.contextmanager
def database_through(proxy: TcpProxy) -> Iterator[None]:
    """New database connections (the live server's requests) go through ``proxy``; this thread's stays."""
    connection.ensure_connection()  # this thread's own connection stays direct: the test reads through it
    dicts = {id(d): d for d in (connection.settings_dict, connections.settings["default"])}
    kept = [(d, d.get("HOST"), d.get("PORT")) for d in dicts.values()]
    for d in dicts.values():
        d["HOST"], d["PORT"] = "127.0.0.1", str(proxy.port)
    try:
        yield
    finally:
        for d, host, port in kept:
            d["HOST"], d["PORT"] = host, port


def upstream_of_database() -> tuple[str, int]:
    db = connection.settings_dict
    return (db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432))

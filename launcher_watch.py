"""What the launcher watches but does not run: Redis, PostgreSQL and the free disk space (issues 26, 27).

The launcher (launcher.py) restarts the programs it started; Redis and PostgreSQL named by
``REDIS_URL`` and ``DATABASE_URL`` run on their own (systemd, another machine). When one of them
stops answering, the game changes at once (docs/deployment.md, "When a service goes away"):
the organizer at the laptop should read why, and when it is over. A full disk on the embedded
default makes every change answer 503, so the launcher warns before that, while there is still
room to free.

Each ``Watch`` is asked every ``every`` seconds by the supervisor's loop and says something only
when its state changes (away / back, low / enough). No Django here either: the services are
probed with their own protocols' first bytes (Redis ``PING``, PostgreSQL's ``SSLRequest``).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit

PROBE_SECONDS = 1.0
WATCH_EVERY = 5.0
# Under this much free space on the disk of var/ the launcher warns (SUMRAK_DISK_WARN_MB changes it).
DISK_WARN_MB = 500
# The reply PostgreSQL gives an SSLRequest (8 bytes: length 8, code 80877103) before anything else.
_PG_SSL_REQUEST = (8).to_bytes(4, "big") + (80877103).to_bytes(4, "big")


class Address(NamedTuple):
    host: str  # a host name or address, or a Unix socket's path
    port: int

    def __str__(self) -> str:
        return self.host if self.host.startswith("/") else f"{self.host}:{self.port}"


def _connect(address: Address) -> socket.socket:
    if address.host.startswith("/"):
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(PROBE_SECONDS)
        try:
            sock.connect(address.host)
        except OSError:
            sock.close()
            raise
        return sock
    return socket.create_connection((address.host, address.port), timeout=PROBE_SECONDS)


def redis_answers(address: Address) -> bool:
    """Any reply to PING counts (an ``-NOAUTH`` error too): the server is there."""
    try:
        with _connect(address) as sock:
            sock.sendall(b"PING\r\n")
            return bool(sock.recv(64))
    except OSError:
        return False


def postgresql_answers(address: Address) -> bool:
    """PostgreSQL answers an SSLRequest with one byte, ``S`` or ``N``, even while it starts up."""
    try:
        with _connect(address) as sock:
            sock.sendall(_PG_SSL_REQUEST)
            return sock.recv(1) in (b"S", b"N")
    except OSError:
        return False


def redis_address(url: str) -> Address | None:
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return Address(parts.path, 0)
    if parts.scheme not in ("redis", "rediss"):
        return None
    return Address(parts.hostname or "localhost", parts.port or 6379)


def postgresql_address(url: str) -> Address | None:
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql", "pgsql", "postgis"):
        return None  # sqlite:// or another engine: nothing running to watch
    host = unquote(parts.hostname or "") if parts.netloc else ""
    port = parts.port or 5432
    if not host or host.startswith("/"):
        # A socket directory (postgres://%2Fvar%2Frun%2Fpostgresql/db): libpq's socket file in it.
        folder = host or "/var/run/postgresql"
        return Address(f"{folder}/.s.PGSQL.{port}", port)
    return Address(host, port)


@dataclass
class Watch:
    """One thing to watch; ``healthy`` says whether all is well, ``away``/``back`` what to say."""

    healthy: Callable[[], bool]
    away: Callable[[], str]
    back: Callable[[], str]
    every: float = WATCH_EVERY
    ok: bool = True
    next_at: float = 0.0

    def tick(self, say: Callable[[str], None], now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if now < self.next_at:
            return
        self.next_at = now + self.every
        ok = self.healthy()
        if ok != self.ok:
            say(self.back() if ok else self.away())
        self.ok = ok


def _service_watch(
    name: str, variable: str, address: Address, probe: Callable[[Address], bool], meanwhile: str
) -> Watch:
    return Watch(
        healthy=lambda: probe(address),
        away=lambda: (
            f"WARNING: {name} at {address} ({variable}) is unreachable: {meanwhile} "
            f"This launcher does not run {name}: start it again (e.g. systemctl start {name.lower()})."
        ),
        back=lambda: f"{name} at {address} is back: the game carries on as before.",
    )


@dataclass
class DiskSpace:
    """The free space of the disk that holds var/ (the SQLite file, the cache, the job queue, the prints)."""

    folder: Path
    warn_bytes: int
    usage: Callable[[Path], Any] = field(default=shutil.disk_usage)
    free: int = 0

    def enough(self) -> bool:
        try:
            self.free = self.usage(self.folder).free
        except OSError:
            return True  # cannot tell: say nothing
        return self.free >= self.warn_bytes

    def low(self) -> str:
        return (
            f"WARNING: only {self.free // (1024 * 1024)} MB free on the disk of {self.folder}. "
            "Free space on the laptop now: with a full disk every change in the game (a referee's tap, "
            "a check-in) answers 503 'the game's disk is full' until space is freed."
        )

    def again(self) -> str:
        return f"Free disk space is back to {self.free // (1024 * 1024)} MB on the disk of {self.folder}."


def disk_watch(folder: Path, env: dict[str, str], usage: Callable[[Path], Any] = shutil.disk_usage) -> Watch:
    megabytes = DISK_WARN_MB
    with contextlib.suppress(ValueError):
        megabytes = max(0, int(env.get("SUMRAK_DISK_WARN_MB", str(DISK_WARN_MB))))
    space = DiskSpace(folder, megabytes * 1024 * 1024, usage)
    return Watch(healthy=space.enough, away=space.low, back=space.again, every=30.0)


def watches(var_dir: Path, env: dict[str, str]) -> list[Watch]:
    """What to watch for this environment: the services it names, and the disk of var/."""
    found: list[Watch] = []
    redis = redis_address(env.get("REDIS_URL", ""))
    if redis is not None:
        found.append(
            _service_watch(
                "Redis",
                "REDIS_URL",
                redis,
                redis_answers,
                "the pages answer from the database, timers wait for the sweeper (within 5 s of it coming back).",
            )
        )
    database = postgresql_address(env.get("DATABASE_URL", ""))
    if database is not None:
        found.append(
            _service_watch(
                "PostgreSQL",
                "DATABASE_URL",
                database,
                postgresql_answers,
                "every page answers 503 'the game's database is restarting' and retries by itself; "
                "the tablets keep their taps and send them when it is back.",
            )
        )
    found.append(disk_watch(var_dir, env))
    return found


def tick_all(found: Sequence[Watch], say: Callable[[str], None]) -> None:
    for watch in found:
        watch.tick(say)

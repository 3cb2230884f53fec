"""One warning per outage of a service the game leans on, not one per request (issue 26).

While Redis or PostgreSQL restarts, every request of every tablet finds it
away: a warning per request would bury the log in hundreds of identical
tracebacks, and a request that waits for the service each time would hold a
referee's tap for as long as the client's retries take. An ``Outage`` records
the first failure (one warning, with the error), lets the callers skip the
service for ``retry_seconds`` after each failure (they degrade at once:
a cache miss, a timer left to the sweeper), and logs once when it answers
again. The record is per process: with two gunicorn workers an outage is
logged by each worker that met it.
"""

from __future__ import annotations

import logging
import threading
import time

logger = logging.getLogger("sumrak.outage")


class Outage:
    def __init__(
        self, service: str, meanwhile: str, *, retry_seconds: float = 1.0, state: str = "is unreachable"
    ) -> None:
        self.service = service  # "the cache (Redis)": who is away
        self.meanwhile = meanwhile  # what the game does without it
        self.state = state  # what is wrong with it
        self.retry_seconds = retry_seconds
        self._lock = threading.Lock()
        self._since: float | None = None
        self._last_try = 0.0

    @property
    def down(self) -> bool:
        return self._since is not None

    def should_try(self) -> bool:
        """Whether to ask the service now: always while it answers, once per ``retry_seconds`` while away."""
        if self._since is None:
            return True
        with self._lock:
            now = time.monotonic()
            if now - self._last_try < self.retry_seconds:
                return False
            self._last_try = now
            return True

    def failed(self, error: BaseException) -> bool:
        """Record a failure; True (and the outage's one warning) if it starts an outage."""
        with self._lock:
            self._last_try = time.monotonic()
            if self._since is not None:
                return False
            self._since = self._last_try
        logger.warning("%s %s (%s): %s", self.service, self.state, error.__class__.__name__, self.meanwhile)
        return True

    def answered(self) -> bool:
        """Record a success; True (and one line) if it ends an outage."""
        if self._since is None:
            return False
        with self._lock:
            if self._since is None:
                return False
            lasted = time.monotonic() - self._since
            self._since = None
        back = "is back" if self.state == "is unreachable" else "takes writes again"
        logger.info("%s %s after %.1f s", self.service, back, lasted)
        return True


BROKER = Outage(
    "the job queue (Celery's broker)",
    "timers are not sent; the sweeper and every page load apply the deadlines",
    retry_seconds=2.0,
)
DATABASE = Outage("the database", "every page answers 503 and retries by itself; tablets keep their taps")
DISK = Outage("the disk", "changes answer 503 until space is freed; reads go on where they can", state="is full")

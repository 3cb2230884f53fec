"""A cache that is away is a miss, never an error (issue 26).

The cache (Redis on a server, files under ``var/cache`` on the embedded
default) only spares the database work: the live polls' versions, the cached
sessions. When Redis restarts, or the disk is full, Django's backends raise
on every call, and every page that used the cache answered 500 - a
referee's fight page and every big screen for the ten seconds of a Redis
restart. Here a read that fails is a miss (the database answers), a write
that fails is skipped, with one warning per outage (helpers/outage.py); for
``Outage.retry_seconds`` after a failure the cache is not even asked.

A write that could not be made leaves the old entry in a Redis that was only
unreachable (not restarted): a session logged out meanwhile, a fight's old
version. Such keys are remembered (up to ``MAX_FORGOTTEN``) and deleted as
soon as the cache answers again; any entry beyond that ends with its timeout.
``clear`` is never forgiven: on Redis the same database may hold the queues.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache.backends.base import DEFAULT_TIMEOUT, BaseCache
from django.core.cache.backends.filebased import FileBasedCache

from helpers.outage import Outage

T = TypeVar("T")
MAX_FORGOTTEN = 10_000


class _Shared:
    """What every backend of one cache location in this process shares: its outage and stale keys."""

    def __init__(self, service: str) -> None:
        self.outage = Outage(service, "pages answer from the database", retry_seconds=1.0)
        self.stale: dict[tuple[Any, int | None], None] = {}
        self.lock = threading.Lock()


_REGISTRY: dict[tuple[str, str], _Shared] = {}
_REGISTRY_LOCK = threading.Lock()


class ForgivingCache(BaseCache):
    # What a cache that is away raises; Redis adds its own errors (config/redis_cache.py).
    faults: tuple[type[BaseException], ...] = (OSError,)
    service = "the cache"

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        # The backend's own (server, params), next in the MRO; BaseCache alone takes only params.
        super().__init__(server, params)  # type: ignore[call-arg]
        # Django makes a backend per thread (a gunicorn worker's threads, the live server's requests):
        # one record per cache location in the process, so an outage is still logged once.
        with _REGISTRY_LOCK:
            shared = _REGISTRY.get((self.service, str(server)))
            if shared is None:
                shared = _REGISTRY[(self.service, str(server))] = _Shared(self.service)
        self.outage = shared.outage
        self._shared = shared

    @property
    def _stale(self) -> dict[tuple[Any, int | None], None]:
        return self._shared.stale

    @_stale.setter
    def _stale(self, value: dict[tuple[Any, int | None], None]) -> None:
        self._shared.stale = value

    @property
    def _stale_lock(self) -> threading.Lock:
        return self._shared.lock

    def _guarded(
        self, call: Callable[[], T], fallback: T, written: Iterable[Any] = (), version: int | None = None
    ) -> T:
        if not self.outage.should_try():
            self._remember(written, version)
            return fallback
        try:
            if self._stale:
                # Before this call: a write now must not be deleted as stale afterwards.
                self._delete_stale()
            result = call()
        except self.faults as error:
            self.outage.failed(error)
            self._remember(written, version)
            return fallback
        self.outage.answered()
        return result

    def _remember(self, keys: Iterable[Any], version: int | None) -> None:
        with self._stale_lock:
            for key in keys:
                if len(self._stale) >= MAX_FORGOTTEN:
                    return
                self._stale[(key, version)] = None

    def _delete_stale(self) -> None:
        with self._stale_lock:
            stale, self._stale = self._stale, {}
        by_version: dict[int | None, list[Any]] = {}
        for key, version in stale:
            by_version.setdefault(version, []).append(key)
        try:
            for version, keys in by_version.items():
                super().delete_many(keys, version=version)
        except self.faults:
            with self._stale_lock:
                self._stale = {**stale, **self._stale}
            raise

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._guarded(lambda: super(ForgivingCache, self).get(key, default, version), default)

    def get_many(self, keys: Iterable[Any], version: int | None = None) -> dict[Any, Any]:
        keys = list(keys)
        return self._guarded(lambda: super(ForgivingCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._guarded(lambda: super(ForgivingCache, self).has_key(key, version), False)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        self._guarded(lambda: super(ForgivingCache, self).set(key, value, timeout, version), None, [key], version)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        # A failed add stored nothing; whatever the key held was not this read's to replace.
        return self._guarded(lambda: super(ForgivingCache, self).add(key, value, timeout, version), False)

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        return self._guarded(lambda: super(ForgivingCache, self).touch(key, timeout, version), False)

    def set_many(self, data: dict[Any, Any], timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[Any]:
        keys = list(data)
        return self._guarded(lambda: super(ForgivingCache, self).set_many(data, timeout, version), keys, keys, version)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._guarded(lambda: super(ForgivingCache, self).delete(key, version), False, [key], version)

    def delete_many(self, keys: Iterable[Any], version: int | None = None) -> None:
        keys = list(keys)
        self._guarded(lambda: super(ForgivingCache, self).delete_many(keys, version), None, keys, version)


class FileCache(ForgivingCache, FileBasedCache):
    """The embedded default's cache under ``var/cache``: a full disk makes it a miss, not a 500 (issue 27)."""

    service = "the cache folder (var/cache)"

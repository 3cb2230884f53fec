"""Django's Redis cache with one redis-py client per connection pool, made once.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for
every cache call. The pool behind it is kept, but building the client
(redis-py 8 fills a table of ~170 reply callbacks each time) cost more CPU
than the round trip itself: ~300 µs of a 670 µs spectator poll
(bench/cost.py). A ``redis.Redis`` is safe to share between threads - each
command takes a connection from the pool - so one per pool is kept.

A Redis that is away (restarting, unreachable) is a cache miss, not an error
(config/forgiving_cache.py, issue 26).
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from redis.exceptions import RedisError

from config.forgiving_cache import ForgivingCache


class RedisCacheClient(DjangoRedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        # Django's private attributes, which django-stubs does not declare.
        base: Any = self
        index = base._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            if index not in base._pools:
                base._pools[index] = base._pool_class.from_url(base._servers[index], **base._pool_options)
            client = self._clients[index] = base._client(connection_pool=base._pools[index])
        return client


class RedisCache(ForgivingCache, DjangoRedisCache):
    faults = (RedisError, OSError)
    service = "the cache (Redis)"

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    def redis_client(self) -> Any:
        """The redis-py client itself: the secret links' atomic marks (events/link_cache.py)."""
        return self._cache.get_client(write=True)

    def decode(self, raw: bytes) -> Any:
        """A value read by ``redis_client`` as ``get`` would return it."""
        client: Any = self._cache  # Django's private attribute, which django-stubs does not declare
        return client._serializer.loads(raw)

"""The brokers: kombu's filesystem transport with messages written atomically (embedded), and Redis.

kombu's own filesystem channel creates a message file under its final name and
then writes it; a worker polling the folder can take the file in between and
read it empty, which kills the worker ("Unrecoverable error: JSONDecodeError").
Beat sends the sweeper every few seconds, so on the embedded default this
happened within minutes. Here a message is written under a name the reader
ignores and renamed into place when complete (a rename is atomic on one
filesystem), so a reader sees a whole message or none.

On Redis (the services deployment), kombu's channel builds a new redis-py
client for every message it publishes (``conn_or_acquire``): a timer sent by
a step spent ~1 % of the step's CPU on the client's construction alone (its
table of response callbacks, docs/performance.md). ``RedisTransport``'s
channel keeps one client over its connection pool; a redis-py client is
safe to share between threads, and a channel revived after an outage is a
new channel with a new client.
"""

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cached_property
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem, redis
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    # kombu's filesystem channel itself widens AbstractChannel._put (kombu-stubs mark that override
    # ignored too); this keeps the filesystem channel's signature exactly.
    def _put(self, queue: str, payload: dict[str, Any], **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        # A leading dot: the reader's queue filter (the part after the first dot) never matches it.
        partial = os.path.join(self.data_folder_out, f".{name}.partial")
        final = os.path.join(self.data_folder_out, name)
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
                f.flush()
                os.fsync(f.fileno())
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel


class RedisChannel(redis.Channel):
    @cached_property
    def _publisher(self) -> Any:
        # The synchronous pool's client, as kombu's own conn_or_acquire makes one; never the event loop's.
        return self._create_client()  # type: ignore[attr-defined]

    @contextmanager
    def conn_or_acquire(self, client: Any = None) -> Iterator[Any]:
        yield client or self._publisher


class RedisTransport(redis.Transport):
    Channel = RedisChannel

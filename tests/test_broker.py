"""The embedded broker (config/broker.py): a worker never reads half a message."""

import os
from queue import Empty
from typing import Any

import pytest
from kombu import Connection

from tests.resilience.servers import OwnRedis


@pytest.fixture
def channel(tmp_path):
    folder = tmp_path / "broker"
    folder.mkdir()
    options = {"data_folder_in": str(folder), "data_folder_out": str(folder), "control_folder": str(tmp_path / "ctl")}
    with Connection("filesystem://localhost//", transport="config.broker:Transport", transport_options=options) as c:
        yield c.default_channel


def test_a_message_being_written_is_invisible_to_the_reader(channel, monkeypatch):
    seen_while_writing = []

    def fsync(fd):
        # The bytes are written but not yet renamed into place: a polling worker must see nothing.
        with pytest.raises(Empty):
            channel._get("celery")
        seen_while_writing.append(fd)

    monkeypatch.setattr(os, "fsync", fsync)  # the one config.broker calls
    channel._put("celery", {"body": "sweep"})
    assert seen_while_writing, "the write went through fsync"
    assert channel._get("celery") == {"body": "sweep"}
    with pytest.raises(Empty):
        channel._get("celery")


def test_the_redis_channel_publishes_every_message_through_one_client(monkeypatch, tmp_path, request):
    """config.broker.RedisTransport: one redis-py client per channel, not one per message (issue 24)."""
    url = os.environ.get("REDIS_URL", "")
    if not url.startswith("redis"):  # the embedded run: a Redis of the test's own
        server = OwnRedis(tmp_path)
        server.start()
        request.addfinalizer(server.stop)
        url = server.url
    with Connection(url, transport="config.broker:RedisTransport") as connection:
        channel: Any = connection.default_channel  # kombu's Redis channel, beyond the stubs' StdChannel
        queue = f"sumrak-test-{os.getpid()}"
        channel.client.delete(queue)
        made: list[tuple[Any, ...]] = []
        create = channel._create_client

        def counted(*args: Any, **kwargs: Any) -> Any:
            made.append(args)
            return create(*args, **kwargs)

        monkeypatch.setattr(channel, "_create_client", counted)
        for n in range(3):
            channel._put(queue, {"body": f"timer {n}"})
        assert len(made) <= 1, made
        assert [channel._get(queue)["body"] for _ in range(3)] == ["timer 0", "timer 1", "timer 2"]
        with pytest.raises(Empty):
            channel._get(queue)

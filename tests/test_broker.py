"""The embedded broker (config/broker.py): a worker never reads half a message."""

import os
from queue import Empty

import pytest
from kombu import Connection


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

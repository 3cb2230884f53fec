"""A full disk answers 503 in the app's layout, and the pages that only read keep working (issue 27).

On the embedded default a full disk turned every page, reads included, into a bare 500. Here the
database layer is made to fail every write as a full disk does - ``OSError(ENOSPC)``, or SQLite's
own "database or disk is full" (SQLITE_FULL) - while reads go through. The file cache and the
filesystem broker meet a full disk too (tests/resilience/test_cache_faults.py for the cache).
"""

from __future__ import annotations

import datetime as dt
import errno
import logging
import os
import sqlite3

import pytest
import time_machine
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from duels.models import LogEntry, Situation
from duels.services import store
from events.models import Character
from helpers.outage import BROKER, DISK
from tests.resilience.servers import filesystem_broker
from tests.services.kit import nonce

# No test transaction around the requests: as in production, a failed write outside a view's atomic
# block (the session, the last login) must not poison what the test reads afterwards.
pytestmark = pytest.mark.django_db(transaction=True)
HX = {"HX-Request": "true"}
WRITES = ("INSERT", "UPDATE", "DELETE", "REPLACE")


def _enospc() -> Exception:
    return OSError(errno.ENOSPC, "No space left on device")


def _sqlite_full() -> Exception:
    cause = sqlite3.OperationalError("database or disk is full")
    cause.sqlite_errorname = "SQLITE_FULL"
    try:
        raise OperationalError("database or disk is full") from cause
    except OperationalError as error:
        return error


@pytest.fixture(params=[_enospc, _sqlite_full], ids=["ENOSPC", "SQLITE_FULL"])
def disk_full(request, monkeypatch):
    """``with disk_full():`` every write statement of this thread fails as on a full disk."""
    monkeypatch.setattr(DISK, "_since", None)
    make = request.param

    def refuse_writes(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(WRITES):
            raise make()
        return execute(sql, params, many, context)

    return lambda: connection.execute_wrapper(refuse_writes)


def _client(user=None) -> Client:
    client = Client(raise_request_exception=False, headers={"accept-language": "en"})
    if user is not None:
        client.force_login(user)
    return client


def _assert_disk_full(response) -> None:
    assert response.status_code == 503
    assert response["X-Sumrak-Unavailable"] == "disk"
    html = response.content.decode()
    assert "The game's disk is full — free space on the laptop." in html
    assert 'id="unavailable"' in html and 'class="navbar' in html


def test_a_change_answers_503_and_changes_nothing_while_reads_keep_working(
    disk_full, running, referee, organizer, character, rival, event, caplog
):
    caplog.set_level(logging.INFO, logger="sumrak.outage")
    referee_client, organizer_client, anonymous = _client(referee), _client(organizer), _client()
    running.refresh_from_db()
    version, entries = running.version, LogEntry.objects.count()
    reads = [
        (referee_client, reverse("duels:situation", args=[running.pk]), {}),
        (referee_client, reverse("duels:situation", args=[running.pk]), HX),
        (referee_client, reverse("duels:referee-home", args=[event.pk]), {}),
        (anonymous, reverse("duels:watch", args=[running.pk]), {}),
        (anonymous, reverse("duels:watch", args=[running.pk]), HX),
        (anonymous, reverse("duels:player-live-token", args=[character.link_token]), HX),
        (organizer_client, reverse("events:check-in", args=[event.pk]), {}),
        (organizer_client, reverse("events:characters", args=[event.pk]), {}),
    ]
    with disk_full():
        for client, url, headers in reads:
            response = client.get(url, headers=headers)
            assert response.status_code == 200, url
        tap = {"version": version, "nonce": nonce(), "action": "answer", "duel": 0, "fighter": rival.pk, "card": ""}
        _assert_disk_full(referee_client.post(reverse("duels:act", args=[running.pk]), tap, headers=HX))
        check_in = reverse("events:check-in-set", args=[character.pk])
        _assert_disk_full(organizer_client.post(check_in, {"arrived": "1"}, headers=HX))
        login = {"username": "referee", "password": "pass-referee"}
        _assert_disk_full(anonymous.post(reverse("login"), login))
    running.refresh_from_db()
    assert (running.version, LogEntry.objects.count()) == (version, entries)
    assert not Character.objects.get(pk=character.pk).arrived
    outage = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "sumrak.outage"]
    assert len(outage) == 1 and outage[0][0] == "WARNING"  # one for the outage, not one per request
    assert outage[0][1].startswith("the disk is full (")
    assert outage[0][1].endswith("changes answer 503 until space is freed; reads go on where they can")

    # Space freed: the next change goes through and the outage's end is logged; the tap, sent again, too.
    assert referee_client.post(reverse("duels:act", args=[running.pk]), tap, headers=HX).status_code == 200
    assert LogEntry.objects.filter(nonce=tap["nonce"]).count() == 1
    response = organizer_client.post(check_in, {"arrived": "1"}, headers=HX)
    assert response.status_code == 200
    assert Character.objects.get(pk=character.pk).arrived
    assert not DISK.down
    assert [r.levelname for r in caplog.records if r.name == "sumrak.outage"] == ["WARNING", "INFO"]


def test_the_disk_full_page_speaks_russian(disk_full, organizer, character):
    client = _client(organizer)
    client.cookies["django_language"] = "ru"
    with disk_full():
        response = client.post(reverse("events:check-in-set", args=[character.pk]), {"arrived": "1"}, headers=HX)
    assert response.status_code == 503
    assert "Диск игры заполнен — освободите место на ноутбуке." in response.content.decode()


@pytest.mark.real_timers
def test_a_timer_the_full_disk_cannot_queue_is_left_to_the_sweeper(
    tmp_path, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    """The embedded broker writes each message to var/celery-broker: a full disk must not fail the tap."""
    monkeypatch.setattr(BROKER, "_since", None)

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with filesystem_broker(tmp_path / "broker"):
        monkeypatch.setattr(os, "fsync", full)
        with django_capture_on_commit_callbacks(execute=True):
            store.schedule_expiry(1, timezone.now() + dt.timedelta(seconds=15))
    assert BROKER.down
    assert [r.levelname for r in caplog.records if r.name == "sumrak.outage"] == ["WARNING"]
    assert not list((tmp_path / "broker").glob("*.msg"))


def test_a_fight_with_an_overdue_deadline_that_cannot_be_written_is_a_503_not_a_500(disk_full, shown, referee):
    """A read that must apply a deadline is a write: the 503 page, and the deadline waits (D8)."""
    client = _client(referee)
    version = Situation.objects.get(pk=shown.pk).version
    with time_machine.travel(timezone.now() + dt.timedelta(minutes=5)), disk_full():
        _assert_disk_full(client.get(reverse("duels:situation", args=[shown.pk])))
    assert Situation.objects.get(pk=shown.pk).version == version

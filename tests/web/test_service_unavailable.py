"""A database that is away is a 503 page in the app's layout and language, drawn without it (issue 26).

The database is made unreachable inside the process: every new cursor raises what Django raises
for a PostgreSQL that refuses connections (``OperationalError`` from psycopg's, no SQLSTATE). If
the page or any middleware touched the database, the request would fail again and answer 500.
The real outage (a proxy the test cuts in front of PostgreSQL, a live fight of each kind) is
tests/browser/test_service_outages.py.
"""

from __future__ import annotations

import errno
import logging
import sqlite3

import psycopg
import psycopg.errors
import pytest
from django.db import IntegrityError, OperationalError
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.utils import InterfaceError
from django.test import Client
from django.urls import reverse

from config.unavailable import classify
from helpers.outage import DATABASE
from tests.services.kit import nonce

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def _from(cause: BaseException, wrapper: type[Exception] = OperationalError) -> Exception:
    try:
        raise wrapper(str(cause)) from cause
    except Exception as wrapped:
        return wrapped


def _sqlite(name: str) -> sqlite3.OperationalError:
    error = sqlite3.OperationalError("database or disk is full" if name == "SQLITE_FULL" else "database is locked")
    error.sqlite_errorname = name
    return error


@pytest.mark.parametrize(
    ("error", "kind"),
    [
        (_from(psycopg.OperationalError("connection refused")), "database"),
        (_from(psycopg.errors.AdminShutdown("terminating connection")), "database"),
        (_from(psycopg.errors.lookup("08006")("connection failure")), "database"),
        (InterfaceError("connection already closed"), "database"),
        (_from(_sqlite("SQLITE_BUSY")), "database"),
        (_from(psycopg.errors.DiskFull("could not extend file")), "disk"),
        (_from(_sqlite("SQLITE_FULL")), "disk"),
        (OSError(errno.ENOSPC, "No space left on device"), "disk"),
        (_from(OSError(errno.ENOSPC, "No space left on device")), "disk"),
        (_from(sqlite3.OperationalError("no such table: duels_situation")), None),
        (_from(psycopg.errors.UndefinedTable("relation does not exist")), None),
        (_from(psycopg.errors.UniqueViolation("duplicate key"), IntegrityError), None),
        (OSError(errno.EACCES, "Permission denied"), None),
        (ValueError("a bug"), None),
    ],
)
def test_only_a_service_that_is_away_is_unavailable_a_bug_stays_a_500(error, kind):
    assert classify(error) == kind


def _refuse(self) -> None:
    raise OperationalError("connection refused") from psycopg.OperationalError("connection refused")


@pytest.fixture
def database_away(monkeypatch):
    """``database_away()``: from then on every cursor of this process fails as a refused PostgreSQL
    connection does."""
    monkeypatch.setattr(DATABASE, "_since", None)
    return lambda: monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", _refuse)


def _client(user=None, language: str = "en") -> Client:
    # Django's test client re-raises an error a handler500 answered; the browser would see the page.
    client = Client(raise_request_exception=False, headers={"accept-language": language})
    if user is not None:
        client.force_login(user)
    return client


def _assert_the_page(response, *, htmx: bool = False) -> None:
    assert response.status_code == 503
    assert response["X-Sumrak-Unavailable"] == "database"
    assert response["Retry-After"] == "2"
    html = response.content.decode()
    assert 'id="unavailable"' in html and 'class="navbar' in html  # the app's layout
    assert "The game's database is restarting; this page retries by itself." in html
    assert "js/sumrak.js" in html  # the script that retries it


def test_every_page_of_a_running_fight_is_a_503_page_while_the_database_is_away(
    database_away, running, referee, character, organizer, event, caplog
):
    caplog.set_level(logging.INFO, logger="sumrak.outage")
    referee_client, organizer_client, anonymous = _client(referee), _client(organizer), _client()
    running.refresh_from_db()
    version = running.version
    database_away()
    pages = [
        (referee_client, reverse("duels:situation", args=[running.pk]), {}),
        (referee_client, reverse("duels:situation", args=[running.pk]), HX),
        (referee_client, reverse("duels:referee-home", args=[event.pk]), {}),
        (anonymous, reverse("duels:watch", args=[running.pk]), HX),
        (anonymous, reverse("duels:watch", args=[running.pk]), {}),
        (anonymous, reverse("duels:player-live-token", args=[character.link_token]), HX),
        (anonymous, reverse("events:character-link", args=[character.link_token]), {}),
        (organizer_client, reverse("events:check-in", args=[event.pk]), {}),
        (anonymous, reverse("home"), {}),
    ]
    for client, url, headers in pages:
        _assert_the_page(client.get(url, headers=headers))
    # A page that needs no database is still itself.
    assert anonymous.get(reverse("login")).status_code == 200
    # A referee's tap: not applied (nothing can be), the same page, which the tablet keeps the tap for.
    payload = {"version": version, "nonce": nonce(), "action": "confirm", "duel": 0}
    _assert_the_page(referee_client.post(reverse("duels:act", args=[running.pk]), payload, headers=HX))
    assert [r.levelname for r in caplog.records if r.name == "sumrak.outage"] == ["WARNING"]
    assert not [r for r in caplog.records if r.name == "django.request"]  # no "Internal Server Error" per request


def test_the_503_page_speaks_russian(database_away, referee, running):
    client = _client(referee, language="ru")
    database_away()
    response = client.get(reverse("duels:situation", args=[running.pk]))
    assert response.status_code == 503
    assert "База данных игры перезапускается; страница повторит попытку сама." in response.content.decode()
    assert '<html lang="ru">' in response.content.decode()


def test_the_outage_ends_with_the_first_request_that_reaches_the_database(running, referee, monkeypatch, caplog):
    caplog.set_level(logging.INFO, logger="sumrak.outage")
    monkeypatch.setattr(DATABASE, "_since", None)
    client = _client(referee)
    url = reverse("duels:situation", args=[running.pk])
    real = BaseDatabaseWrapper.ensure_connection
    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", _refuse)
    for _ in range(3):
        assert client.get(url).status_code == 503
    assert DATABASE.down
    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", real)
    assert client.get(url).status_code == 200
    assert not DATABASE.down
    lines = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "sumrak.outage"]
    assert [level for level, _ in lines] == ["WARNING", "INFO"]
    assert "the database is back after" in lines[1][1]


def test_any_other_error_is_still_a_500(running, referee, monkeypatch):
    """The 503 page is for a service that is away, never a cover for a bug."""

    def broken(*args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(BaseDatabaseWrapper, "ensure_connection", broken)
    response = _client().get(reverse("home"))
    assert response.status_code == 500
    assert "X-Sumrak-Unavailable" not in response


def test_with_debug_on_a_views_database_error_is_the_503_page_too(database_away, referee, running, settings):
    """The local mode (start.sh without --lan) runs with DEBUG on, where Django skips handler500."""
    client = _client(referee)
    settings.DEBUG = True
    database_away()
    _assert_the_page(client.get(reverse("duels:situation", args=[running.pk])))

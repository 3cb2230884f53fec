"""The one "service unavailable" path: a database that is away or a disk that is full is a 503 page.

While PostgreSQL restarts (issue 26), or the laptop's disk is full on the
embedded SQLite (issue 27), every request that needs the database failed with
Django's bare "Server Error (500)". Here such an error becomes a 503 in the
app's layout and the user's language, saying what is wrong and that the page
retries by itself (static/js/sumrak.js: a full page probes its address every
second and reloads once it answers; a live fragment keeps its last state
under a "reconnecting" badge; a tap is kept and sent again, with its nonce).

Two ways in, one answer:

- ``ServiceUnavailableMiddleware.process_exception``: an error raised in a view;
- ``server_error`` (``handler500``): an error raised anywhere else (a
  middleware's own read, the session's save after the view). Django calls it
  inside its ``except`` block, so the error is still ``sys.exc_info()``.
  With DEBUG on, Django shows its debug page there instead (views still
  get the 503).

The page renders without the database: no user, no session, no messages
(the context processors' ``user`` and ``messages`` are overridden), so it can
be drawn while the database is away. The outage is logged once
(helpers/outage.py), not once per request.
"""

from __future__ import annotations

import errno
import sys
from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db import connections
from django.db.utils import InterfaceError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.template.loader import render_to_string

from helpers.outage import DATABASE, DISK

DATABASE_AWAY = "database"
DISK_FULL = "disk"
# The header sumrak.js reads to tell the two apart, and how soon to ask again.
HEADER = "X-Sumrak-Unavailable"
RETRY_AFTER_SECONDS = 2
_CHAIN_DEPTH = 8

# PostgreSQL's SQLSTATEs: class 08 (connection exception), the server shutting down or starting
# (57P01-57P03), too many connections (53300); 53100 is disk_full.
_PG_AWAY = ("08", "57P01", "57P02", "57P03", "53300")
_PG_DISK = ("53100",)
# SQLite's error names (Python 3.11+ puts them on sqlite3's exceptions). A lock held past the
# 20 s timeout is the same for a tablet: the database cannot answer now; try again shortly.
_SQLITE_DISK = ("SQLITE_FULL",)
_SQLITE_AWAY = ("SQLITE_BUSY", "SQLITE_LOCKED")
_DISK_ERRNOS = (errno.ENOSPC, errno.EDQUOT)


def _chain(error: BaseException) -> list[BaseException]:
    found: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in found and len(found) < _CHAIN_DEPTH:
        found.append(current)
        current = current.__cause__ or current.__context__
    return found


def _connection_failure(error: BaseException) -> bool:
    """psycopg's OperationalError without a SQLSTATE: the server could not be reached or went away."""
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is in requirements.txt
        return False
    return isinstance(error, psycopg.OperationalError) and getattr(error, "sqlstate", None) is None


def classify(error: BaseException) -> str | None:
    """``"disk"``, ``"database"``, or None for an error that is not a service being away."""
    chain = _chain(error)
    for found in chain:
        if isinstance(found, OSError) and found.errno in _DISK_ERRNOS:
            return DISK_FULL
        if str(getattr(found, "sqlstate", None) or "").startswith(_PG_DISK):
            return DISK_FULL
        if getattr(found, "sqlite_errorname", None) in _SQLITE_DISK:
            return DISK_FULL
    for found in chain:
        if isinstance(found, InterfaceError) or _connection_failure(found):
            return DATABASE_AWAY
        if str(getattr(found, "sqlstate", None) or "").startswith(_PG_AWAY):
            return DATABASE_AWAY
        if getattr(found, "sqlite_errorname", None) in _SQLITE_AWAY:
            return DATABASE_AWAY
    return None


def unavailable(request: HttpRequest, kind: str, error: BaseException) -> HttpResponse:
    """The 503 page for ``kind``; the outage's one warning on its first request."""
    (DISK if kind == DISK_FULL else DATABASE).failed(error)
    context: dict[str, object] = {
        "kind": kind,
        "retry_method": request.method,
        # Drawn without the database: these replace what the context processors would look up.
        "user": AnonymousUser(),
        "messages": [],
    }
    page = render_to_string("unavailable.html", context, request=request)
    response = HttpResponse(page, status=503)
    response[HEADER] = kind
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    # Counted once in the outage's warning, not as an "Internal Server Error" line per request.
    response._has_been_logged = True  # type: ignore[attr-defined]
    return response


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """``handler500``: the 503 page for a service that is away, else the app's 500 page (config/errors.py)."""
    from config.errors import server_error as app_server_error

    error = sys.exc_info()[1]
    kind = classify(error) if error is not None else None
    if error is not None and kind is not None:
        return unavailable(request, kind, error)
    return app_server_error(request)


class ServiceUnavailableMiddleware:
    """First in MIDDLEWARE: views' errors of a service that is away become the 503 page.

    It also ends an outage's record when the service answers again: the
    database when a statement of a request went through (watched only while
    it is away), the disk when a change (a POST) went through.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not DATABASE.down:
            response = self.get_response(request)
        else:
            reached: list[bool] = []

            def watch(execute: Any, sql: Any, params: Any, many: Any, context: Any) -> Any:
                result = execute(sql, params, many, context)
                reached.append(True)
                return result

            with connections["default"].execute_wrapper(watch):
                response = self.get_response(request)
            if reached:
                DATABASE.answered()
        if DISK.down and request.method == "POST" and response.status_code < 500:
            DISK.answered()
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        kind = classify(exception)
        return None if kind is None else unavailable(request, kind, exception)

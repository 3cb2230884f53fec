"""An unchanged live poll answered before most of the middleware (issue 8).

A spectator's or a secret-link player's poll every 2 s mostly finds nothing
changed. The full path for its 304 runs a dozen middleware that do nothing
for it (sessions, CSRF, auth, messages, htmx, axes are never touched) and
three that only add constant headers (locale, clickjacking, CSP). This
middleware, placed right after WhiteNoise, recognises the poll URLs,
makes the view's own reads (``duels.web.polls``: the cached meta; for a
link, the link checked in the database first) and, if the poll's ETag is the
current one, answers the very 304 the full path would: the live headers,
``Content-Language``, ``Content-Length: 0``, ``X-Frame-Options`` and the CSP
(SecurityMiddleware, before it, adds its own headers to either).

Anything it is unsure of goes the full way: not a GET htmx poll with an
ETag, a host Django refuses, a body, a cookie the session or CSRF middleware
would rewrite, a changed version. What it read then travels on the request,
so the view does not read it again. tests/web/test_poll_shortcut.py compares
its answers with the full path's.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.core.exceptions import MiddlewareNotUsed
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
from django.utils import timezone, translation
from django.utils.csp import CSP, build_policy
from django.utils.http import parse_etags

from duels.services.live import Meta
from duels.web.live import cached_pieces, fill, live_headers, needs_csrf_token
from duels.web.pages import refused
from duels.web.polls import (
    PLAYER_FRAGMENT,
    SEEN,
    Seen,
    cached_meta,
    link_poll,
    link_poll_cached,
    player_etag,
    spectator_etag,
    watch_fragment,
)
from helpers.csrf import mask

# duels/urls.py's spectators' pages (duels:watch, every kind; duels:mass-watch) and a player's link.
WATCH = re.compile(r"/watch/([0-9]+)/\Z")
MASS_WATCH = re.compile(r"/mass/([0-9]+)/watch/\Z")
LINK = re.compile(r"/c/([^/]+)/live/\Z")
# Where every poll this answers begins (a cheap first test for every other request).
POLL_PREFIXES = ("/watch/", "/mass/", "/c/")
_CSRF_CHARS = frozenset(CSRF_ALLOWED_CHARS)


def _plain(request: HttpRequest) -> bool:
    """Whether the skipped middleware would do nothing but add their constant headers."""
    meta = request.META
    if meta.get("CONTENT_LENGTH") not in (None, "", "0"):
        return False
    try:
        request.get_host()  # CommonMiddleware's check (a 400 for a host not allowed)
    except Exception:
        return False
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if session is not None and len(session) < 8:
        return False  # SessionMiddleware would delete the cookie
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME)
    # CsrfViewMiddleware would set a new cookie for a malformed one (a 64-character masked one is left alone).
    return csrf is None or (len(csrf) == CSRF_SECRET_LENGTH and set(csrf) <= _CSRF_CHARS)


class UnchangedPollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if (
            settings.CSRF_USE_SESSIONS
            or settings.SESSION_SAVE_EVERY_REQUEST
            or settings.PREPEND_WWW
            or settings.DISALLOWED_USER_AGENTS
        ):
            raise MiddlewareNotUsed  # the skipped middleware would then do more than add headers
        self.get_response = get_response
        self.headers: dict[str, str] = {}
        if settings.X_FRAME_OPTIONS:
            self.headers["X-Frame-Options"] = settings.X_FRAME_OPTIONS.upper()
        for header, config in (
            (CSP.HEADER_ENFORCE, settings.SECURE_CSP),
            (CSP.HEADER_REPORT_ONLY, settings.SECURE_CSP_REPORT_ONLY),
        ):
            if config:
                self.headers[str(header)] = build_policy(config)  # type: ignore[arg-type]

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.answer(request) or self.get_response(request)

    def answer(self, request: HttpRequest) -> HttpResponse | None:
        meta = request.META
        if request.method != "GET" or meta.get("HTTP_HX_REQUEST") != "true" or not meta.get("HTTP_IF_NONE_MATCH"):
            return None
        path = request.path_info
        if SEEN in meta or not path.startswith(POLL_PREFIXES) or not _plain(request):
            return None  # SEEN: the early path (config/early.py) read it all already and did not answer
        # As LocaleMiddleware decides (no i18n_patterns: cookie, Accept-Language, default).
        translation.activate(translation.get_language_from_request(request))
        request.LANGUAGE_CODE = translation.get_language()
        etag = unchanged_etag(meta, path)
        if etag is None:
            return None
        response = live_headers(HttpResponseNotModified(), etag)
        response["Content-Language"] = request.LANGUAGE_CODE
        response["Content-Length"] = "0"
        for name, value in self.headers.items():
            response[name] = value
        return response


@dataclass(frozen=True)
class Current:
    """A poll's current answer as the cache knows it: its ETag and the fragment cached under it."""

    etag: str
    fragment: str  # the template's name, as duels.web.live caches it


def unchanged_etag(meta: dict[str, Any], path: str, *, cache_only: bool = False) -> str | None:
    """The ETag of an unchanged poll of ``path`` that its If-None-Match names, else None (see ``current``)."""
    found = current(meta, path, cache_only=cache_only)
    if found is None or not unchanged(meta, found):
        return None
    return found.etag


def unchanged(meta: dict[str, Any], found: Current) -> bool:
    """Whether the poll's If-None-Match names the current ETag (a 304)."""
    return found.etag in parse_etags(meta.get("HTTP_IF_NONE_MATCH", ""))


def current(meta: dict[str, Any], path: str, *, cache_only: bool = False) -> Current | None:
    """A poll of ``path``'s current ETag and fragment, from the cache, if the view would answer from them.

    ``meta``: the request's environ (``request.META``), its language active.
    The view's own reads; what was read is kept in ``meta`` for the view
    (``polls.SEEN``), so a poll not answered here is not read twice. Shared
    by the middleware above and the WSGI early path (config/early.py, with
    ``cache_only``: a link whose answer is not cached goes the full way, its
    database read inside Django's request cycle), so the two answer alike.
    None when the view would read the database first: a fight not in the
    cache, due, ended (a player's), or of a kind its URL does not stand for.
    """
    watch = _watched(path)
    link = LINK.match(path) if watch is None and path.startswith("/c/") else None
    if watch is not None:
        situation_id, url_name = watch
        found = cached_meta(situation_id)
        meta[SEEN] = Seen(str(situation_id), 0, found)
        # As the view: an entry cached before the kind was kept goes the full way.
        if found is None or not found.kind or found.is_due(timezone.now()) or refused(found.kind, url_name):
            return None
        return Current(spectator_etag(found), watch_fragment(found.kind))
    if link is not None and "\x00" not in (token := link.group(1)):
        seen = link_poll_cached(token) if cache_only else link_poll(token)
        if seen is None:
            return None
        meta[SEEN] = seen
        active = seen.cached
        if not isinstance(active, Meta) or active.ended or active.is_due(timezone.now()):
            return None
        return Current(player_etag(active, seen.character_id, token), PLAYER_FRAGMENT)
    return None


def cached_body(meta: dict[str, Any], found: Current, csrf_secret: str | None) -> tuple[bytes, bool] | None:
    """A changed poll's answer from the fragment another viewer had rendered: its body, and whether it holds
    the CSRF token (masked afresh from ``csrf_secret``, the cookie's; the cookie is then renewed, as Django's
    ``get_token`` has it). None when the view must answer: the fragment is not cached (``Seen.missed`` tells
    the view so), or it has forms and no cookie carries a secret yet (Django makes one and its cookie)."""
    pieces = cached_pieces(found.fragment, found.etag)
    if pieces is None:
        seen = meta.get(SEEN)
        if isinstance(seen, Seen):
            meta[SEEN] = replace(seen, missed=found.etag)
        return None
    if not needs_csrf_token(pieces):
        return fill(pieces, str), False
    if csrf_secret is None:
        return None
    return fill(pieces, lambda: mask(csrf_secret)), True


def _watched(path: str) -> tuple[int, str] | None:
    """The situation a spectators' poll URL names, and the URL's name."""
    if path.startswith("/watch/"):
        match = WATCH.match(path)
        return None if match is None else (int(match.group(1)), "duels:watch")
    if path.startswith("/mass/"):
        match = MASS_WATCH.match(path)
        return None if match is None else (int(match.group(1)), "duels:mass-watch")
    return None

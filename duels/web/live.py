"""What the fight pages share: access, errors in the user's language, live responses.

Live fragments are polled every 2 s. Their ETag is computed from what can
change them - the situation's version, its pending deadline, who looks, the
language - before anything is rendered, so an unchanged fight costs a 304.
The poll itself sends the ETag its fragment shows (sumrak.js), because no
browser may keep a fragment: the referee's and the player's show a hand (D4).
"""

from __future__ import annotations

import binascii
import hashlib
import os
import re
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.http import http_date, parse_etags
from django.utils.translation import get_language

from duels.models import Situation
from duels.services.live import Meta
from duels.web.viewers import Viewer, iso
from helpers.csrf import get_token
from helpers.requests import HtmxRequest


def new_nonce() -> str:
    """A fresh one-time token for each rendered form (templates call it once per form)."""
    return uuid.uuid4().hex


def situation_etag(situation: Situation | Meta, viewer: Viewer, variant: str) -> str:
    # The countdowns are drawn client-side from the deadline, so the fragment
    # changes only with the version (or the deadline/end that refresh writes).
    parts = [
        variant,
        situation.id,
        situation.version,
        situation.ended,
        iso(situation.next_deadline),
        viewer.etag_part,
        get_language(),
    ]
    return quoted_hash(":".join(str(p) for p in parts))


def polled(request: HtmxRequest) -> bool:
    """A poll that may be answered 304: read the version columns first, the state only if it changed."""
    return bool(request.htmx and request.headers.get("If-None-Match"))


def quoted_hash(text: str) -> str:
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def not_modified(request: HttpRequest, etag: str) -> HttpResponse | None:
    """A 304 for a poll whose ETag is unchanged (htmx swaps nothing then; see sumrak.js)."""
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        return live_headers(HttpResponseNotModified(), etag)
    return None


NEVER_STORED = "max-age=0, no-cache, no-store, must-revalidate, private"
LIVE_VARY = "HX-Request, Cookie, Accept-Language"


def live_headers(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    # Never stored, so never shown stale and never left with a hand on a
    # shared tablet or phone (D4); the poll asks for a 304 itself.
    if "Cache-Control" in response or "Vary" in response:
        add_never_cache_headers(response)
        patch_vary_headers(response, LIVE_VARY.split(", "))
    else:
        # What the two calls above write on a fresh response, without parsing anything (every poll).
        response["Expires"] = http_date()
        response["Cache-Control"] = NEVER_STORED
        response["Vary"] = LIVE_VARY
    return response


def render_live(
    request: HttpRequest, template: str, context: dict[str, Any], etag: str, status: int = 200
) -> HttpResponse:
    context = {**context, "etag": etag, "server_now": iso(timezone.now()), "new_nonce": new_nonce}
    return live_headers(render(request, template, context, status=status), etag)


# --- rendered fragments, shared -----------------------------------------------------------------
#
# A live fragment depends only on what its ETag encodes - the situation, its
# version, deadline and end, who looks (referee, spectator, or which player)
# and the language - so every viewer of the same role and version gets the
# same HTML: it is rendered once and kept in the cache under its ETag. The
# few parts that must differ per response are rendered as marks and filled in
# for each response: the server's clock (countdowns), the CSRF token and a
# fresh nonce for every form (a shared nonce would make one referee's tap a
# "repeat" of another's). The marks derive from SECRET_KEY, so no card name
# or reason typed by a user can contain one.

FRAGMENT_TTL = 300
_MARK = hashlib.sha256(f"{settings.SECRET_KEY}:fragment-marks".encode()).hexdigest()[:20]
MARK_NOW, MARK_CSRF, MARK_NONCE = (f"@{name}-{_MARK}@" for name in ("now", "csrf", "nonce"))


_MARKS = re.compile("(" + "|".join(re.escape(m) for m in (MARK_NOW, MARK_CSRF, MARK_NONCE)) + ")")
_NOW, _CSRF, _NONCE = (m.encode() for m in (MARK_NOW, MARK_CSRF, MARK_NONCE))

# A fragment as cached: its UTF-8 text cut at the marks, ``(text, mark, text, mark, ..., text)``.
# Filled in per response by one join, without decoding, scanning or re-encoding the text (a
# player's fragment with a long hand is ~100 KB with 80 forms).
Pieces = tuple[bytes, ...]


def _pieces(html: str) -> Pieces:
    return tuple(piece.encode() for piece in _MARKS.split(html))


def fill(pieces: Pieces, token: Callable[[], str]) -> bytes:
    """The fragment of one response: the clock, a fresh nonce per form and ``token()`` (the CSRF token)."""
    out = list(pieces)
    nonces = b""
    if (count := pieces.count(_NONCE)) > 0:
        # One read of the system's randomness for all the forms (a uuid4 each cost ~5 µs): 128 random bits each.
        nonces = binascii.hexlify(os.urandom(16 * count))
    now = iso(timezone.now()).encode()
    # Only a fragment with a form needs the token (a spectator's has none).
    csrf = token().encode() if _CSRF in pieces else b""
    used = 0
    for i in range(1, len(out), 2):
        mark = out[i]
        if mark == _NONCE:
            out[i] = nonces[used : used + 32]
            used += 32
        else:
            out[i] = now if mark == _NOW else csrf
    return b"".join(out)


def needs_csrf_token(pieces: Pieces) -> bool:
    return _CSRF in pieces


def _personal(pieces: Pieces, request: HttpRequest) -> bytes:
    # get_token masks the token afresh for every response (one read of randomness, helpers/csrf.py)
    # and, without a cookie, makes a new secret.
    return fill(pieces, lambda: get_token(request))


def fragment_key(template: str, etag: str) -> str:
    # "pieces": the value is ``Pieces`` (an entry of the earlier format, a string, is never read as one).
    return f"sumrak:fragment-pieces:{template}:{etag.strip(chr(34))}"


def cached_pieces(template: str, etag: str) -> Pieces | None:
    """The live fragment for ``etag`` as cached, if some viewer had it rendered already (one cache read)."""
    pieces = cache.get(fragment_key(template, etag))
    return pieces if isinstance(pieces, tuple) else None


def cached_fragment(request: HttpRequest, template: str, etag: str) -> HttpResponse | None:
    """The live fragment for ``etag`` if some viewer had it rendered already, else None."""
    pieces = cached_pieces(template, etag)
    if pieces is None:
        return None
    return live_headers(HttpResponse(_personal(pieces, request)), etag)


def shared_fragment(
    request: HttpRequest,
    template: str,
    etag: str,
    build: Callable[[], dict[str, Any]],
    status: int = 200,
    *,
    missed: bool = False,
) -> HttpResponse:
    """The live fragment for ``etag``: from the cache, or rendered by ``build()``'s context and cached.

    ``missed``: this request looked it up a moment ago (``cached_fragment``) and it was not there; it is
    rendered without asking again (at worst, twice by two polls at once - as without it).
    """
    key = fragment_key(template, etag)
    pieces = None if missed else cache.get(key)
    if not isinstance(pieces, tuple):
        context = {**build(), "etag": etag, "server_now": MARK_NOW, "new_nonce": MARK_NONCE, "csrf_token": MARK_CSRF}
        pieces = _pieces(render_to_string(template, context, request))
        cache.set(key, pieces, FRAGMENT_TTL)
    return live_headers(HttpResponse(_personal(pieces, request), status=status), etag)

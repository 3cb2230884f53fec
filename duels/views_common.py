"""What the fight pages share: access, errors in the user's language, live responses.

Live fragments are polled every 2 s. Their ETag is computed from what can
change them - the situation's version, its pending deadline, who looks, the
language - before anything is rendered, so an unchanged fight costs a 304.
The poll itself sends the ETag its fragment shows (sumrak.js), because no
browser may keep a fragment: the referee's and the player's show a hand (D4).
"""

from __future__ import annotations

import binascii
import datetime as dt
import hashlib
import os
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.http import http_date, parse_etags
from django.utils.translation import get_language, gettext

from cards.models import ArsenalCard
from cards.words import cites_a_rule, explain, rule_of
from duels.models import Situation
from duels.presenters import CardView, Viewer, iso
from duels.services.live import META_FIELDS, Meta
from events.access import ORGANIZER, REFEREE, AnyUser, staffed_events
from events.models import Character, StaffRole
from helpers.requests import HtmxRequest


@dataclass(frozen=True)
class Alert:
    level: str  # a Bootstrap alert colour: danger, warning, info, success
    text: str
    # The rule that decided, shown to referees as a small link to its help,
    # never to players (templates/duels/_alert.html).
    rule: str = ""


def _rows(whole: bool) -> QuerySet[Situation]:
    rows = Situation.objects.select_related("event")
    # A poll or a command reads only the columns it needs first: the state
    # loads on first use, so a 304 never reads (or decodes) it. A page that
    # renders anyway takes the whole row in the same query.
    return rows.defer("opening") if whole else rows.only(*META_FIELDS, "event")


def situation_for_staff(user: AnyUser, situation_id: int, *, whole: bool = False) -> Situation:
    """A situation of an event the user organizes or referees; otherwise 404 (DESIGN.md §6)."""
    try:
        return _rows(whole).get(pk=situation_id, event__in=staffed_events(user, ORGANIZER, REFEREE))
    except Situation.DoesNotExist:
        raise Http404 from None


def _staff_meta_sql() -> str:
    return (
        f"SELECT s.id, s.event_id, s.version, s.ended, s.next_deadline, s.kind FROM {Situation._meta.db_table} s "
        f"WHERE s.id = %s AND EXISTS (SELECT 1 FROM {StaffRole._meta.db_table} r "
        "WHERE r.event_id = s.event_id AND r.user_id = %s AND r.role IN (%s, %s))"
    )


def staff_meta(user: AnyUser, situation_id: int) -> tuple[Meta, str]:
    """``situation_for_staff``'s answer for a poll: the version columns and the kind, else 404.

    The referee's poll every 2 s from every tablet: the role is checked in
    the database on every request (a referee removed from the event loses
    access at once), by one hand-written statement (~0.2 ms of CPU against
    ~1.5 ms for the ORM's query with the event's row). The same rule as
    ``staffed_events(user, ORGANIZER, REFEREE)``; tests/web/test_referee_poll.py
    holds the two to the same answers.
    """
    if not user.is_authenticated:
        raise Http404
    with connection.cursor() as cursor:
        cursor.execute(_staff_meta_sql(), [situation_id, user.pk, ORGANIZER.value, REFEREE.value])
        row = cursor.fetchone()
    if row is None:
        raise Http404
    deadline = row[4]
    if deadline is not None and timezone.is_naive(deadline):
        # SQLite hands a raw cursor the stored UTC time without its zone (the ORM adds it; psycopg does too).
        deadline = deadline.replace(tzinfo=dt.UTC)
    return Meta(int(row[0]), int(row[1]), int(row[2]), bool(row[3]), deadline), str(row[5])


def public_situation(situation_id: int, *, whole: bool = False) -> Situation:
    """Spectator pages are public: anyone with the link sees the non-secret part (D4)."""
    try:
        return _rows(whole).get(pk=situation_id)
    except Situation.DoesNotExist:
        raise Http404 from None


def refusal(err: Any) -> Alert:
    """A refusal for a fight page: the words, and the rule apart (only referees see it, as a link)."""
    return Alert("danger", explain(err), rule_of(err))


def form_problem(form: Any) -> Alert:
    """A malformed request in words: the form's own messages; a refusal of the engine
    inside a form (a round's new arsenal, D3) keeps its rule as the error's code."""
    problems = [e for errors in form.errors.as_data().values() for e in errors]
    messages = [m for e in problems for m in e.messages]
    rule = next((str(e.code) for e in problems if e.code and cites_a_rule(str(e.code))), "")
    return Alert("danger", " ".join(messages) or gettext("The request was incomplete."), rule)


def conflict() -> Alert:
    return Alert("warning", gettext("Another referee acted first — here is the fresh state. Nothing was changed."))


def new_nonce() -> str:
    """A fresh one-time token for each rendered form (templates call it once per form)."""
    return uuid.uuid4().hex


def arsenal_hand(character: Character) -> list[CardView]:
    """Outside a fight the hand is the current arsenal (one view per copy); a card's uid is its catalogue id."""
    hand = []
    rows = ArsenalCard.objects.filter(character=character).select_related("card").order_by("card__kind", "card_id")
    for row in rows:
        card = CardView(
            uid=str(row.card_id),
            card_id=row.card_id,
            name=row.card.name,
            kind=row.card.kind,
            full_effect=row.card.full_effect,
            softened_effect=row.card.softened_effect,
            focused=row.card_id == character.focus_card_id,
        )
        hand.extend([card] * row.copies)
    return hand


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


def _personal(pieces: Pieces, request: HttpRequest) -> bytes:
    out = list(pieces)
    nonces = b""
    if (count := pieces.count(_NONCE)) > 0:
        # One read of the system's randomness for all the forms (a uuid4 each cost ~5 µs): 128 random bits each.
        nonces = binascii.hexlify(os.urandom(16 * count))
    now = iso(timezone.now()).encode()
    # Only a fragment with a form needs the token (a spectator's has none): get_token
    # masks it afresh for every response and, without a cookie, makes a new secret.
    token = get_token(request).encode() if _CSRF in pieces else b""
    used = 0
    for i in range(1, len(out), 2):
        mark = out[i]
        if mark == _NONCE:
            out[i] = nonces[used : used + 32]
            used += 32
        else:
            out[i] = now if mark == _NOW else token
    return b"".join(out)


def _fragment_key(template: str, etag: str) -> str:
    # "pieces": the value is ``Pieces`` (an entry of the earlier format, a string, is never read as one).
    return f"sumrak:fragment-pieces:{template}:{etag.strip(chr(34))}"


def cached_fragment(request: HttpRequest, template: str, etag: str) -> HttpResponse | None:
    """The live fragment for ``etag`` if some viewer had it rendered already, else None."""
    pieces = cache.get(_fragment_key(template, etag))
    if not isinstance(pieces, tuple):
        return None
    return live_headers(HttpResponse(_personal(pieces, request)), etag)


def shared_fragment(
    request: HttpRequest, template: str, etag: str, build: Callable[[], dict[str, Any]], status: int = 200
) -> HttpResponse:
    """The live fragment for ``etag``: from the cache, or rendered by ``build()``'s context and cached."""
    key = _fragment_key(template, etag)
    pieces = cache.get(key)
    if not isinstance(pieces, tuple):
        context = {**build(), "etag": etag, "server_now": MARK_NOW, "new_nonce": MARK_NONCE, "csrf_token": MARK_CSRF}
        pieces = _pieces(render_to_string(template, context, request))
        cache.set(key, pieces, FRAGMENT_TTL)
    return live_headers(HttpResponse(_personal(pieces, request), status=status), etag)

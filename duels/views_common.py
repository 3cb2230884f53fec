"""What the fight pages share: access, errors in the user's language, live responses.

Live fragments are polled every 2 s. Their ETag is computed from what can
change them - the situation's version, its pending deadline, who looks, the
language - before anything is rendered, so an unchanged fight costs a 304.
The poll itself sends the ETag its fragment shows (sumrak.js), because no
browser may keep a fragment: the referee's and the player's show a hand (D4).
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.utils import timezone
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.http import parse_etags
from django.utils.translation import get_language, gettext

from cards.models import ArsenalCard
from duels import services
from duels.models import Situation
from duels.presenters import CardView, Viewer, iso
from events.access import ORGANIZER, REFEREE, AnyUser, staffed_events
from events.models import Character


@dataclass(frozen=True)
class Alert:
    level: str  # a Bootstrap alert colour: danger, warning, info, success
    text: str
    # The rule that decided, shown to referees as a small link to its help,
    # never to players (templates/duels/_alert.html).
    rule: str = ""


def situation_for_staff(user: AnyUser, situation_id: int) -> Situation:
    """A situation of an event the user organizes or referees; otherwise 404 (DESIGN.md §6)."""
    try:
        return Situation.objects.select_related("event").get(
            pk=situation_id, event__in=staffed_events(user, ORGANIZER, REFEREE)
        )
    except Situation.DoesNotExist:
        raise Http404 from None


def public_situation(situation_id: int) -> Situation:
    """Spectator pages are public: anyone with the link sees the non-secret part (D4)."""
    try:
        return Situation.objects.select_related("event").get(pk=situation_id)
    except Situation.DoesNotExist:
        raise Http404 from None


def rule_of(err: Any) -> str:
    """The RULES.md ID a refusal cites, or "" for service codes (STALE, BUSY, ...) and INPUT/ARSENAL."""
    rule = getattr(err, "rule_id", "")
    if rule[:1].isalpha() and any(ch.isdigit() for ch in rule):
        return str(rule)
    return ""


def explain(err: Any) -> str:
    """A refusal in the user's language, with its rule ID when it cites one of RULES.md."""
    text = services.explain(err)
    rule = rule_of(err)
    return f"{text} ({rule})" if rule else text


def refusal(err: Any) -> Alert:
    """A refusal for a fight page: the words, and the rule apart (only referees see it)."""
    return Alert("danger", services.explain(err), rule_of(err))


def form_problem(form: Any) -> Alert:
    """A malformed request in words: the form's own messages."""
    messages = [str(m) for errors in form.errors.values() for m in errors]
    return Alert("danger", " ".join(messages) or gettext("The request was incomplete."))


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


def situation_etag(situation: Situation, viewer: Viewer, variant: str) -> str:
    # The countdowns are drawn client-side from the deadline, so the fragment
    # changes only with the version (or the deadline/end that refresh writes).
    parts = [
        variant,
        situation.pk,
        situation.version,
        situation.ended,
        iso(situation.next_deadline),
        viewer.etag_part,
        get_language(),
    ]
    return quoted_hash(":".join(str(p) for p in parts))


def quoted_hash(text: str) -> str:
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def not_modified(request: HttpRequest, etag: str) -> HttpResponse | None:
    """A 304 for a poll whose ETag is unchanged (htmx swaps nothing then; see sumrak.js)."""
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        return live_headers(HttpResponseNotModified(), etag)
    return None


def live_headers(response: HttpResponse, etag: str) -> HttpResponse:
    response["ETag"] = etag
    # Never stored, so never shown stale and never left with a hand on a
    # shared tablet or phone (D4); the poll asks for a 304 itself.
    add_never_cache_headers(response)
    patch_vary_headers(response, ["HX-Request", "Cookie", "Accept-Language"])
    return response


def render_live(
    request: HttpRequest, template: str, context: dict[str, Any], etag: str, status: int = 200
) -> HttpResponse:
    context = {**context, "etag": etag, "server_now": iso(timezone.now()), "new_nonce": new_nonce}
    return live_headers(render(request, template, context, status=status), etag)

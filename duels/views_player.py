"""The player's own live part, for every kind of fight: by account or by the secret link (D4).

It polls every 2 s with an ETag (304 when nothing changed). Outside a fight it
shows the character's arsenal; in one, the kind's part (``KindPages.player_context``
and its template): the player sees their own hand only. F1's focus is set
here too: in a fight through its engine (``SituationKind.focus_command``),
outside one through the cards app's arsenal service.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET, require_POST

import rules
from cards import arsenal as arsenal_services
from duels import services
from duels.models import Situation
from duels.services.kinds import kind_of
from duels.services.live import Meta, cached_active
from duels.web.alerts import Alert, refusal
from duels.web.forms import FocusForm
from duels.web.live import cached_fragment, not_modified, polled, quoted_hash, render_live, shared_fragment
from duels.web.pages import pages_of
from duels.web.polls import PLAYER_FRAGMENT, link_poll, player_etag, seen_for, variant
from duels.web.viewers import arsenal_hand
from events.access import character_for_player, character_for_token
from events.models import Character
from helpers.requests import HtmxRequest


def _urls(character: Character, token: str | None) -> dict[str, str]:
    if token:
        return {
            "live_url": reverse("duels:player-live-token", args=[token]),
            "focus_url": reverse("duels:player-focus-token", args=[token]),
            "page_url": reverse("events:character-link", args=[token]),
        }
    return {
        "live_url": reverse("duels:player-live", args=[character.pk]),
        "focus_url": reverse("duels:player-focus", args=[character.pk]),
        "page_url": reverse("events:my-character", args=[character.pk]),
    }


def _player_context(character: Character, situation: Situation | None, token: str | None) -> dict[str, Any]:
    context: dict[str, Any] = {
        "character": character,
        "situation": situation,
        **_urls(character, token),
    }
    if situation is None:
        hand = arsenal_hand(character) if character.status == Character.Status.ACCEPTED else []
        context.update(hand=hand, focus=next((c for c in hand if c.focused), None), version="", can_focus=True)
        return context
    pages = pages_of(situation)
    context.update(pages.player_context(character.pk, situation, services.state_of(situation)))
    context.update(version=situation.version, part=pages.templates.player)
    return context


def _player_response(
    request: HtmxRequest,
    character: Character,
    token: str | None,
    alert: Alert | None = None,
    status: int = 200,
    *,
    cache_tried: bool = False,
    cached: Meta | int | None = None,
) -> HttpResponse:
    """The player's part. ``cache_tried``: the poll's cache entry ``cached`` was looked at (``_from_cache``) and
    answered nothing; it tells whether the poll will render (the fight's whole row is then read at once, and
    the fragment it missed is not looked up again) or may still be a 304 (the state loads on first use)."""
    if not cache_tried and alert is None and character.status == Character.Status.ACCEPTED and polled(request):
        cached = cached_active(character.pk)
        if (fast := _from_cache(request, character.pk, cached, token)) is not None:
            return fast
        cache_tried = True
    whole = not cache_tried or _renders(cached)
    missed = _looked_up(cached, character.pk, token) if cache_tried else None
    accepted = character.status == Character.Status.ACCEPTED
    situation = services.active_situation_for(character, whole=whole, cached=cached) if accepted else None
    context: dict[str, Any] | None = None
    if situation is not None:
        # From the version alone: an unchanged fight costs no rendering.
        etag = player_etag(situation, character.pk, token)
    else:
        # Outside a fight the fragment is small: hash what it shows (names and kinds too: a catalogue edit shows).
        context = _player_context(character, None, token)
        etag = quoted_hash(repr([character.condition, context["hand"], variant(token), get_language()]))
    if request.htmx and alert is None and (unchanged := not_modified(request, etag)) is not None:
        return unchanged
    if request.htmx and alert is None and situation is not None and status == 200:
        # The player's other devices (and polls) of this version reuse it.
        build = lambda: _player_context(character, situation, token)  # noqa: E731 - read once, if at all
        return shared_fragment(request, PLAYER_FRAGMENT, etag, build, missed=etag == missed)
    context = context or _player_context(character, situation, token)
    template = PLAYER_FRAGMENT if request.htmx else "duels/player_live.html"
    return render_live(request, template, {**context, "alert": alert}, etag, status=status)


def _renders(meta: Meta | int | None) -> bool:
    """After ``_from_cache`` found nothing: does the cache's meta say the poll will render (no 304 left)?"""
    return isinstance(meta, Meta) and not meta.ended


def _looked_up(meta: Meta | int | None, character_id: int, token: str | None) -> str | None:
    """The ETag whose fragment ``_from_cache`` looked up (and, as it answered nothing, did not find), if any."""
    if not isinstance(meta, Meta) or meta.ended or meta.is_due(timezone.now()):
        return None
    return player_etag(meta, character_id, token)


def _from_cache(
    request: HtmxRequest, character_id: int, meta: Meta | int | None, token: str | None
) -> HttpResponse | None:
    """A poll of an accepted character's running fight, from the cache alone (see services.live).

    ``meta``: the character's cache entry (one round trip: it holds the
    fight's meta). Unchanged, a 304; changed, the fragment of the new version
    if another poll had it rendered. Otherwise (not known, due, ended, not
    rendered yet) None: the database decides.
    """
    etag = _looked_up(meta, character_id, token)
    if etag is None:
        return None
    return not_modified(request, etag) or cached_fragment(request, PLAYER_FRAGMENT, etag)


@require_GET
def player_live(request: HtmxRequest, character_id: int) -> HttpResponse:
    return _player_response(request, character_for_player(request.user, character_id), None)


@require_GET
def player_live_token(request: HtmxRequest, token: str) -> HttpResponse:
    if polled(request):
        # The link is checked in the database on every poll (a revoked one stops at once), by one lean
        # statement - by duels.web.shortcut already if it saw this poll.
        seen = seen_for(request, token) or link_poll(token)
        if not seen.character_id:
            raise Http404
        # ``missed``: the early path (config/early.py) found it unchanged by neither ETag nor cached fragment.
        fast = None if seen.missed else _from_cache(request, seen.character_id, seen.cached, token)
        if fast is not None:
            return fast
        return _player_response(request, character_for_token(token), token, cache_tried=True, cached=seen.cached)
    return _player_response(request, character_for_token(token), token)


def _focus(request: HtmxRequest, character: Character, token: str | None) -> HttpResponse:
    """F1: in a fight through the engine (SetFocus); outside one through the cards app's arsenal service."""
    form = FocusForm(request.POST)
    if not form.is_valid() or character.status != Character.Status.ACCEPTED:
        return _player_response(request, character, token, Alert("danger", gettext("The request was incomplete.")), 400)
    d = form.cleaned_data
    card = d["card"] or None
    situation = services.active_situation_for(character)
    changed = Alert(
        "warning", gettext("Your fight changed a moment ago — here is the fresh state. Nothing was changed.")
    )
    command = None
    if situation is not None:
        command = kind_of(situation).focus_command(services.state_of(situation), character.pk, card)
        if command is None:
            # F1 guards against an instant attack; a fight whose kind keeps the hands as they are refuses it.
            unchanged = Alert("warning", gettext("The focus cannot change during this fight; set it before or after."))
            return _player_response(request, character, token, unchanged, 422)
    try:
        if situation is not None:
            if d["version"] is None:
                return _player_response(request, character, token, changed, 409)
            services.perform(situation.pk, command, user=request.user, seen_version=d["version"], nonce=d["nonce"])
        else:
            if d["version"] is not None or (card is not None and not card.isdigit()):
                return _player_response(request, character, token, changed, 409)
            arsenal_services.set_focus(character, None if card is None else int(card))
    except services.StaleVersion:
        return _player_response(request, character, token, changed, 409)
    except (rules.RuleError, services.ServiceError) as err:
        return _player_response(request, character, token, refusal(err), 422)
    if request.htmx:
        character.refresh_from_db()
        return _player_response(request, character, token)
    return redirect(_urls(character, token)["page_url"])


@require_POST
def player_focus(request: HtmxRequest, character_id: int) -> HttpResponse:
    return _focus(request, character_for_player(request.user, character_id), None)


@require_POST
def player_focus_token(request: HtmxRequest, token: str) -> HttpResponse:
    return _focus(request, character_for_token(token), token)

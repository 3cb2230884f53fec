"""Live pages outside the referee's tablet: the player's fight fragment and the public spectator page.

Both poll every 2 s with an ETag (304 when nothing changed). What each may see
is decided by the presenter's viewer (D4): the player sees their own hand only,
a spectator sees no hand at all.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_GET, require_POST

import rules
from cards import arsenal as arsenal_services
from duels import services
from duels.battle.live import battle_watch, player_battle_context
from duels.duel.forms import FocusForm
from duels.duel.presenters import card_ids, card_names, present
from duels.duel.record import fight_record
from duels.models import Situation
from duels.services.live import Meta, cached_active, meta_from_db, remember
from duels.web.access import public_situation
from duels.web.alerts import Alert, refusal
from duels.web.live import cached_fragment, not_modified, polled, quoted_hash, render_live, shared_fragment
from duels.web.polls import SPECTATOR_VIEW, cached_meta, link_poll, player_etag, seen_for, spectator_etag, variant
from duels.web.viewers import PLAYER, Viewer, arsenal_hand
from events.access import character_for_player, character_for_token
from events.models import Character
from helpers.requests import HtmxRequest
from rules import duel as engine

PLAYER_FRAGMENT = "duels/player_live.html#live"
WATCH_FRAGMENT = "duels/duel/watch.html#live"


# --- the player's fragment ---------------------------------------------------------------------


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
        context.update(hand=hand, focus=next((c for c in hand if c.focused), None), version="")
        return context
    context["version"] = situation.version
    if situation.kind == Situation.Kind.BATTLE:
        context.update(player_battle_context(character, situation), focus=None)
        return context
    state = services.state_of(situation)
    view = present(state, Viewer(PLAYER, character.pk), card_names(card_ids(state)))
    me = view.by_id[character.pk]
    duel = view.duel_of(character.pk)
    opponent = None if duel is None else (duel.b if duel.a.id == me.id else duel.a)
    context.update(view=view, me=me, duel=duel, opponent=opponent, hand=me.hand or [], focus=me.focus)
    context["version"] = situation.version
    return context


def _player_response(
    request: HtmxRequest,
    character: Character,
    token: str | None,
    alert: Alert | None = None,
    status: int = 200,
    *,
    cache_tried: bool = False,
) -> HttpResponse:
    if (
        not cache_tried
        and alert is None
        and character.status == Character.Status.ACCEPTED
        and polled(request)
        and (fast := _from_cache(request, character.pk, cached_active(character.pk), token)) is not None
    ):
        return fast
    situation = services.active_situation_for(character) if character.status == Character.Status.ACCEPTED else None
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
        return shared_fragment(request, PLAYER_FRAGMENT, etag, lambda: _player_context(character, situation, token))
    context = context or _player_context(character, situation, token)
    template = PLAYER_FRAGMENT if request.htmx else "duels/player_live.html"
    return render_live(request, template, {**context, "alert": alert}, etag, status=status)


def _from_cache(
    request: HtmxRequest, character_id: int, meta: Meta | int | None, token: str | None
) -> HttpResponse | None:
    """A poll of an accepted character's running fight, from the cache alone (see services.live).

    ``meta``: the character's cache entry (one round trip: it holds the
    fight's meta). Unchanged, a 304; changed, the fragment of the new version
    if another poll had it rendered. Otherwise (not known, due, ended, not
    rendered yet) None: the database decides.
    """
    if not isinstance(meta, Meta) or meta.ended or meta.is_due(timezone.now()):
        return None
    etag = player_etag(meta, character_id, token)
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
        fast = _from_cache(request, seen.character_id, seen.cached, token)
        if fast is not None:
            return fast
    return _player_response(request, character_for_token(token), token, cache_tried=polled(request))


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
    if situation is not None and situation.kind != Situation.Kind.DUEL:
        # F1 guards against an instant attack; a battle has none, so its hands stay as they are.
        return _player_response(
            request, character, token, Alert("warning", gettext("Focus is set outside a battle.")), 422
        )
    try:
        if situation is not None:
            if d["version"] is None:
                return _player_response(request, character, token, changed, 409)
            services.perform(
                situation.pk,
                engine.SetFocus(fighter=character.pk, card=card),
                user=request.user,
                seen_version=d["version"],
                nonce=d["nonce"],
            )
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


# --- the public spectator page -------------------------------------------------------------------


@require_GET
def watch(request: HtmxRequest, situation_id: int) -> HttpResponse:
    if polled(request):
        # The page is public, so a poll is answered from the cached version
        # alone, no database at all (see services.live): a 304, or the
        # fragment of the new version once one spectator had it rendered.
        seen = seen_for(request, str(situation_id))
        found = seen.cached if seen is not None else cached_meta(situation_id)
        meta = found if isinstance(found, Meta) else meta_from_db(situation_id)
        if meta is None:
            raise Http404
        if not meta.is_due(timezone.now()):
            etag = spectator_etag(meta)
            fast = not_modified(request, etag) or cached_fragment(request, WATCH_FRAGMENT, etag)
            if fast is not None:
                return fast
    situation = services.refresh(public_situation(situation_id, whole=not polled(request)))
    remember(situation)
    if situation.kind == Situation.Kind.BATTLE:
        return battle_watch(request, situation)
    if situation.kind == Situation.Kind.MASS_BATTLE:
        return redirect("duels:mass-watch", situation.pk)
    etag = spectator_etag(situation)
    if request.htmx and (unchanged := not_modified(request, etag)) is not None:
        return unchanged

    def context() -> dict[str, Any]:
        state = services.state_of(situation)
        return {
            "situation": situation,
            "event": situation.event,
            "view": present(state, SPECTATOR_VIEW, card_names(card_ids(state))),
        }

    if request.htmx:
        # Every spectator of this version gets the same fragment, rendered once.
        return shared_fragment(request, WATCH_FRAGMENT, etag, context)
    return render_live(request, "duels/duel/watch.html", context(), etag)


@require_GET
def record(request: HttpRequest, situation_id: int) -> HttpResponse:
    """Every finished step (paginated) and every played card of a fight: public like the spectator page (D4)."""
    situation = services.refresh(public_situation(situation_id, whole=True))
    state = services.state_of(situation)
    context = {
        "situation": situation,
        "event": situation.event,
        "record": fight_record(state, card_names(card_ids(state)), request.GET.get("page")),
    }
    return render(request, "duels/duel/record.html", context)

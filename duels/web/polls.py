"""What a live poll of a player's link or a spectator's page reads before it renders anything.

Shared by the views (duels/duel/live.py) and by the middleware that answers
an unchanged poll before the rest of the stack (duels/web/shortcut.py): the
same reads, the same ETags, so the two cannot answer differently. What the
middleware (or the WSGI early path before it, config/early.py) read is handed
to the view in the request's environ (``Seen``), so a poll it does not answer
is not read twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.cache import cache
from django.http import Http404, HttpRequest

from duels.models import Situation
from duels.services.live import Meta, active_key, cached_active, meta_key
from duels.web.live import quoted_hash, situation_etag
from duels.web.pages import pages_for
from duels.web.viewers import PLAYER, SPECTATOR, Viewer
from events.access import link_holder_cached, link_holder_from_cache

SPECTATOR_VIEW = Viewer(SPECTATOR)
# The character's fight meta (duels.services.live.active_key), read with the link's cached answer.
ACTIVE_TEMPLATE = active_key(0).removesuffix("0") + "{c}"
# The player's live part, for every kind (its fragment as cached: duels.web.live.shared_fragment).
PLAYER_FRAGMENT = "duels/player_live.html#live"
# In the WSGI environ (``request.META``): the early path has no request object to set it on.
SEEN = "sumrak.poll_seen"


def variant(token: str | None) -> str:
    # The fragment's links carry the secret link itself: its own variant, so a new link never shows the old one.
    return f"player-token-{quoted_hash(token).strip(chr(34))[:12]}" if token else "player"


def spectator_etag(meta: Situation | Meta) -> str:
    return situation_etag(meta, SPECTATOR_VIEW, "watch")


def player_etag(meta: Situation | Meta, character_id: int, token: str | None) -> str:
    return situation_etag(meta, Viewer(PLAYER, character_id), variant(token))


def watch_fragment(kind: str) -> str:
    """The spectators' live fragment of a fight of ``kind``, as cached."""
    return f"{pages_for(kind).templates.watch}#live"


def cached_meta(situation_id: int) -> Meta | None:
    """The situation's meta as last published to the cache, else None (the database decides)."""
    found = cache.get(meta_key(situation_id))
    return found if isinstance(found, Meta) else None


@dataclass(frozen=True)
class Seen:
    """What one poll read already: the link's character (0: refused), the cache's entry and the ETag whose
    fragment was looked up in the cache and not found (``missed``: the view renders it without asking again)."""

    key: str  # the token or the situation's id the reads were for
    character_id: int
    cached: Meta | int | None
    missed: str = ""


def link_poll(token: str) -> Seen:
    """The link checked (a revoked one stops at once: events/link_cache.py) and its fight's cached meta.

    With Redis, while the link's answer is cached: two Redis round trips, no database.
    """
    try:
        character_id, found = link_holder_cached(token, ACTIVE_TEMPLATE)
    except Http404:
        return Seen(token, 0, None)
    if found is None:
        return Seen(token, character_id, cached_active(character_id))
    return Seen(token, character_id, found if isinstance(found, Meta | int) else None)


def link_poll_cached(token: str) -> Seen | None:
    """``link_poll`` from the cache alone (no database): None when the link's answer is not cached or counts no more."""
    cached = link_holder_from_cache(token, ACTIVE_TEMPLATE)
    if cached is None:
        return None
    character_id, found = cached
    return Seen(token, character_id, found if isinstance(found, Meta | int) else None)


def keep(request: HttpRequest, seen: Seen) -> None:
    request.META[SEEN] = seen


def seen_for(request: HttpRequest, key: str) -> Seen | None:
    """What this request's earlier step read for ``key``, once (None if nothing)."""
    seen = request.META.pop(SEEN, None)
    return seen if isinstance(seen, Seen) and seen.key == key else None

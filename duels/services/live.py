"""What a poll needs of a situation, without its state: the version, the deadline, whether it ended.

A live page polls every 2 s and most polls find nothing changed. Such a poll
must not read (let alone decode) the cached state - ~130 KB of JSON for a
long fight - so it reads only the columns in ``META_FIELDS``, and a public
poll not even those: ``meta_of`` answers from Django's cache (Redis in
production, local memory on the embedded default).

The cached meta is written by every change of a situation while it holds
the row's lock (``store.store_state`` -> ``publish``), so a poll never sees a
version older than the last one committed, and a read that fills a missing
entry (``cache.add``) never replaces a writer's. Only if the cache fails
during a write can an entry lag, for ``META_TTL`` seconds at most; commands
are unaffected (they check the version of the locked row).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import cache

from duels.models import Situation

logger = logging.getLogger(__name__)

# The columns every access check and poll reads; never ``state`` or ``opening``.
META_FIELDS = ("id", "event_id", "kind", "version", "next_deadline", "ended")
META_TTL = 30


@dataclass(frozen=True)
class Meta:
    """A situation as a poll sees it."""

    id: int
    event_id: int
    version: int
    ended: bool
    next_deadline: dt.datetime | None
    # Which kind of fight: the page a poll renders (an entry cached before it was kept reads "").
    kind: str = ""

    def is_due(self, now: dt.datetime) -> bool:
        return not self.ended and self.next_deadline is not None and self.next_deadline < now


def meta_key(situation_id: int) -> str:
    return f"sumrak:situation-meta:{situation_id}"


def meta_from(situation: Situation) -> Meta:
    return Meta(
        situation.pk, situation.event_id, situation.version, situation.ended, situation.next_deadline, situation.kind
    )


def meta_of(situation_id: int) -> Meta | None:
    """The situation's meta from the cache, else from its columns (and cached); None if there is none."""
    found = cache.get(meta_key(situation_id))
    return found if isinstance(found, Meta) else meta_from_db(situation_id)


def meta_from_db(situation_id: int) -> Meta | None:
    """The situation's meta from its columns (and cached, see ``remember``); None if there is none."""
    row = Situation.objects.filter(pk=situation_id).only(*META_FIELDS).first()
    return None if row is None else remember(row)


def remember(situation: Situation) -> Meta:
    """Cache the meta of a row just read, unless a writer has published one meanwhile."""
    meta = meta_from(situation)
    # ``add``: a writer's fresher entry is never replaced by this read.
    cache.add(meta_key(meta.id), meta, META_TTL)
    return meta


def active_key(character_id: int) -> str:
    return f"sumrak:active-situation:{character_id}"


def cached_active(character_id: int) -> Meta | int | None:
    """The meta of the character's unfinished situation as last published, 0 for none, None if unknown.

    The meta itself, not the situation's id: a player's poll then costs one
    round trip to the cache, not two (``publish`` writes both keys at once).
    """
    found = cache.get(active_key(character_id))
    return found if isinstance(found, Meta | int) else None


def remember_active(character_id: int, situation: Situation | None) -> None:
    cache.add(active_key(character_id), 0 if situation is None else meta_from(situation), META_TTL)


def publish(situation: Situation, character_ids: Iterable[int], present: Iterable[int]) -> None:
    """Every poll sees the new version of ``situation`` from now on.

    Called while the row is still locked, before the commit: the writes of
    successive changes are then ordered by the lock, so an older version can
    never overwrite a newer one (after-commit callbacks of two commands may
    run in either order). If the transaction rolls back after all, the cache
    names a version no page shows; every poll then misses the fast path and
    answers from the database, which stays right.

    Each of ``character_ids`` (everyone in it before or after) is known to be
    in it - if in ``present`` and it is unfinished: their key holds the same
    meta - or in no situation known here (the next read asks the database).
    """
    meta = meta_from(situation)
    inside = set(present) if not situation.ended else set()
    wanted: dict[str, object] = {active_key(cid): meta for cid in inside}
    wanted[meta_key(meta.id)] = meta
    gone = [active_key(cid) for cid in set(character_ids) - inside]
    try:
        cache.set_many(wanted, META_TTL)
        if gone:
            cache.delete_many(gone)
    except Exception:
        # A cache that is down must not fail a command. Its entries end with
        # their TTL; until then a poll may lag (never a command).
        logger.warning("could not publish situation %s to the cache", situation.pk, exc_info=True)

"""The catalogue's version: a token that changes whenever a card is saved or deleted (issue 24).

What is cached per catalogue - the cards' names a fight page shows
(``cards.words.card_names``), the mass battle's magic cards' names and texts
and its warriors' type names (``cards.mass_names``) - is keyed by it, so a
renamed card shows its new name at the next page without a query per page
for the names. Besides ``Card``, a ``MagicCard`` or ``WarriorType`` saved or
deleted, and a ``Warrior`` saved whole (its type may have changed) or
deleted, makes a new version; a warrior's place, written by
``QuerySet.update`` at every casualty, does not.

The token lives in Django's cache (Redis in production, shared by every
process); a missing one is created at random, never counted up from an
old value, so a cache that lost it (a restart, an eviction) can never give
an old version back. It changes after the commit of every ``Card`` save or
delete (the signals below: admin, forms, imports row by row), so a reader
between the write and its commit cannot keep the old names under the new
token (it changes at once too, for the writer's own reads). Writes that
send no signal - ``QuerySet.update``, ``bulk_create``, ``bulk_update``, raw
SQL, ``loaddata`` - must call ``bump()`` themselves;
as a bound for one that does not, what is cached under a token is
forgotten after ``NAMES_TTL`` seconds.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

KEY = "sumrak:catalogue-version"


def _token() -> str:
    return os.urandom(8).hex()


def current() -> str:
    """The catalogue's version now (one cache round trip; made on first use)."""
    found = cache.get(KEY)
    if isinstance(found, str):
        return found
    cache.add(KEY, _token(), None)
    found = cache.get(KEY)
    return found if isinstance(found, str) else _token()


def bump() -> None:
    """A new version at once, and again after the current transaction commits.

    At once: this transaction's own later reads see the new names. After the
    commit: another request that read the old names under the first new
    version, before the commit, cannot keep them.
    """
    cache.set(KEY, _token(), None)
    transaction.on_commit(lambda: cache.set(KEY, _token(), None))


class PerVersion[V]:
    """Rows kept per process under the catalogue's version, bounded in time and size.

    ``{version: (when filled, {id: value, or None for an id with no row})}``:
    only the current version's rows are kept (an older version's are never
    read again); all are forgotten after ``ttl`` seconds (the bound for a
    write that skipped ``bump()``) or once more than ``size`` ids are kept.
    """

    def __init__(self, ttl: float, size: int) -> None:
        self.ttl = ttl
        self.size = size
        self._kept: dict[str, tuple[float, dict[int, V | None]]] = {}

    def get(
        self, ids: Iterable[int], load: Callable[[set[int]], dict[int, V]], version: str | None = None
    ) -> dict[int, V]:
        """The values of ``ids`` under ``version`` (the current one if None); ``load`` reads the ids not kept yet."""
        wanted = set(ids)
        if not wanted:
            return {}
        version = current() if version is None else version
        now = time.monotonic()
        filled, known = self._kept.get(version, (now, {}))
        # Only this version's dict is measured: threads share the process, and iterating over
        # ``_kept`` while another thread inserts a version would raise.
        if now - filled > self.ttl or len(known) > self.size:
            self._kept.clear()
            filled, known = now, {}
        if version not in self._kept:
            self._kept.clear()
            self._kept[version] = (filled, known)
        missing = {key for key in wanted if key not in known}  # never iterates ``known`` (threads)
        if missing:
            found = load(missing)
            known.update({key: found.get(key) for key in missing})
        return {key: value for key in wanted if (value := known.get(key)) is not None}

    def clear(self) -> None:
        self._kept.clear()


def _changed(sender: object, **kwargs: object) -> None:
    bump()


def _warrior_saved(sender: object, update_fields: Iterable[str] | None = None, **kwargs: object) -> None:
    # A warrior's type name is cached by the warrior: only a save that may change its type counts.
    if update_fields is None or "warrior_type" in update_fields or "warrior_type_id" in update_fields:
        bump()


def connect() -> None:
    """Bump on every save and delete of a card, a magic card, a warrior type or a warrior (``CardsConfig.ready``)."""
    from cards.models import Card
    from cards.models_mass import MagicCard, Warrior, WarriorType

    for model in (Card, MagicCard, WarriorType):
        name = model.__name__.lower()
        post_save.connect(_changed, sender=model, dispatch_uid=f"catalogue-version-save-{name}")
        post_delete.connect(_changed, sender=model, dispatch_uid=f"catalogue-version-delete-{name}")
    post_save.connect(_warrior_saved, sender=Warrior, dispatch_uid="catalogue-version-save-warrior")
    post_delete.connect(_changed, sender=Warrior, dispatch_uid="catalogue-version-delete-warrior")

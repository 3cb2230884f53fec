"""The catalogue's version: a token that changes whenever a card is saved or deleted (issue 24).

What is cached per catalogue - the cards' names a fight page shows
(``cards.words.card_names``) - is keyed by it, so a renamed card shows its
new name at the next page without a query per page for the names.

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


def _changed(sender: object, **kwargs: object) -> None:
    bump()


def connect() -> None:
    """Bump on every card save and delete (``CardsConfig.ready``)."""
    from cards.models import Card

    post_save.connect(_changed, sender=Card, dispatch_uid="catalogue-version-save")
    post_delete.connect(_changed, sender=Card, dispatch_uid="catalogue-version-delete")

"""A revocation raced against polls of the same secret link: none gets through once it committed (issue 24).

PostgreSQL and Redis, real threads each on its own connection. The polls
ask ``duels.web.polls.link_poll`` (what the poll shortcut and the view ask)
without pause while another thread revokes the link in a transaction that
holds its write uncommitted for a while (pollers that read the database
then still see the link working) and whose first commit callback notes the
moment and then waits (so the writer's own callback, which gives the scope
a fresh generation, comes late). Half the rounds drop the cached answer
first, so polls fill it during the write. Every poll that began after the
noted moment must be refused; polls before it were answered from the cache.

The same race runs against the WSGI early path (config/early.py), which
answers an unchanged poll's 304 before Django: no poll begun after the
commit may get its 304 there (it goes Django's full way, which refuses it).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import RequestFactory
from django.utils import translation

from config.early import EarlyPolls
from duels.services.live import META_TTL, active_key, meta_from
from duels.web.polls import link_poll, player_etag
from events import link_cache
from events.models import Character

ROUNDS = 6
POLLERS = 3


@pytest.fixture
def redis_up():
    if not link_cache.enabled():
        message = "the link cache race needs Redis: set REDIS_URL=redis://..."
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)


def _full_path(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    start_response("200 OK", [])
    return [b"full path"]


def _early_poll(token: str, etag: str) -> Callable[[], bool]:
    """A poll through the early path: True if it answered the 304 itself (the link let through)."""
    app = EarlyPolls(_full_path)
    assert app.on
    headers = {"HX-Request": "true", "If-None-Match": etag, "Accept-Language": "en", "Host": "testserver"}
    factory = RequestFactory()

    def poll() -> bool:
        answered: list[str] = []
        app(factory.get(f"/c/{token}/live/", headers=headers).environ, lambda status, _h: answered.append(status))
        return answered == ["304 Not Modified"]

    return poll


def _link_poll(token: str) -> Callable[[], bool]:
    return lambda: link_poll(token).character_id != 0


def _round(
    poll: Callable[[], bool], character_id: int, token: str, drop_answer: bool
) -> tuple[float, list[tuple[float, bool]]]:
    polls: list[tuple[float, bool]] = []
    stop = threading.Event()
    committed_at: list[float] = []

    def poller() -> None:
        try:
            while not stop.is_set():
                began = time.monotonic()
                polls.append((began, poll()))
        finally:
            connection.close()

    def note_then_wait() -> None:
        committed_at.append(time.monotonic())
        time.sleep(0.1)

    def revoker() -> None:
        try:
            time.sleep(0.05)
            with transaction.atomic():
                # The first commit callback: the moment after the commit, then a wait before the writer's own.
                transaction.on_commit(note_then_wait)
                character = Character.objects.get(pk=character_id)
                character.revoke_link()
                if drop_answer:
                    cache.delete(link_cache.answer_key(token))  # polls now fill while the write is uncommitted
                time.sleep(0.1)
            time.sleep(0.1)
        finally:
            stop.set()
            connection.close()

    threads = [threading.Thread(target=poller) for _ in range(POLLERS)] + [threading.Thread(target=revoker)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
        assert not thread.is_alive()
    assert committed_at, "the revocation did not commit"
    return committed_at[0], polls


@pytest.mark.parametrize("path", ["link_poll", "early"])
def test_a_revoked_link_never_answers_a_poll_begun_after_the_revocation_committed(redis_up, character, fight, path):
    for n in range(ROUNDS):
        with transaction.atomic():
            character.regenerate_link()  # a working link again, its commit callback run
        token = character.link_token
        assert link_poll(token).character_id == character.pk  # fills the answer
        assert link_cache.cached(token, "{c}")[0] is not None, "the answer is cached before the race"
        if path == "early":
            fight.refresh_from_db()
            cache.set(active_key(character.pk), meta_from(fight), META_TTL)  # the fight's meta, as published
            with translation.override("en"):
                poll = _early_poll(token, player_etag(meta_from(fight), character.pk, token))
            assert poll(), "the early path answers the unchanged poll before the race"
        else:
            poll = _link_poll(token)
        committed, polls = _round(poll, character.pk, token, drop_answer=n % 2 == 0)
        after = [ok for began, ok in polls if began > committed]
        before = [ok for began, ok in polls if began < committed]
        assert after and before, (len(after), len(before))
        assert not any(after), f"round {n}: {sum(after)} of {len(after)} polls let through after the commit"
        assert any(before)
        assert link_poll(token).character_id == 0
        assert link_cache.cached(token, "{c}")[0] is None

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
"""

from __future__ import annotations

import os
import threading
import time

import pytest
from django.core.cache import cache
from django.db import connection, transaction

from duels.web.polls import link_poll
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


def _round(character_id: int, token: str, drop_answer: bool) -> tuple[float, list[tuple[float, bool]]]:
    polls: list[tuple[float, bool]] = []
    stop = threading.Event()
    committed_at: list[float] = []

    def poller() -> None:
        try:
            while not stop.is_set():
                began = time.monotonic()
                polls.append((began, link_poll(token).character_id != 0))
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


def test_a_revoked_link_never_answers_a_poll_begun_after_the_revocation_committed(redis_up, character):
    for n in range(ROUNDS):
        with transaction.atomic():
            character.regenerate_link()  # a working link again, its commit callback run
        token = character.link_token
        assert link_poll(token).character_id == character.pk  # fills the answer
        assert link_cache.cached(token, "{c}")[0] is not None, "the answer is cached before the race"
        committed, polls = _round(character.pk, token, drop_answer=n % 2 == 0)
        after = [ok for began, ok in polls if began > committed]
        before = [ok for began, ok in polls if began < committed]
        assert after and before, (len(after), len(before))
        assert not any(after), f"round {n}: {sum(after)} of {len(after)} polls let through after the commit"
        assert any(before)
        assert link_poll(token).character_id == 0
        assert link_cache.cached(token, "{c}")[0] is None

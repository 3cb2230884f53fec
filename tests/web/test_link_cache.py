"""A player's poll by secret link answered from the cache, and every way a link stops working (issue 24).

With Redis (CI) the link's answer is cached (events/link_cache.py): an
unchanged poll sends no statement. Every write that can stop a link - the
character's token, ``link_active``, status, deletion, the event's link
expiry; by ``save``, queryset ``update`` or ``bulk_update`` - makes the very
next poll a 404, whether the writer's commit callback has run yet (its
mark) or has run (the fresh generation). Without Redis the same polls check
the database every time, and the same answers are asserted.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from events import link_cache
from events.models import Character, Event
from tests.web.duels_kit import poll_with_queries

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def _live(token: str) -> str:
    return reverse("duels:player-live-token", args=[token])


@pytest.fixture
def poll(client, fight, character):
    """Polls of the character's link as it was when the test began; the first one kept its answer."""
    link_cache.forget_all()  # the fixtures' writes, as if committed
    token = character.link_token
    etag = client.get(_live(token), headers=HX)["ETag"]

    def again() -> tuple[int, list[str]]:
        response, sql = poll_with_queries(client, _live(token), etag)
        return response.status_code, sql

    assert again()[0] == 304
    status, sql = again()
    assert status == 304
    assert sql == [] if link_cache.enabled() else len(sql) == 1, sql
    return again


def _past(event: Event) -> dict[str, Any]:
    return {
        "links_expire_after_end": True,
        "starts_on": dt.date.today() - dt.timedelta(days=5),
        "ends_on": dt.date.today() - dt.timedelta(days=3),
    }


def _revoke(character: Character) -> None:
    character.revoke_link()


def _regenerate(character: Character) -> None:
    character.regenerate_link()


def _status_by_update(character: Character) -> None:
    Character.objects.filter(pk=character.pk).update(status=Character.Status.REJECTED)


def _bulk_update(character: Character) -> None:
    character.link_active = False
    Character.objects.bulk_update([character], ["link_active"])


def _full_save(character: Character) -> None:
    character.status = Character.Status.PENDING
    character.save()


def _event_save(character: Character) -> None:
    event = character.event
    for name, value in _past(event).items():
        setattr(event, name, value)
    event.save()


def _event_update(character: Character) -> None:
    Event.objects.filter(pk=character.event_id).update(**_past(character.event))


def _account_deactivated(character: Character) -> None:
    player = User.objects.get(pk=int(character.player_id or 0))
    player.is_active = False
    player.save()  # issue 13: the links of a deactivated account are rotated (events/signals.py)


WRITES = [
    _revoke,
    _regenerate,
    _status_by_update,
    _bulk_update,
    _full_save,
    _event_save,
    _event_update,
    _account_deactivated,
]


@pytest.mark.parametrize("committed", [False, True], ids=["callback-pending", "callback-ran"])
@pytest.mark.parametrize("write", WRITES, ids=lambda w: w.__name__.strip("_"))
def test_a_link_stops_at_the_next_poll_however_it_was_stopped(
    poll, character, write, committed, django_capture_on_commit_callbacks
):
    """The poll after the write is a 404, before the writer's commit callback ran (its mark) and after."""
    with django_capture_on_commit_callbacks(execute=committed):
        write(character)
    assert poll()[0] == 404
    assert poll()[0] == 404


def test_a_write_that_stops_no_link_keeps_the_cached_answer(poll, character, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        Character.objects.filter(pk=character.pk).update(condition="lightly_wounded", arrived=True)
        character.notes = "met the referee"
        character.save(update_fields=["notes"])
    status, sql = poll()
    assert status == 304
    assert sql == [] if link_cache.enabled() else len(sql) == 1


def test_a_link_read_while_a_write_is_under_way_is_not_kept(poll, character):
    """A writer's mark: the poll asks the database, and what it read is not cached for later."""
    scopes = link_cache.begin([link_cache.character_scope(character.pk)])
    assert scopes
    for _ in range(2):
        status, sql = poll()
        assert status == 304 and len(sql) >= 1  # still working, but from the database each time


def test_a_revocation_committed_between_the_two_reads_of_a_fill_is_never_cached(
    on_redis, client, fight, character, monkeypatch, django_capture_on_commit_callbacks
):
    """The fill stamps the generations, then reads again: a revocation in between is a 404, and stays one.

    Only a cache fills, so this one runs on Redis in every pass (its own when none is configured).
    """
    link_cache.forget_all()
    token = character.link_token
    etag = client.get(_live(token), headers=HX)["ETag"]
    stamp = link_cache.stamp

    def stamp_then_revoke(*args: Any) -> Any:
        found = stamp(*args)
        with django_capture_on_commit_callbacks(execute=True):
            character.revoke_link()
        return found

    monkeypatch.setattr(link_cache, "stamp", stamp_then_revoke)
    assert poll_with_queries(client, _live(token), etag)[0].status_code == 404
    monkeypatch.setattr(link_cache, "stamp", stamp)
    assert poll_with_queries(client, _live(token), etag)[0].status_code == 404


def test_the_setting_off_checks_the_link_in_the_database_every_time(poll, settings):
    settings.SUMRAK_LINK_CACHE = False
    status, sql = poll()
    assert status == 304 and len(sql) == 1 and "link_token" in sql[0]


def test_the_cache_names_the_token_by_its_hash_only(poll, character):
    """Redis never holds a secret link itself (a dump of the cache opens nothing)."""
    backend = link_cache._backend()
    if backend is None:  # no Redis: nothing is cached at all
        assert link_cache.cached(character.link_token, "{c}") == (None, None)
        return
    client = backend.redis_client()
    keys = list(client.scan_iter(match=backend.make_key("sumrak:link*")))
    assert keys
    for key in keys:
        assert character.link_token.encode() not in key
        assert character.link_token.encode() not in (client.get(key) or b"")

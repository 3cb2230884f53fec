"""The live polls' fast paths (issue 8): counts of statements, never times.

A player's poll by the secret link checks the link in the database every
time (one lean statement), so a revoked or regenerated link stops at once,
and learns the fight's version from the cache in the same request. A poll of
a version another viewer already had rendered takes its fragment from the
cache: the spectator's without the database, the player's with the link
check alone.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.http import Http404
from django.urls import reverse

from duels import services
from events import link_cache
from events.access import character_for_token, link_holder
from events.models import Character
from rules import duel as engine
from tests.services.kit import nonce
from tests.web.duels_kit import poll_with_queries

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def _attack(fight, referee):
    state = services.state_of(fight)
    duel = state.duels[-1]
    card = engine.attack_cards(state, duel.attacker)[0]
    fight.refresh_from_db()
    services.perform(
        fight.pk,
        engine.Attack(duel.number, duel.attacker, card),
        user=referee,
        seen_version=fight.version,
        nonce=nonce(),
    )


def test_an_unchanged_player_poll_by_link_is_one_statement_and_reads_no_state(client, fight, character):
    """With Redis no statement at all (the link's answer is cached, events/link_cache.py); else the link's."""
    link_cache.forget_all()  # the fixtures' writes, as if committed
    url = reverse("duels:player-live-token", args=[character.link_token])
    etag = client.get(url, headers=HX)["ETag"]
    poll_with_queries(client, url, etag)  # the first poll reads the link and keeps its answer
    response, sql = poll_with_queries(client, url, etag)
    assert response.status_code == 304
    if link_cache.enabled():
        assert sql == []
    else:
        assert len(sql) == 1, sql  # the link, checked in the database
        assert "link_token" in sql[0] and '"state"' not in sql[0]


def test_a_revoked_link_stops_at_once_though_the_fight_is_cached(client, fight, character):
    url = reverse("duels:player-live-token", args=[character.link_token])
    etag = client.get(url, headers=HX)["ETag"]
    assert poll_with_queries(client, url, etag)[0].status_code == 304
    character.revoke_link()
    assert poll_with_queries(client, url, etag)[0].status_code == 404
    assert poll_with_queries(client, url, '"older"')[0].status_code == 404


def test_a_regenerated_link_opens_and_the_old_one_is_404(client, fight, character):
    old = character.link_token
    etag = client.get(reverse("duels:player-live-token", args=[old]), headers=HX)["ETag"]
    character.regenerate_link()
    assert poll_with_queries(client, reverse("duels:player-live-token", args=[old]), etag)[0].status_code == 404
    fresh = poll_with_queries(client, reverse("duels:player-live-token", args=[character.link_token]), '"older"')[0]
    assert fresh.status_code == 200


def test_a_changed_version_is_served_from_the_cache_once_one_viewer_had_it_rendered(client, referee, fight, character):
    link_cache.forget_all()  # the fixtures' writes, as if committed
    watch = reverse("duels:watch", args=[fight.pk])
    live = reverse("duels:player-live-token", args=[character.link_token])
    old_watch, old_live = client.get(watch, headers=HX)["ETag"], client.get(live, headers=HX)["ETag"]
    _attack(fight, referee)
    first_watch, _sql = poll_with_queries(client, watch, old_watch)  # the first viewer of the new version renders it
    first_live, _sql = poll_with_queries(client, live, old_live)
    assert first_watch.status_code == first_live.status_code == 200
    again_watch, watch_sql = poll_with_queries(client, watch, old_watch)
    again_live, live_sql = poll_with_queries(client, live, old_live)
    assert watch_sql == []  # the spectator's: no database at all
    if link_cache.enabled():
        assert live_sql == []  # the player's: the link's answer cached too (events/link_cache.py)
    else:
        assert len(live_sql) == 1 and "link_token" in live_sql[0]  # the player's: the link check only
    assert again_watch["ETag"] == first_watch["ETag"] and again_live["ETag"] == first_live["ETag"]
    # The player's copy is their own: a fresh nonce in each form and the same hand (D4).
    assert again_live.content.decode().count('name="nonce"') == first_live.content.decode().count('name="nonce"')


def test_the_lean_link_check_agrees_with_the_full_one(character, event):
    def both(token: str) -> tuple[int | None, int | None]:
        answers: list[int | None] = []
        for check in (link_holder, lambda t: character_for_token(t).pk):
            try:
                answers.append(check(token))
            except Http404:
                answers.append(None)
        return answers[0], answers[1]

    token = character.link_token
    assert both(token) == (character.pk, character.pk)
    assert both("no-such-token") == (None, None)
    assert both("nul\x00byte") == (None, None)
    for status in (Character.Status.PENDING, Character.Status.REJECTED):
        Character.objects.filter(pk=character.pk).update(status=status)
        assert both(token) == (None, None)
    Character.objects.filter(pk=character.pk).update(status=Character.Status.ACCEPTED, link_active=False)
    assert both(token) == (None, None)
    Character.objects.filter(pk=character.pk).update(link_active=True)
    event.links_expire_after_end = True
    event.starts_on = dt.date.today() - dt.timedelta(days=5)
    event.ends_on = dt.date.today() - dt.timedelta(days=3)
    event.save()
    assert both(token) == (None, None)
    event.links_expire_after_end = False
    event.save()
    assert both(token) == (character.pk, character.pk)

"""The referee's poll checks the role with one lean statement, every time (issue 8).

An unchanged poll costs the session's user and one hand-written statement
(role and version columns), never the state; a referee removed from the
event loses access at the very next poll, and the statement lets in exactly
whom ``situation_for_staff`` lets in.
"""

from __future__ import annotations

import pytest
from django.http import Http404
from django.urls import reverse

from duels import services
from duels.web.access import situation_for_staff, staff_meta
from events.models import StaffRole
from rules import duel as engine
from tests.services.kit import nonce
from tests.web.duels_kit import poll_with_queries

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def test_an_unchanged_referee_poll_is_the_user_and_one_statement(as_user, referee, fight):
    client = as_user(referee)
    url = reverse("duels:situation", args=[fight.pk])
    etag = client.get(url, headers=HX)["ETag"]
    response, sql = poll_with_queries(client, url, etag)
    assert response.status_code == 304
    access = [q for q in sql if "duels_situation" in q]
    assert len(access) == 1 and "staffrole" in access[0], sql
    assert not any('"state"' in q or "opening" in q for q in sql), sql
    assert len(sql) <= 3, sql  # the session (without Redis), the user, the access check


def test_a_referee_removed_from_the_event_loses_the_poll_at_once(as_user, referee, fight):
    client = as_user(referee)
    url = reverse("duels:situation", args=[fight.pk])
    etag = client.get(url, headers=HX)["ETag"]
    assert poll_with_queries(client, url, etag)[0].status_code == 304
    StaffRole.objects.filter(user=referee, event=fight.event).delete()
    assert poll_with_queries(client, url, etag)[0].status_code == 404
    assert poll_with_queries(client, url, '"stale"')[0].status_code == 404


def test_a_changed_fight_is_rendered_for_thepoll_with_queries(as_user, referee, fight):
    client = as_user(referee)
    url = reverse("duels:situation", args=[fight.pk])
    etag = client.get(url, headers=HX)["ETag"]
    state = services.state_of(fight)
    duel = state.duels[-1]
    card = engine.attack_cards(state, duel.attacker)[0]
    attack = engine.Attack(duel.number, duel.attacker, card)
    services.perform(fight.pk, attack, user=referee, seen_version=fight.version, nonce=nonce())
    response, _sql = poll_with_queries(client, url, etag)
    assert response.status_code == 200 and response["ETag"] != etag
    assert 'data-phase="await_answer"' in response.content.decode()
    # Another referee of the same version gets the fragment rendered once, with its own nonces.
    again, sql = poll_with_queries(client, url, etag)
    assert again.status_code == 200 and again["ETag"] == response["ETag"]
    assert not any('"state"' in q for q in sql), sql


@pytest.mark.parametrize("who", ["organizer", "referee", "other_organizer", "player", "other_player"])
def test_the_statement_admits_exactly_whom_the_orm_check_admits(who, personas, fight):
    user = personas[who]

    def orm() -> bool:
        try:
            situation_for_staff(user, fight.pk)
        except Http404:
            return False
        return True

    def lean() -> bool:
        try:
            meta, kind = staff_meta(user, fight.pk)
        except Http404:
            return False
        assert (meta.id, meta.version, kind) == (fight.pk, fight.version, fight.kind)
        return True

    assert lean() == orm() == (who in ("organizer", "referee"))

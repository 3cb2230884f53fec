"""Who may open each fight page (DESIGN.md §6): out of scope is a 404 that changes nothing."""

import pytest
from django.urls import reverse

from duels.models import LogEntry, Situation
from tests.services.kit import nonce

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("secret_hands")]

ROLES = ["anonymous", "player", "other_player", "referee", "organizer", "other_organizer"]
STAFF = {"referee", "organizer"}


def _expect(response, allowed: bool, anonymous_redirects: bool) -> None:
    if anonymous_redirects:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    elif allowed:
        assert response.status_code == 200, response.content[:500]
    else:
        assert response.status_code == 404


def referee_pages(situation, character, rival):
    event_id = situation.event_id
    return [
        reverse("duels:referee-home", args=[event_id]),
        reverse("duels:start", args=[event_id]),
        reverse("duels:start", args=[event_id]) + f"?a={character.pk}&b={rival.pk}",
        reverse("duels:situation", args=[situation.pk]),
        reverse("duels:log", args=[situation.pk]),
        reverse("duels:export", args=[situation.pk]),
    ]


@pytest.mark.parametrize("role", ROLES)
def test_referee_pages_only_for_the_events_referees_and_organizers(role, personas, as_user, shown, character, rival):
    client = as_user(personas[role])
    for url in referee_pages(shown, character, rival):
        _expect(client.get(url), allowed=role in STAFF, anonymous_redirects=role == "anonymous")
    # The poll fragment too.
    poll = client.get(reverse("duels:situation", args=[shown.pk]), headers={"HX-Request": "true"})
    _expect(poll, allowed=role in STAFF, anonymous_redirects=role == "anonymous")


@pytest.mark.parametrize("role", [r for r in ROLES if r not in STAFF])
def test_referee_actions_out_of_scope_change_nothing(role, personas, as_user, shown, character, rival):
    client = as_user(personas[role])
    version = Situation.objects.get(pk=shown.pk).version
    entries = LogEntry.objects.count()
    posts = [
        (reverse("duels:act", args=[shown.pk]), {"action": "answer", "duel": 0, "fighter": rival.pk, "card": ""}),
        (reverse("duels:undo", args=[shown.pk]), {"reason": "mistake"}),
        (
            reverse("duels:start", args=[shown.event_id]),
            {"kind": "aggression", "a": rival.pk, "b": character.pk, "card": ""},
        ),
    ]
    for url, data in posts:
        response = client.post(url, {**data, "version": version, "nonce": nonce()})
        _expect(response, allowed=False, anonymous_redirects=role == "anonymous")
    assert Situation.objects.get(pk=shown.pk).version == version
    assert LogEntry.objects.count() == entries


@pytest.mark.parametrize("role", ROLES)
def test_player_live_fragment_only_for_the_owner(role, personas, as_user, shown, character):
    client = as_user(personas[role])
    for headers in ({}, {"HX-Request": "true"}):
        response = client.get(reverse("duels:player-live", args=[character.pk]), headers=headers)
        _expect(response, allowed=role == "player", anonymous_redirects=False)


@pytest.mark.parametrize("role", [r for r in ROLES if r != "player"])
def test_player_focus_out_of_scope_changes_nothing(role, personas, as_user, shown, character):
    client = as_user(personas[role])
    version = Situation.objects.get(pk=shown.pk).version
    response = client.post(
        reverse("duels:player-focus", args=[character.pk]), {"card": "", "version": version, "nonce": nonce()}
    )
    assert response.status_code == 404
    assert Situation.objects.get(pk=shown.pk).version == version


@pytest.mark.parametrize("role", ROLES)
def test_secret_link_fragment_works_for_whoever_holds_the_link(role, personas, as_user, shown, character):
    response = as_user(personas[role]).get(reverse("duels:player-live-token", args=[character.link_token]))
    assert response.status_code == 200
    assert character.name in response.content.decode()


def test_a_revoked_or_regenerated_link_is_a_404(client, shown, character):
    old = character.link_token
    character.regenerate_link()
    assert client.get(reverse("duels:player-live-token", args=[old])).status_code == 404
    assert client.post(reverse("duels:player-focus-token", args=[old]), {"nonce": nonce()}).status_code == 404
    character.revoke_link()
    assert client.get(reverse("duels:player-live-token", args=[character.link_token])).status_code == 404


@pytest.mark.parametrize("role", ROLES)
def test_spectator_page_is_public(role, personas, as_user, shown):
    client = as_user(personas[role])
    assert client.get(reverse("duels:watch", args=[shown.pk])).status_code == 200
    assert client.get(reverse("duels:watch", args=[shown.pk]), headers={"HX-Request": "true"}).status_code == 200
    assert client.get(reverse("duels:watch", args=[shown.pk + 1000])).status_code == 404


def test_a_referee_of_another_event_cannot_reach_this_fight(as_user, other_organizer, shown):
    client = as_user(other_organizer)
    assert client.get(reverse("duels:situation", args=[shown.pk])).status_code == 404
    assert client.get(reverse("duels:referee-home", args=[shown.event_id])).status_code == 404

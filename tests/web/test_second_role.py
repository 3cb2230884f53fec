"""A "second role" (issue 22): a player whose character died gets a new character."""

import pytest
from django.urls import reverse

from events.models import Character

pytestmark = pytest.mark.django_db


def second_role(client, character, **fields):
    data = {"name": "Anton the Second", "side": "light", "kind": "mage", "power_level": "6", **fields}
    return client.post(reverse("events:second-role", args=[character.pk]), data, follow=True)


@pytest.fixture
def dead(character):
    Character.objects.filter(pk=character.pk).update(condition="dead")
    character.refresh_from_db()
    return character


def test_the_dead_stays_dead_its_link_revoked_the_new_one_issued_both_in_the_players_list(
    org, as_user, player, dead, client
):
    old_token = dead.link_token
    assert client.get(reverse("events:character-link", args=[old_token])).status_code == 200
    response = second_role(org, dead)
    new = Character.objects.get(name="Anton the Second")
    assert "the secret link of Anton no longer works" in response.content.decode()
    assert (new.player, new.status, new.previous_role, new.event_id) == (player, "accepted", dead, dead.event_id)
    assert (new.power_level, new.link_active) == ("6", True) and new.link_token != old_token
    dead.refresh_from_db()
    assert (dead.condition, dead.status, dead.link_active) == ("dead", "accepted", False)
    assert client.get(reverse("events:character-link", args=[old_token])).status_code == 404
    assert client.get(reverse("events:character-link", args=[new.link_token])).status_code == 200
    home = as_user(player).get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Anton the Second" in home and "second role after Anton" in home and "dead" in home
    assert as_user(player).get(reverse("events:my-character", args=[dead.pk])).status_code == 200


def test_the_character_page_offers_it_only_for_the_dead_and_links_both_ways(org, dead, rival):
    assert "second-role-link" not in org.get(reverse("events:character-edit", args=[rival.pk])).content.decode()
    assert "second-role-link" in org.get(reverse("events:character-edit", args=[dead.pk])).content.decode()
    second_role(org, dead)
    new = Character.objects.get(name="Anton the Second")
    assert "Second role of" in org.get(reverse("events:character-edit", args=[new.pk])).content.decode()
    old_page = org.get(reverse("events:character-edit", args=[dead.pk])).content.decode()
    assert "Next role:" in old_page and "second-role-link" not in old_page


def test_a_living_character_gets_no_second_role(org, character):
    response = second_role(org, character)
    assert "is not dead" in response.content.decode()
    assert not Character.objects.filter(name="Anton the Second").exists()
    character.refresh_from_db()
    assert character.link_active


def test_a_second_role_is_given_once(org, dead):
    second_role(org, dead)
    response = second_role(org, dead, name="Anton the Third")
    assert "already has a second role" in response.content.decode()
    assert not Character.objects.filter(name="Anton the Third").exists()


def test_a_name_taken_in_the_event_is_refused_and_nothing_changes(org, dead, rival):
    response = second_role(org, dead, name="Zavulon")
    assert response.status_code == 200
    assert Character.objects.filter(name="Zavulon").count() == 1
    dead.refresh_from_db()
    assert dead.link_active  # the old link is revoked only with a new character


def test_an_invited_player_is_invited_to_the_second_role_too(org, event):
    ghost = Character.objects.create(event=event, name="Olga", invited_username="olga", condition="dead")
    second_role(org, ghost, name="Olga again")
    assert Character.objects.get(name="Olga again").invited_username == "olga"


@pytest.mark.parametrize("who", ["anonymous", "player", "referee", "other_organizer"])
def test_only_the_events_organizers_give_a_second_role(as_user, personas, dead, who):
    response = as_user(personas[who]).post(
        reverse("events:second-role", args=[dead.pk]),
        {"name": "Sneaky", "side": "light", "kind": "mage", "power_level": "6"},
    )
    assert response.status_code in (302, 404)
    if who != "anonymous":
        assert response.status_code == 404
    assert not Character.objects.filter(name="Sneaky").exists()

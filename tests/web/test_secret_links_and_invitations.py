"""Secret links follow their people, and naming a player is an invitation (issue 13).

- the character form never tells whether a user name belongs to an account;
- the invited account's owner accepts (or declines) on their home page;
- a character passing to another player, or its player's account being
  deactivated, gets a new secret link: the old printed one stops working;
- an event may let its links expire after its last day.
"""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from events.models import Character, Event
from tests.web.character_form_kit import character_form

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


def created_page(client, event, username: str, name: str) -> str:
    response = client.post(
        reverse("events:character-create", args=[event.pk]),
        character_form(name=name, player_username=username),
        follow=True,
    )
    assert response.status_code == 200
    return response.content.decode().replace(username, "USERNAME").replace(name, "NAME")


def test_the_form_says_the_same_for_an_account_and_for_no_account(as_user, organizer, event, player):
    client = as_user(organizer)
    real = created_page(client, event, player.username, "Svetlana")
    ghost = created_page(client, event, "ghost-of-nobody", "Olga")
    marker = "If an account named “USERNAME” exists, its owner is invited to play NAME"
    assert marker in real and marker in ghost
    strip = lambda page: page.split("<main", 1)[1].split("</main>", 1)[0]  # noqa: E731
    # Apart from ids and tokens, the two pages are the same: nothing tells which name is real.
    assert len(strip(real).splitlines()) == len(strip(ghost).splitlines())
    for name in ("Svetlana", "Olga"):
        character = Character.objects.get(name=name)
        assert character.player is None and character.invited_username


def test_the_invited_player_accepts_on_the_home_page(as_user, organizer, event, player):
    as_user(organizer).post(
        reverse("events:character-create", args=[event.pk]), character_form(player_username=player.username.upper())
    )
    svetlana = Character.objects.get(name="Svetlana")
    client = as_user(player)
    home = client.get("/").content.decode()
    assert 'id="invitations"' in home and "Svetlana" in home
    response = client.post(reverse("events:invitation-answer", args=[svetlana.pk]), {"answer": "accept"})
    assert response.status_code == 302
    svetlana.refresh_from_db()
    assert svetlana.player == player and svetlana.invited_username == ""
    assert 'id="invitations"' not in client.get("/").content.decode()


def test_a_declined_invitation_changes_no_player(as_user, organizer, event, player):
    as_user(organizer).post(
        reverse("events:character-create", args=[event.pk]), character_form(player_username=player.username)
    )
    svetlana = Character.objects.get(name="Svetlana")
    as_user(player).post(reverse("events:invitation-answer", args=[svetlana.pk]), {"answer": "decline"})
    svetlana.refresh_from_db()
    assert svetlana.player is None and svetlana.invited_username == ""


def test_nobody_else_may_answer_an_invitation(as_user, organizer, event, player, other_player):
    as_user(organizer).post(
        reverse("events:character-create", args=[event.pk]), character_form(player_username=player.username)
    )
    svetlana = Character.objects.get(name="Svetlana")
    for answer in ("accept", "decline", "garbage"):
        response = as_user(other_player).post(
            reverse("events:invitation-answer", args=[svetlana.pk]), {"answer": answer}
        )
        assert response.status_code == 404
    svetlana.refresh_from_db()
    assert svetlana.player is None and svetlana.invited_username == player.username
    # A GET never answers.
    assert as_user(player).get(reverse("events:invitation-answer", args=[svetlana.pk])).status_code == 405


def test_an_answer_that_is_neither_changes_nothing(as_user, organizer, event, player):
    as_user(organizer).post(
        reverse("events:character-create", args=[event.pk]), character_form(player_username=player.username)
    )
    svetlana = Character.objects.get(name="Svetlana")
    as_user(player).post(reverse("events:invitation-answer", args=[svetlana.pk]), {"answer": "maybe"})
    svetlana.refresh_from_db()
    assert svetlana.player is None and svetlana.invited_username == player.username


def test_the_current_player_stays_until_the_new_one_accepts(as_user, organizer, character, player, other_player):
    token = character.link_token
    as_user(organizer).post(
        reverse("events:character-edit", args=[character.pk]),
        character_form(name=character.name, player_username=other_player.username),
    )
    character.refresh_from_db()
    assert character.player == player and character.link_token == token
    as_user(other_player).post(reverse("events:invitation-answer", args=[character.pk]), {"answer": "accept"})
    character.refresh_from_db()
    assert character.player == other_player
    # The first player's printed link no longer opens the character.
    assert character.link_token != token
    assert as_user(None).get(reverse("events:character-link", args=[token])).status_code == 404
    assert as_user(None).get(reverse("events:character-link", args=[character.link_token])).status_code == 200


def test_removing_the_player_rotates_the_link(as_user, organizer, character):
    token = character.link_token
    as_user(organizer).post(
        reverse("events:character-edit", args=[character.pk]), character_form(name=character.name, player_username="")
    )
    character.refresh_from_db()
    assert character.player is None and character.link_token != token


def test_a_deactivated_account_s_links_stop_working(as_user, character, player):
    token = character.link_token
    assert as_user(None).get(reverse("events:character-link", args=[token])).status_code == 200
    player.is_active = False
    player.save()
    character.refresh_from_db()
    assert character.link_token != token
    assert as_user(None).get(reverse("events:character-link", args=[token])).status_code == 404


def test_saving_an_active_account_keeps_the_links(character, player):
    token = character.link_token
    player.first_name = "Anton"
    player.save()
    character.refresh_from_db()
    assert character.link_token == token


@pytest.mark.parametrize(("expire", "days_after_end", "status"), [(True, 1, 404), (True, 0, 200), (False, 30, 200)])
def test_links_may_expire_after_the_event(as_user, event, character, expire, days_after_end, status):
    today = timezone.localdate()
    Event.objects.filter(pk=event.pk).update(
        links_expire_after_end=expire,
        starts_on=today - dt.timedelta(days=days_after_end + 2),
        ends_on=today - dt.timedelta(days=days_after_end),
    )
    response = as_user(None).get(reverse("events:character-link", args=[character.link_token]))
    assert response.status_code == status

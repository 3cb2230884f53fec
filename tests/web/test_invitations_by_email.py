"""Invitations by e-mail (issue 22): a player named by another tool's list, where no user name exists.

JoinRPG's and allrpg.info's lists give the player's name and e-mail, never a Sumrak user name.
A player cell that cannot be a user name invites by the row's e-mail (or is reported); the
player accepts by signing up with that e-mail; an account that already has the address
sees the invitation on its home page and accepts it, as for a user name (issue 13). Nothing
tells the organizer whether an account with the address exists.
"""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from events.imports import runner
from events.imports.kinds import kind_of
from events.models import Character

pytestmark = pytest.mark.django_db


def imported(event, csv: str) -> Character:
    done = runner.run(runner.start(event, "characters", kind_of("characters").read(csv.encode(), "csv")).pk)
    assert done.status == "done", done.errors
    return Character.objects.get(event=event, name="Гесер")


def sign_up(username: str, email: str):
    client = Client()
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    data = {"username": username, "email": email, "password1": "a-long-pass-phrase", "password2": "a-long-pass-phrase"}
    response = client.post(reverse("signup"), data, follow=True)
    return client, response


@pytest.mark.parametrize(
    ("player", "email", "invited"),
    [
        ("Борис Игнатьевич", "geser@example.org", ("", "geser@example.org")),  # a name: the e-mail invites
        ("GESER@Example.org", "", ("", "geser@example.org")),  # the cell is an address
        ("boris", "geser@example.org", ("boris", "geser@example.org")),  # a user name, and an address too
        ("mailto geser@example.org +7 900", "", ("", "geser@example.org")),  # allrpg.info's player cell
    ],
)
def test_a_player_cell_invites_by_user_name_or_e_mail(event, player, email, invited):
    gesser = imported(event, f"name,player,email\nГесер,{player},{email}\n")
    assert (gesser.invited_username, gesser.invited_email) == invited
    assert gesser.player is None


def test_a_name_without_an_e_mail_is_reported_and_nothing_imported(event):
    table = kind_of("characters").read("name,player\nГесер,Борис Игнатьевич\n".encode(), "csv")
    done = runner.run(runner.start(event, "characters", table).pk)
    assert done.status == "refused"
    assert done.errors[0][:2] == [2, "player"] and "cannot be a user name" in done.errors[0][2]
    assert not Character.objects.filter(event=event).exists()


def test_the_player_accepts_by_signing_up_with_that_e_mail(event):
    gesser = imported(event, "name,player,email\nГесер,Борис Игнатьевич,geser@example.org\n")
    client, response = sign_up("boris", "Geser@Example.org")
    gesser.refresh_from_db()
    boris = User.objects.get(username="boris")
    assert gesser.player == boris and gesser.invited_email == ""
    assert "You play Гесер in Night Watch" in response.content.decode()
    assert client.get(reverse("events:my-character", args=[gesser.pk])).status_code == 200


def test_signing_up_with_another_e_mail_or_none_takes_nothing(event):
    gesser = imported(event, "name,player,email\nГесер,Борис Игнатьевич,geser@example.org\n")
    sign_up("anton", "anton@example.org")
    sign_up("nobody", "")
    gesser.refresh_from_db()
    assert gesser.player is None and gesser.invited_email == "geser@example.org"


def test_an_account_that_has_the_address_accepts_on_its_home_page(event, as_user):
    boris = User.objects.create_user("boris", email="geser@example.org")
    gesser = imported(event, "name,player,email\nГесер,Борис Игнатьевич,GESER@example.org\n")
    client = as_user(boris)
    home = client.get(reverse("home"))
    assert "Гесер" in home.content.decode()
    others = as_user(User.objects.create_user("anton", email="anton@example.org")).get(reverse("home"))
    assert "Гесер" not in others.content.decode()
    client.post(reverse("events:invitation-answer", args=[gesser.pk]), {"answer": "accept"})
    gesser.refresh_from_db()
    assert gesser.player == boris and gesser.invited_email == ""


def test_declining_an_e_mail_invitation_clears_it(event, as_user):
    boris = User.objects.create_user("boris", email="geser@example.org")
    gesser = imported(event, "name,player,email\nГесер,Борис Игнатьевич,geser@example.org\n")
    as_user(boris).post(reverse("events:invitation-answer", args=[gesser.pk]), {"answer": "decline"})
    gesser.refresh_from_db()
    assert gesser.player is None and gesser.invited_email == ""


def test_the_organizer_sees_and_edits_the_invited_e_mail(org, event):
    gesser = imported(event, "name,player,email\nГесер,Борис Игнатьевич,geser@example.org\n")
    page = org.get(reverse("events:character-edit", args=[gesser.pk])).content.decode()
    assert 'value="geser@example.org"' in page


def test_importing_again_keeps_the_player_who_accepted(event):
    gesser = imported(event, "name,player,email\nГесер,Борис Игнатьевич,geser@example.org\n")
    sign_up("boris", "geser@example.org")
    again = imported(event, "name,player,email\nГесер,Борис Игнатьевич,geser@example.org\n")
    assert again.pk == gesser.pk and again.player is not None and again.player.username == "boris"
    assert (again.invited_username, again.invited_email) == ("", "")

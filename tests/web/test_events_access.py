"""Who may open each events page (DESIGN.md §6): out of scope is a 404, anonymous goes to the login page."""

import pytest
from django.urls import reverse

from events.models import Character, StaffRole

ROLES = ["anonymous", "player", "other_player", "referee", "organizer", "other_organizer"]


def organizer_pages(event, character):
    return [
        reverse("events:organizer-home", args=[event.pk]),
        reverse("events:applications", args=[event.pk]),
        reverse("events:characters", args=[event.pk]),
        reverse("events:character-create", args=[event.pk]),
        reverse("events:character-edit", args=[character.pk]),
        reverse("events:character-qr", args=[character.pk]),
        reverse("events:qr-sheet", args=[event.pk]),
        reverse("events:check-in", args=[event.pk]),
        reverse("events:characters-import", args=[event.pk]),
        reverse("events:characters-export", args=[event.pk]),
        reverse("events:staff", args=[event.pk]),
    ]


def _expect(response, allowed: bool, anonymous: bool) -> None:
    if anonymous:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    elif allowed:
        assert response.status_code == 200
    else:
        assert response.status_code == 404


@pytest.mark.parametrize("role", ROLES)
def test_organizer_pages_only_for_the_events_organizers(role, personas, as_user, event, character):
    client = as_user(personas[role])
    for url in organizer_pages(event, character):
        _expect(client.get(url), allowed=role == "organizer", anonymous=role == "anonymous")


@pytest.mark.parametrize("role", [r for r in ROLES if r != "organizer"])
def test_organizer_actions_out_of_scope_change_nothing(role, personas, as_user, event, character):
    """Every POST action of the organizers: out of scope → 404 (or login) and the database is as before.

    The organizer's own actions are tested one by one in the other test_events_* modules.
    """
    role_row = StaffRole.objects.get(event=event, role=StaffRole.Role.REFEREE)
    character.status = Character.Status.PENDING
    character.save()
    token = character.link_token
    actions = [
        (reverse("events:registration-toggle", args=[event.pk]), {"open": "0"}),
        (reverse("events:application-review", args=[character.pk]), {"decision": "accept", "comment": "x"}),
        (reverse("events:link-revoke", args=[character.pk]), {}),
        (reverse("events:link-regenerate", args=[character.pk]), {}),
        (reverse("events:check-in-set", args=[character.pk]), {"arrived": "1"}),
        (reverse("events:staff-remove", args=[event.pk, role_row.pk]), {}),
        (reverse("events:character-edit", args=[character.pk]), {"name": "Hacked"}),
        (reverse("events:character-create", args=[event.pk]), {"name": "Intruder"}),
        (reverse("events:staff", args=[event.pk]), {"username": personas["player"].username, "role": "organizer"}),
    ]
    client = as_user(personas[role])
    for url, data in actions:
        _expect(client.post(url, data), allowed=False, anonymous=role == "anonymous")
    character.refresh_from_db()
    event.refresh_from_db()
    assert character.status == Character.Status.PENDING
    assert character.link_token == token and character.link_active
    assert not character.arrived
    assert character.name == "Anton"
    assert event.registration_open
    assert StaffRole.objects.filter(pk=role_row.pk).exists()
    assert not StaffRole.objects.filter(event=event, user=personas["player"]).exists()
    assert not Character.objects.filter(name="Intruder").exists()


@pytest.mark.parametrize("role", ROLES)
def test_D4_my_character_only_for_its_player(role, personas, as_user, character, attack_card):
    """D4: the page shows the unplayed cards in hand, so only the holder opens it."""
    from cards.models import ArsenalCard

    ArsenalCard.objects.create(character=character, card=attack_card)
    response = as_user(personas[role]).get(reverse("events:my-character", args=[character.pk]))
    _expect(response, allowed=role == "player", anonymous=role == "anonymous")
    if role == "player":
        assert "Fireball" in response.text or "Огненный шар" in response.text


@pytest.mark.parametrize("role", ROLES)
def test_secret_link_opens_for_anyone_holding_it(role, personas, as_user, character):
    response = as_user(personas[role]).get(reverse("events:character-link", args=[character.link_token]))
    assert response.status_code == 200
    assert "Anton" in response.text


@pytest.mark.parametrize("role", ROLES)
def test_apply_needs_an_account(role, personas, as_user, event):
    response = as_user(personas[role]).get(reverse("events:apply", args=[event.pk]))
    _expect(response, allowed=True, anonymous=role == "anonymous")


def test_unknown_ids_are_404(as_user, organizer, player):
    client = as_user(organizer)
    assert client.get(reverse("events:organizer-home", args=[999999])).status_code == 404
    assert client.get(reverse("events:character-edit", args=[999999])).status_code == 404
    assert as_user(player).get(reverse("events:apply", args=[999999])).status_code == 404
    assert as_user(player).get(reverse("events:my-character", args=[999999])).status_code == 404
    assert client.get(reverse("events:character-link", args=["no-such-token"])).status_code == 404


def test_organizer_of_the_other_event_sees_only_their_own(as_user, other_organizer, other_event, character):
    client = as_user(other_organizer)
    assert client.get(reverse("events:organizer-home", args=[other_event.pk])).status_code == 200
    response = client.get(reverse("events:characters", args=[other_event.pk]))
    assert "Anton" not in response.text


def test_no_password_reset_by_mail(client, db):
    """Accounts have no e-mail and the game site no mail server: the reset pages do not exist."""
    assert client.get("/accounts/password_reset/").status_code == 404
    assert client.post("/accounts/password_reset/", {"email": "someone@example.org"}).status_code == 404
    assert client.get(reverse("login")).status_code == 200


def test_a_signed_in_person_changes_their_password_on_the_sites_own_pages(as_user, player):
    client = as_user(player)
    page = client.get(reverse("password_change"))
    assert page.status_code == 200 and 'href="/static/vendor/bootstrap.min.css"' in page.content.decode()
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "pass-player",
            "new_password1": "a-long-new-secret-42",
            "new_password2": "a-long-new-secret-42",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password("a-long-new-secret-42")
    assert as_user(None).get(reverse("password_change")).status_code == 302  # anonymous → login

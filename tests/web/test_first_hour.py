"""A new organizer's first hour on a fresh installation (issue 23).

From an empty database: the sign-up page says the first account may create
events; the first account signs up, creates an event and imports its
characters through the pages; a second sign-up is told, on the sign-up page,
the home page and the refused page, that creating events is for the accounts
the administrator allows, and cannot create one.
"""

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from events.creators import allow_event_creation, claim_first_creator, may_create_events
from events.models import Character, Event, StaffRole
from tests.web.event_form_kit import event_data

pytestmark = pytest.mark.django_db

CHARACTERS = (
    "name,player,side,kind,power_level,condition,arsenal_limit,status,arrived,notes\n"
    "Olga,,light,enchanter,2,fit,,accepted,no,\n"
    "Ignat,,dark,Other,level 4,fit,6,accepted,no,\n"
)


def sign_up(username: str) -> tuple[Client, str]:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    password = f"{username}-Long-pass-2027"
    response = client.post(
        reverse("signup"), {"username": username, "password1": password, "password2": password}, follow=True
    )
    assert response.status_code == 200 and "_auth_user_id" in client.session
    return client, response.content.decode()


def test_the_first_account_creates_an_event_and_imports_characters_a_second_cannot():
    assert not User.objects.exists()
    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("signup")).content.decode()
    assert 'id="first-account"' in page and "the first account to sign up may create events" in page

    first, home = sign_up("svetlana")
    assert "first account: you may create events" in home and 'id="create-event"' in home
    created = first.post(reverse("events:event-create"), event_data(name="Our own game"))
    event = Event.objects.get(name="Our own game")
    assert created.status_code == 302 and created["Location"] == reverse("events:organizer-home", args=[event.pk])
    assert StaffRole.objects.filter(event=event, user__username="svetlana", role=StaffRole.Role.ORGANIZER).exists()
    upload = SimpleUploadedFile("characters.csv", CHARACTERS.encode())
    imported = first.post(reverse("events:characters-import", args=[event.pk]), {"file": upload})
    assert imported.status_code == 302
    assert sorted(Character.objects.filter(event=event).values_list("name", flat=True)) == ["Ignat", "Olga"]

    page = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("signup")).content.decode()
    assert 'id="first-account"' not in page and 'id="who-creates-events"' in page
    second, home = sign_up("mallory")
    assert "first account" not in home and 'id="create-event"' not in home
    assert 'id="no-event-creation"' in home and "manage.py allow_event_creation" in home
    refused = second.get(reverse("events:event-create"))
    assert refused.status_code == 403
    said = refused.content.decode()
    assert 'id="why-not"' in said and "allow_event_creation" in said
    assert second.post(reverse("events:event-create"), event_data(name="Not mine")).status_code == 403
    assert second.get(reverse("duels:event-import")).status_code == 403
    assert not Event.objects.filter(name="Not mine").exists()
    assert not may_create_events(User.objects.get(username="mallory"))


def test_the_sign_up_page_says_it_in_russian():
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(reverse("signup")).content.decode()
    assert "первая зарегистрированная учётная запись может создавать игры" in page


@pytest.mark.parametrize(
    "creator",
    [
        lambda: User.objects.create_superuser("root", password="root-Long-pass-2027"),
        lambda: allow_event_creation(User.objects.create_user("host", password="host-Long-pass-2027")),
    ],
    ids=["a superuser", "an allowed account"],
)
def test_an_installation_with_an_event_creator_gives_no_sign_up_the_right(creator):
    creator()
    newcomer = User.objects.create_user("newcomer", password="newcomer-Long-pass-2027")
    assert not claim_first_creator(newcomer)
    assert not may_create_events(User.objects.get(pk=newcomer.pk))


def test_only_one_account_is_the_first(settings):
    first = User.objects.create_user("first", password="first-Long-pass-2027")
    second = User.objects.create_user("second", password="second-Long-pass-2027")
    assert claim_first_creator(first) and not claim_first_creator(second)
    assert may_create_events(User.objects.get(pk=first.pk))
    assert not may_create_events(User.objects.get(pk=second.pk))


def test_a_deactivated_creator_still_closes_the_door():
    """An installation whose organizer was sent away is no fresh one: the next sign-up does not inherit the right."""
    gone = User.objects.create_user("gone", password="gone-Long-pass-2027")
    allow_event_creation(gone)
    gone.is_active = False
    gone.save()
    newcomer = User.objects.create_user("newcomer", password="newcomer-Long-pass-2027")
    assert not claim_first_creator(newcomer)

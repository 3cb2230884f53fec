"""An army's secret link follows the rules of a character's (issue 27, issue 13's secret links).

- it opens nothing after the event when the event says so ("links stop after the event");
- it is rotated when the army passes to another commander, or loses its commander;
- it is rotated when the commander's account is deactivated;
- saving anything else keeps it (the printed QR code keeps working).
"""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from cards.models_mass import Army
from events.models import Event
from tests.services.mass_kit import armies

pytestmark = pytest.mark.django_db


@pytest.fixture
def khan(db) -> User:
    return User.objects.create_user("red_khan", password="x-Long-pass-2027")


@pytest.fixture
def red(event, khan) -> Army:
    return armies(event, khan)[0]


def opens(client, token: str) -> int:
    return int(client.get(reverse("duels:mass-army-link", args=[token])).status_code)


@pytest.mark.parametrize(("expire", "days_after_end", "status"), [(True, 1, 404), (True, 0, 200), (False, 30, 200)])
def test_an_army_link_expires_after_the_event_as_a_character_link_does(
    client, event, red, expire, days_after_end, status
):
    today = timezone.localdate()
    Event.objects.filter(pk=event.pk).update(
        links_expire_after_end=expire,
        starts_on=today - dt.timedelta(days=days_after_end + 2),
        ends_on=today - dt.timedelta(days=days_after_end),
    )
    assert opens(client, red.link_token) == status


def test_a_new_commander_gets_a_new_link(client, red, other_player):
    token = red.link_token
    red.commander = other_player
    red.save()
    red.refresh_from_db()
    assert red.link_token != token
    assert opens(client, token) == 404 and opens(client, red.link_token) == 200


def test_removing_the_commander_rotates_the_link(red):
    token = red.link_token
    red.commander = None
    red.save(update_fields=["commander"])
    red.refresh_from_db()
    assert red.link_token != token


def test_a_deactivated_commander_s_army_link_stops_working(client, red, khan):
    token = red.link_token
    assert opens(client, token) == 200
    khan.is_active = False
    khan.save()
    red.refresh_from_db()
    assert red.link_token != token
    assert opens(client, token) == 404


def test_saving_anything_else_keeps_the_link(red, khan):
    token = red.link_token
    red.commander_name = "The Red Khan"
    red.save()
    khan.first_name = "Khan"
    khan.save()
    red.refresh_from_db()
    assert red.link_token == token

"""The objects of the shared fixtures (tests/conftest.py), made by plain functions.

A fixture of a wider scope makes the same ones: tests/web/test_no_server_errors.py's world
is built once per module (tests/web/conftest.py's ``shared_world``).
"""

import datetime as dt

from django.contrib.auth.models import User
from django.utils import timezone

from cards.models import Card, Catalogue
from events.models import Character, Event, Side, StaffRole


def _in_days(days: int) -> dt.date:
    return timezone.localdate() + dt.timedelta(days=days)


def make_user(username: str) -> User:
    return User.objects.create_user(username=username, password="pass-" + username)


def _staff(event: Event, username: str, role: str) -> User:
    user = make_user(username)
    StaffRole.objects.create(event=event, user=user, role=role)
    return user


def make_catalogue() -> Catalogue:
    return Catalogue.objects.create(name="Test catalogue")


def make_event(catalogue: Catalogue) -> Event:
    # Dates relative to today: the event is always still to come, whenever the tests run.
    return Event.objects.create(name="Night Watch", starts_on=_in_days(5), ends_on=_in_days(7), catalogue=catalogue)


def make_other_event(catalogue: Catalogue) -> Event:
    return Event.objects.create(name="Day Watch", starts_on=_in_days(12), ends_on=_in_days(13), catalogue=catalogue)


def make_organizer(event: Event) -> User:
    return _staff(event, "organizer", StaffRole.Role.ORGANIZER)


def make_referee(event: Event) -> User:
    return _staff(event, "referee", StaffRole.Role.REFEREE)


def make_other_organizer(other_event: Event) -> User:
    return _staff(other_event, "other_organizer", StaffRole.Role.ORGANIZER)


def make_character(event: Event, player: User) -> Character:
    return Character.objects.create(event=event, player=player, name="Anton", side=Side.LIGHT, power_level="5")


def make_rival(event: Event, other_player: User) -> Character:
    return Character.objects.create(event=event, player=other_player, name="Zavulon", side=Side.DARK, power_level="3")


def make_attack_card(catalogue: Catalogue) -> Card:
    return Card.objects.create(
        catalogue=catalogue,
        name_ru="Огненный шар",
        name_en="Fireball",
        kind="attack",
        full_effect="heavily_wounded",
        softened_effect="lightly_wounded",
        tags="fire",
    )


def make_defence_card(catalogue: Catalogue) -> Card:
    return Card.objects.create(catalogue=catalogue, name_ru="Щит мага", name_en="Mage Shield", kind="defence")

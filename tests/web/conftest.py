"""Fixtures of the web tests: more cards for the arsenal pages, and the no-server-error world."""

import pytest

from cards.models import Card
from events.models import StaffRole
from tests.web.no_server_errors_kit import build_world


@pytest.fixture
def healing(catalogue) -> Card:
    return Card.objects.create(catalogue=catalogue, name_ru="Исцеление", name_en="Healing", kind="defence")


@pytest.fixture
def stranger_card(catalogue) -> Card:
    """In the catalogue, not in any character's pool."""
    return Card.objects.create(catalogue=catalogue, name_ru="Зов Тьмы", name_en="Call of Darkness", kind="attack")


@pytest.fixture
def world(sweep_personas, event, other_event, character, rival, attack_card, defence_card):
    """Every kind of object each role may or may not reach (no_server_errors_kit.build_world)."""
    return build_world(sweep_personas, event, other_event, character, rival, (attack_card, defence_card))


@pytest.fixture
def sweep_personas(personas, other_event, django_user_model):
    """The access tests' personas, and three more the bad-input sweeps must also survive."""
    inactive = django_user_model.objects.create_user("inactive")
    inactive.is_active = False
    inactive.save()
    other_referee = django_user_model.objects.create_user("other_referee")
    StaffRole.objects.create(event=other_event, user=other_referee, role=StaffRole.Role.REFEREE)
    superuser = django_user_model.objects.create_superuser("site_root", password="pass-site-root")
    return {**personas, "inactive": inactive, "other_referee": other_referee, "superuser": superuser}


@pytest.fixture
def sessions_in_cookies(settings):
    """The sweeps send thousands of requests: a session row read per request would be a third of their time."""
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"

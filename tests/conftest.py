"""Shared fixtures: fixed personas for every role (DESIGN.md §7).

- organizer / referee of ``event``; organizer of ``other_event``;
- ``player`` owns ``character`` in ``event``; ``other_player`` owns ``rival``.
"""

import copy
import datetime as dt
import os
import uuid

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone, translation

from cards.models import Card, Catalogue
from events.models import Character, Event, Side, StaffRole


def _in_days(days: int) -> dt.date:
    return timezone.localdate() + dt.timedelta(days=days)


def _user(username: str) -> User:
    return User.objects.create_user(username=username, password="pass-" + username)


@pytest.fixture
def catalogue(db) -> Catalogue:
    return Catalogue.objects.create(name="Test catalogue")


@pytest.fixture
def event(db, catalogue) -> Event:
    # Dates relative to today: the event is always still to come, whenever the tests run.
    return Event.objects.create(name="Night Watch", starts_on=_in_days(5), ends_on=_in_days(7), catalogue=catalogue)


@pytest.fixture
def other_event(db, catalogue) -> Event:
    return Event.objects.create(name="Day Watch", starts_on=_in_days(12), ends_on=_in_days(13), catalogue=catalogue)


@pytest.fixture
def organizer(event) -> User:
    user = _user("organizer")
    StaffRole.objects.create(event=event, user=user, role=StaffRole.Role.ORGANIZER)
    return user


@pytest.fixture
def referee(event) -> User:
    user = _user("referee")
    StaffRole.objects.create(event=event, user=user, role=StaffRole.Role.REFEREE)
    return user


@pytest.fixture
def other_organizer(other_event) -> User:
    user = _user("other_organizer")
    StaffRole.objects.create(event=other_event, user=user, role=StaffRole.Role.ORGANIZER)
    return user


@pytest.fixture
def player(db) -> User:
    return _user("player")


@pytest.fixture
def other_player(db) -> User:
    return _user("other_player")


@pytest.fixture
def personas(player, other_player, referee, organizer, other_organizer) -> dict[str, User | None]:
    """Every role of the access tests, by name (anonymous is None)."""
    return {
        "anonymous": None,
        "player": player,
        "other_player": other_player,
        "referee": referee,
        "organizer": organizer,
        "other_organizer": other_organizer,
    }


@pytest.fixture
def character(event, player) -> Character:
    return Character.objects.create(event=event, player=player, name="Anton", side=Side.LIGHT, power_level="5")


@pytest.fixture
def rival(event, other_player) -> Character:
    return Character.objects.create(event=event, player=other_player, name="Zavulon", side=Side.DARK, power_level="3")


@pytest.fixture
def attack_card(catalogue) -> Card:
    return Card.objects.create(
        catalogue=catalogue,
        name_ru="Огненный шар",
        name_en="Fireball",
        kind="attack",
        full_effect="heavily_wounded",
        softened_effect="lightly_wounded",
        tags="fire",
    )


@pytest.fixture
def defence_card(catalogue) -> Card:
    return Card.objects.create(catalogue=catalogue, name_ru="Щит мага", name_en="Mage Shield", kind="defence")


@pytest.fixture(autouse=True)
def english_by_default(settings):
    """Tests read English messages; the game's default language is Russian.

    A test about Russian asks for it (language cookie, Accept-Language or
    ``translation.override("ru")``).
    """
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    """Every test gets a cache of its own: the polls' cached versions are keyed by row ids, which a
    rolled-back test hands out again. A key prefix, not a flush: on Redis the same database may
    carry a real worker's queues."""
    caches = copy.deepcopy(settings.CACHES)
    if "redis" not in caches["default"]["BACKEND"]:
        # One process: local memory does what the embedded default's file cache does, without the files.
        caches["default"] = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches


def login_client(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def as_user():
    """``as_user(user)`` → a test client logged in as that user (None: anonymous)."""
    return login_client


# --- test-run policy (scripts/test.sh, .ci/run) ----------------------------------


def pytest_configure(config):
    # A real password hash costs about a second by design; tests create many users.
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """With CI=true nothing may skip (DESIGN.md §7): a skip for a missing service is a failure there."""
    report = yield
    if report.skipped and not hasattr(report, "wasxfail") and os.environ.get("CI", "").lower() == "true":
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"Skipped in CI, where nothing may skip: {reason}"
    return report


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector):
    """A whole module skipped at collection (``pytest.importorskip``) fails in CI too."""
    report = yield
    if report.skipped and os.environ.get("CI", "").lower() == "true":
        report.outcome = "failed"
        report.longrepr = f"Skipped in CI, where nothing may skip: {report.longrepr}"
    return report

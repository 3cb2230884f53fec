"""Fixtures of the web tests: more cards for the arsenal pages, and the no-server-error world."""

import copy
import datetime as dt
import uuid
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import time_machine
from django.contrib.auth.models import User
from django.db import transaction
from django.test import override_settings
from django.utils import timezone, translation

from bench.fights import extend
from cards.models import Card
from events import link_cache
from events.models import Event, StaffRole
from tests.makers import (
    make_attack_card,
    make_catalogue,
    make_character,
    make_defence_card,
    make_event,
    make_organizer,
    make_other_event,
    make_other_organizer,
    make_referee,
    make_rival,
    make_user,
)
from tests.resilience.servers import OwnRedis, redis_cache
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


def add_sweep_personas(personas: dict[str, User | None], other_event: Event) -> dict[str, User | None]:
    """The access tests' personas, and three more the bad-input sweeps must also survive."""
    inactive = User.objects.create_user("inactive")
    inactive.is_active = False
    inactive.save()
    other_referee = User.objects.create_user("other_referee")
    StaffRole.objects.create(event=other_event, user=other_referee, role=StaffRole.Role.REFEREE)
    superuser = User.objects.create_superuser("site_root", password="pass-site-root")
    return {**personas, "inactive": inactive, "other_referee": other_referee, "superuser": superuser}


@pytest.fixture
def sweep_personas(personas, other_event):
    return add_sweep_personas(personas, other_event)


@pytest.fixture
def sessions_in_cookies(settings):
    """The sweeps send thousands of requests: a session row read per request would be a third of their time."""
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"


# --- the sweeps' world, built once per module ---------------------------------------------------


def _built_world(extend: Any) -> SimpleNamespace:
    """What the ``world`` and ``sweep_personas`` fixtures make (tests/conftest.py's personas and
    fight objects), then ``extend(world, personas)`` if given."""
    catalogue = make_catalogue()
    event, other_event = make_event(catalogue), make_other_event(catalogue)
    player, other_player = make_user("player"), make_user("other_player")
    personas: dict[str, User | None] = {
        "anonymous": None,
        "player": player,
        "other_player": other_player,
        "referee": make_referee(event),
        "organizer": make_organizer(event),
        "other_organizer": make_other_organizer(other_event),
    }
    personas = add_sweep_personas(personas, other_event)
    character, rival = make_character(event, player), make_rival(event, other_player)
    cards = (make_attack_card(catalogue), make_defence_card(catalogue))
    world = build_world(personas, event, other_event, character, rival, cards)
    if extend is not None:
        world = extend(world, personas)
    return SimpleNamespace(world=world, personas=personas)


@pytest.fixture(scope="module")
def shared_world(request, django_db_setup, django_db_blocker) -> Iterator[tuple[dt.datetime, SimpleNamespace]]:
    """The sweep's world, built once for the module in a transaction rolled back at its end.

    Each test's own transaction (pytest-django's ``db``) is a savepoint inside it, as Django's
    ``TestCase.setUpTestData`` does, so every test still meets the same world; ``world_once``
    hands each a deep copy and its clock. The module may name ``extend_world(world, personas)``
    (test_no_server_errors_kinds.py adds a fight of every kind). Built as the function-scoped
    fixtures would: English, no broker (the autouse ``no_broker``), a cache of its own.
    """
    extend = getattr(request.module, "extend_world", None)
    cache = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "KEY_PREFIX": uuid.uuid4().hex}}
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            with (
                pytest.MonkeyPatch.context() as patch,
                override_settings(CACHES=cache, LANGUAGE_CODE="en"),
                translation.override("en"),
            ):
                patch.setattr("duels.services.store.schedule_expiry", lambda situation_id, deadline: None)
                built = _built_world(extend)
            built_at = timezone.now()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    yield built_at, built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


@pytest.fixture
def world_once(shared_world, db) -> Iterator[SimpleNamespace]:
    """The module's world for one test: a deep copy, and the clock back at the moment it was built.

    The clock runs on from there (``tick=True``), so each test meets the world's deadlines as a
    world built just for it would: no answer window or situation gap can pass between tests,
    however long the module runs.
    """
    built_at, built = shared_world
    with time_machine.travel(built_at, tick=True):
        yield copy.deepcopy(built)


@pytest.fixture
def long_fight(fight, referee):
    """A duel of 300 more log entries (bench/fights.py plays them): the pages' bounds in a long fight."""
    extend(fight, 300, actor=referee)
    fight.refresh_from_db()
    return fight


@pytest.fixture
def on_redis(settings, tmp_path):
    """The cache on Redis even in the embedded run (no REDIS_URL): a Redis of the test's own."""
    if link_cache.enabled():
        yield
        return
    server = OwnRedis(tmp_path)
    server.start()
    try:
        with redis_cache(settings, server.url):
            assert link_cache.enabled()
            yield
    finally:
        server.stop()

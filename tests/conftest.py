"""Shared fixtures: fixed personas for every role (DESIGN.md §7).

- organizer / referee of ``event``; organizer of ``other_event``;
- ``player`` owns ``character`` in ``event``; ``other_player`` owns ``rival``.
"""

import copy
import os
import uuid
from pathlib import Path

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.utils import translation

import demo
from cards.models import Card, Catalogue
from duels.duel.start import declare_aggression
from events.models import Character, Event, Side
from helpers.outage import BROKER, DATABASE, DISK
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
from tests.resilience.servers import close_cache_connections
from tests.services.battle_kit import begin, party
from tests.services.kit import SECRET_ANTON, SECRET_ZAVULON, arm, nonce, parries


@pytest.fixture
def catalogue(db) -> Catalogue:
    return make_catalogue()


@pytest.fixture
def event(db, catalogue) -> Event:
    return make_event(catalogue)


@pytest.fixture
def other_event(db, catalogue) -> Event:
    return make_other_event(catalogue)


@pytest.fixture
def organizer(event) -> User:
    return make_organizer(event)


@pytest.fixture
def referee(event) -> User:
    return make_referee(event)


@pytest.fixture
def other_organizer(other_event) -> User:
    return make_other_organizer(other_event)


@pytest.fixture
def player(db) -> User:
    return make_user("player")


@pytest.fixture
def other_player(db) -> User:
    return make_user("other_player")


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
    return make_character(event, player)


@pytest.fixture
def rival(event, other_player) -> Character:
    return make_rival(event, other_player)


@pytest.fixture
def attack_card(catalogue) -> Card:
    return make_attack_card(catalogue)


@pytest.fixture
def defence_card(catalogue) -> Card:
    return make_defence_card(catalogue)


# --- a fight's world: the services, timers, concurrency and the fight pages ------------------------
# Anton holds 2 x Fireball (attack, fire: heavy wound, light when softened) and
# Mage Shield (defence, parries fire); Zavulon holds Spark (attack, tag spark:
# light wound) and Mage Shield.


@pytest.fixture
def spark(catalogue) -> Card:
    return Card.objects.create(
        catalogue=catalogue,
        name_ru="Искра",
        name_en="Spark",
        kind="attack",
        full_effect="lightly_wounded",
        tags="spark",
    )


@pytest.fixture
def armed(character, rival, attack_card, defence_card, spark):
    parries(defence_card, "fire")
    arm(character, (attack_card, 2), defence_card)
    arm(rival, spark, defence_card)
    return character, rival


# D4: a card in each hand that no test ever plays, so its name must never reach a
# page that may not see that hand. The fight pages' tests ask for it with
# ``pytestmark = pytest.mark.usefixtures("secret_hands")`` (before ``shown``/``fight``
# are built, so the fighters join with it).
@pytest.fixture
def secret_hands(armed, catalogue):
    anton, zavulon = armed
    for fighter, (name_ru, name_en) in ((anton, SECRET_ANTON), (zavulon, SECRET_ZAVULON)):
        arm(fighter, Card.objects.create(catalogue=catalogue, name_ru=name_ru, name_en=name_en, kind="defence"))
    return armed


@pytest.fixture
def bystander(event) -> Character:
    return Character.objects.create(event=event, name="Olga", side=Side.LIGHT)


@pytest.fixture
def fight(armed, referee):
    """Aggression by a spoken declaration: Anton attacks first (AG1, D5), nothing shown yet."""
    anton, zavulon = armed
    return declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce()).situation


@pytest.fixture
def shown(armed, referee, attack_card):
    """Anton has shown a Fireball to Zavulon (AG1); the answer window is open (D8)."""
    anton, zavulon = armed
    return declare_aggression(anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation


@pytest.fixture
def people(event) -> list[Character]:
    """A battle's combatants, from tests/services/battle_kit.py's party."""
    return party(event)


@pytest.fixture
def battle(event, people, referee):
    """A battle of the four ``people`` (two sides), just started: Anna declared it and acts first (D5)."""
    return begin(event, people, referee)


@pytest.fixture
def clock(request):
    """The clock stopped at the test module's ``T0``; ``clock.shift(...)`` moves it (D8, S2 deadlines)."""
    with time_machine.travel(request.module.T0, tick=False) as traveller:
        yield traveller


@pytest.fixture
def running(armed, event, referee, attack_card):
    """A fight on the spectators' list: Anton has shown a Fireball to Zavulon (AG1); the answer window is open."""
    anton, zavulon = armed
    return declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation


@pytest.fixture
def demo_event(db) -> Event:
    """The demo game «Ночной Дозор: Сумрак» (the demo, lab and browser tests read it)."""
    return demo.load()


@pytest.fixture
def demo_organizer(demo_event, django_user_model, client):
    """The test client signed in as the demo's organizer, in English."""
    client.force_login(django_user_model.objects.get(username="organizer"))
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture(autouse=True)
def no_broker(request, monkeypatch):
    """A commit must not reach a Celery broker: reads and the sweeper apply deadlines anyway.

    The timer tests mark themselves ``real_timers`` to see what is sent.
    """
    if request.node.get_closest_marker("real_timers") is None:
        monkeypatch.setattr("duels.services.store.schedule_expiry", lambda situation_id, deadline: None)


@pytest.fixture(autouse=True)
def no_outage_carried_over():
    """Every test starts with the broker, the database and the disk answering (helpers/outage.py).

    Their outage records live in the process: a test that makes a send fail leaves the broker "away",
    and for ``retry_seconds`` after it the next test's timers and jobs are not even tried. The D8
    worker test, 1.4 s after tests/timers/test_deadlines.py's broker-down test, had its timer never
    sent and failed (docs/testing.md, "A broker outage carried over").
    """
    for outage in (BROKER, DATABASE, DISK):
        outage._since, outage._last_try = None, 0.0


# --- clients ---------------------------------------------------------------------------------------


@pytest.fixture
def org(as_user, organizer) -> Client:
    """The event's organizer, reading English."""
    client = as_user(organizer)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def admin_client_(as_user, db) -> Client:
    """A superuser: the only kind of account the admin lets in (config/admin.py)."""
    return as_user(User.objects.create_superuser("root", "root@example.org", "pass-root"))


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
    yield
    # Django never closes a replaced cache's Redis connections, and this thread's replaced backends stay
    # referenced (its cache handler's context variable): one more socket per test, until a full run's
    # browser tests held more than 1024 and the database proxy's select() failed (test_service_outages).
    close_cache_connections()


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


# Alone, never beside an xdist worker (scripts/test.sh runs ``-m serial`` after the parallel part):
# what drives a real browser against a live server (timed taps, 15-second windows), races real
# connections or threads on PostgreSQL, or starts its own servers, workers, launcher or mypy.
# The embedded pass leaves these paths out; the PostgreSQL pass runs them after the rest.
SERIAL_PATHS = (
    "browser/",
    "concurrency/",
    "timers/test_celery_worker.py",
    "timers/test_launcher_restarts.py",
    "test_documented_commands.py",
    "test_settings_production.py",
    "test_kinds_protocol.py",
    "test_launcher_first_hour.py",
)
TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    for item in items:
        where = item.path.relative_to(TESTS).as_posix() if item.path.is_relative_to(TESTS) else ""
        if where.startswith(SERIAL_PATHS):
            item.add_marker(pytest.mark.serial)


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


@pytest.fixture
def cards(event):
    """The mass battle's magic cards of ``event``'s catalogue, by name (tests/services/mass_kit.py)."""
    from tests.services.mass_kit import magic_cards

    return magic_cards(event)

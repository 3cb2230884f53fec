"""Redis or PostgreSQL going away during a live fight of each kind (issue 26).

The cache, the cached sessions and Celery's broker are a Redis of the test's own; the live server's
database connections go through a proxy the test cuts (tests/resilience/servers.py). The machine's
own PostgreSQL and Redis are never stopped.

- Redis away: nothing answers 5xx; the referee's tap is applied once (its timer is left to the
  sweeper and the page loads); the spectator's page follows; Redis back, everything carries on.
- PostgreSQL away: the pages answer 503 only; the referee's live fragment and the spectator's keep
  their last state under the "reconnecting" badge; a spectator who reloads gets the 503 page in the
  app's layout; a tap is kept. Back: within 2 s (plus what two page loads take on the machine at that
  moment) every page is itself again, by itself, and the kept tap is applied once.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import expect

from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.models import Event
from tests.resilience.servers import (
    OwnRedis,
    TcpProxy,
    database_through,
    need,
    redis_broker,
    redis_cache,
    upstream_of_database,
)
from tests.services.battle_kit import begin, party
from tests.services.kit import nonce
from tests.services.mass_kit import armies, magic_cards
from tests.services.mass_kit import start as start_mass

pytestmark = [pytest.mark.browser, pytest.mark.real_timers]
KINDS = ["duel", "battle", "mass"]
# The bound: every page is itself again this soon after the service's return.
RECOVERY_MS = 2000
# How long an expectation waits before failing; the recovery is then timed against the machine's own pace.
WAIT_MS = 15_000


@dataclass
class Fight:
    situation: Situation
    referee_url: str
    watch_url: str
    live: str  # the referee's live fragment, with data-version
    form: str  # the tapped form (its nonce)
    tap: Callable[[Any], None]


def _fight(kind: str, event: Event, referee, url, armed) -> Fight:
    Event.objects.filter(pk=event.pk).update(answer_window_s=120)
    event.refresh_from_db()
    if kind == "duel":
        anton, zavulon = armed
        situation = declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce()).situation
        return Fight(
            situation,
            url("duels:situation", situation.pk),
            url("duels:watch", situation.pk),
            "#fight",
            "form[data-action=attack]",
            lambda page: page.locator("form[data-action=attack] button[name=card]").first.click(),
        )
    if kind == "battle":
        anna, boris, vera, gleb = party(event)
        situation = begin(event, [anna, boris, vera, gleb], user=referee)

        def attack(page) -> None:
            page.locator("#turn-form label.btn", has_text="Blade").first.click()
            page.locator(f"label[for='target-{vera.pk}']").click()
            page.locator("#act-attack").click()

        return Fight(
            situation,
            url("duels:battle", situation.pk),
            url("duels:watch", situation.pk),
            "#battle",
            "#turn-form",
            attack,
        )
    magic_cards(event)
    red, blue = armies(event)
    situation = start_mass(event, referee, red, blue)
    return Fight(
        situation,
        url("duels:mass", situation.pk),
        url("duels:mass-watch", situation.pk),
        "#mass",
        "form[data-action=roll_server]",
        lambda page: page.locator("#roll-server").click(),
    )


@pytest.fixture
def own_redis(tmp_path, settings):
    """A Redis of the test's own as the cache, the sessions' cache and the broker."""
    server = OwnRedis(tmp_path)
    server.start()
    with redis_cache(settings, server.url), redis_broker(server.url):
        yield server
    server.stop()


def _version(situation_id: int) -> int:
    return Situation.objects.get(pk=situation_id).version


def _open(tablet, log_in_as, referee, fight: Fight):
    """The referee's tablet and a spectator's screen, each recording every status it got."""
    statuses: list[tuple[int, str]] = []
    referee_page, spectator = tablet(), tablet()
    for page in (referee_page, spectator):
        page.on("response", lambda r: statuses.append((r.status, r.url)))
    log_in_as(referee_page, referee)
    referee_page.goto(fight.referee_url)
    spectator.goto(fight.watch_url)
    try:
        expect(referee_page.locator(fight.live)).to_have_attribute("data-version", str(fight.situation.version))
        expect(spectator.locator("[data-live]")).to_be_visible()
    except AssertionError as error:
        # Before anything was cut: say what the server met (CI once saw the 503 page here, unexplained).
        raise AssertionError(f"{error}\nstatuses: {statuses}\n{_database_load()}") from error
    return referee_page, spectator, statuses


def _database_load() -> str:
    """The server's connections by database, client and state, against its limit."""
    if connection.vendor != "postgresql":
        return ""
    with connection.cursor() as cursor:
        cursor.execute("show max_connections")
        limit = cursor.fetchone()[0]
        cursor.execute(
            "select count(*), datname, application_name, state from pg_stat_activity"
            " where backend_type = 'client backend' group by 2, 3, 4 order by 1 desc"
        )
        rows = cursor.fetchall()
    descriptors = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else "?"
    return (
        f"PostgreSQL: {sum(r[0] for r in rows)} connections of max_connections={limit}: {rows};"
        f" this process holds {descriptors} file descriptors"
    )


@pytest.mark.parametrize("kind", KINDS)
def test_redis_away_no_5xx_and_the_referees_tap_is_applied_once(
    tablet, log_in_as, url, screenshot, referee, event, armed, own_redis, kind, caplog
):
    fight = _fight(kind, event, referee, url, armed)
    referee_page, spectator, statuses = _open(tablet, log_in_as, referee, fight)
    version = fight.situation.version
    spectator_etag = spectator.locator("[data-live]").get_attribute("data-etag")
    sent = referee_page.locator(f"{fight.form} input[name=nonce]").input_value()

    own_redis.stop()
    fight.tap(referee_page)
    expect(referee_page.locator(fight.live)).to_have_attribute("data-version", str(version + 1))
    # The spectator's poll answers from the database while the cache is away.
    expect(spectator.locator("[data-live]")).not_to_have_attribute("data-etag", spectator_etag or "", timeout=6000)
    referee_page.reload()  # a whole page, its session read from the database
    expect(referee_page.locator(fight.live)).to_have_attribute("data-version", str(version + 1))
    expect(referee_page.locator("#poll-status")).to_be_hidden()
    screenshot(referee_page, f"{kind}-redis-away")

    own_redis.start()
    referee_page.wait_for_timeout(2500)  # polls with the cache back
    assert LogEntry.objects.filter(nonce=sent).count() == 1
    assert _version(fight.situation.pk) == version + 1
    assert not [s for s in statuses if s[0] >= 500], statuses
    # One warning for the cache's outage, not one per request.
    cache_lines = [r for r in caplog.records if r.name == "sumrak.outage" and "cache (Redis)" in r.getMessage()]
    assert [r.levelname for r in cache_lines if r.levelname == "WARNING"] == ["WARNING"]


@pytest.fixture
def database_proxy(transactional_db):
    if connection.vendor != "postgresql":
        need("the database outage test cuts a proxy in front of PostgreSQL: set DATABASE_URL=postgres://...")
    proxy = TcpProxy(upstream_of_database())
    proxy.start()
    with database_through(proxy):
        yield proxy
    proxy.stop()


@pytest.mark.parametrize("kind", KINDS)
def test_postgresql_away_the_pages_reconnect_by_themselves_and_the_kept_tap_is_applied_once(
    tablet, log_in_as, url, screenshot, referee, event, armed, own_redis, database_proxy, kind
):
    fight = _fight(kind, event, referee, url, armed)
    referee_page, spectator, statuses = _open(tablet, log_in_as, referee, fight)
    version = fight.situation.version
    sent = referee_page.locator(f"{fight.form} input[name=nonce]").input_value()

    database_proxy.cut()
    badge = referee_page.locator("#poll-status")
    expect(badge).to_be_visible(timeout=6000)
    expect(badge).to_have_attribute("data-cause", "database")
    expect(badge.locator("[data-poll=database]")).to_be_visible()
    expect(badge).to_contain_text("Reconnecting")
    # The last state stays on screen.
    expect(referee_page.locator(fight.live)).to_have_attribute("data-version", str(version))
    fight.tap(referee_page)
    expect(referee_page.locator("#net-banner [data-net=kept]")).to_be_visible()
    assert LogEntry.objects.filter(nonce=sent).count() == 0
    spectator.reload()
    expect(spectator.locator("#unavailable")).to_contain_text("The game's database is restarting")
    expect(spectator.locator("nav.navbar")).to_be_visible()  # in the app's layout
    screenshot(referee_page, f"{kind}-database-away-referee")
    screenshot(spectator, f"{kind}-database-away-spectator")

    resumed = time.monotonic()
    database_proxy.resume()
    expect(badge).to_be_hidden(timeout=WAIT_MS)
    expect(spectator.locator("[data-live]")).to_be_visible(timeout=WAIT_MS)
    recovered = time.monotonic() - resumed
    expect(spectator.locator("#unavailable")).to_have_count(0)
    # The 2 s, on top of what two page loads take on this machine now (the 503 page's probe, then
    # its reload): on a loaded 2-core CI machine a load alone can take a second; a page that waited
    # for anything longer than its next 1 s retry would still be caught.
    started = time.monotonic()
    spectator.reload()
    expect(spectator.locator("[data-live]")).to_be_visible(timeout=WAIT_MS)
    one_load = time.monotonic() - started
    assert recovered < RECOVERY_MS / 1000 + 2 * one_load, (
        f"back after {recovered:.1f} s; a page load takes {one_load:.1f} s"
    )
    # The kept tap goes when the database answers again: applied once.
    expect(referee_page.locator(fight.live)).to_have_attribute("data-version", str(version + 1), timeout=8000)
    expect(referee_page.locator("#net-banner")).to_be_hidden()
    referee_page.wait_for_timeout(3500)  # another resend round and polls: nothing more may be applied
    assert LogEntry.objects.filter(nonce=sent).count() == 1
    assert _version(fight.situation.pk) == version + 1
    assert {s for s, _ in statuses if s >= 500} <= {503}, [s for s in statuses if s[0] >= 500 and s[0] != 503]
    assert any(s == 503 for s, _ in statuses)
    screenshot(referee_page, f"{kind}-database-back")

"""The early poll path (config/early.py) answers a 304 only when safe, and exactly as Django's full path would.

Each poll goes through the WSGI applications themselves: ``EarlyPolls``
around an application that records whether it was reached (so a 304 is known
to be the early path's own), and Django's handler without the poll shortcut
(the view's own answer). The player's link needs Redis (its answer is cached
only there, events/link_cache.py): those tests are skipped on the file cache.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import time
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from django.utils.http import http_date

from config.early import EXPECTED_MIDDLEWARE, EarlyPolls
from duels.services.live import meta_key
from duels.web.live import fragment_key
from duels.web.polls import PLAYER_FRAGMENT, SEEN, Seen, watch_fragment
from events import link_cache
from tests.web.early_kit import (
    PRODUCTION,
    SHORTCUT,
    WITHOUT_SHORTCUT,
    Inner,
    call,
    compared,
    current_etag,
    poll_environ,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_links(on_redis):
    """A link's answer is cached only with Redis: a Redis of the test's own in the embedded run."""


@pytest.fixture
def spectator_poll(client, fight):
    url = reverse("duels:watch", args=[fight.pk])
    return url, current_etag(client, url)


@pytest.fixture
def player_poll(client, fight, character, redis_links):
    url = reverse("duels:player-live-token", args=[character.link_token])
    link_cache.forget_all()  # the fixtures' writes, as if committed
    return url, current_etag(client, url)


def _answered(url: str, etag: str, **kw: Any) -> tuple[int, list[tuple[str, str]], Inner]:
    inner = Inner()
    status, headers, _body = call(EarlyPolls(inner), poll_environ(url, etag, **kw))
    return status, headers, inner


def _fell_through(url: str, etag: str, **kw: Any) -> Inner:
    inner = Inner()
    status, _headers, body = call(EarlyPolls(inner), poll_environ(url, etag, **kw))
    assert (status, body) == (200, b"full path"), "the early path answered a poll it must leave to Django"
    assert len(inner.reached) == 1
    return inner


def test_the_early_path_stands_for_these_middleware_in_this_order():
    # A middleware added, removed or moved: review the 304's headers in config/early.py, then this list.
    assert tuple(settings.MIDDLEWARE) == EXPECTED_MIDDLEWARE
    assert EarlyPolls(Inner()).on


@pytest.mark.parametrize("production", [False, True])
@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("who", ["spectator_poll", "player_poll"])
def test_the_early_304_is_the_full_paths(request, client, who, language, production):
    url, _etag = request.getfixturevalue(who)
    etag = current_etag(client, url, language)
    with override_settings(**(PRODUCTION if production else {})):
        status, headers, inner = _answered(url, etag, language=language, secure=production)
        assert status == 304 and not inner.reached, "the early path did not answer an unchanged poll"
        with override_settings(MIDDLEWARE=WITHOUT_SHORTCUT):
            full_status, full_headers, full_body = call(WSGIHandler(), poll_environ(url, etag, language, production))
        _, shortcut_headers, _ = call(WSGIHandler(), poll_environ(url, etag, language, production))
    assert full_status == 304 and full_body == b""
    assert compared(headers) == compared(full_headers) == compared(shortcut_headers)
    assert [k for k, _v in headers].count("Expires") == 1
    assert ("Content-Language", language) in headers
    assert ("Strict-Transport-Security" in dict(headers)) is production


@pytest.mark.parametrize("who", ["spectator_poll", "player_poll"])
def test_a_changed_poll_goes_the_full_way_with_what_was_read(request, client, who):
    url, etag = request.getfixturevalue(who)
    # Not rendered by any viewer yet (a version rendered already is answered early: test_poll_early_changed.py).
    cache.delete(fragment_key(watch_fragment("duel") if who == "spectator_poll" else PLAYER_FRAGMENT, etag))
    inner = _fell_through(url, '"older"')
    seen = inner.reached[0][SEEN]
    assert isinstance(seen, Seen) and seen.cached is not None  # the view reads nothing twice
    status, headers, body = call(EarlyPolls(WSGIHandler()), poll_environ(url, '"older"'))
    assert status == 200 and dict(headers)["ETag"] == etag
    full = client.get(url, headers={"HX-Request": "true", "If-None-Match": '"older"'}).content
    # The same fragment (its clock, nonces and CSRF token aside: the same length) of the current version.
    assert len(body) == len(full) and etag.strip('"').encode() in body


@pytest.mark.parametrize("change", ["revoke_link", "regenerate_link"])
@pytest.mark.parametrize("committed", [False, True])
def test_a_revoked_or_rotated_link_gets_no_304_from_the_early_path(
    player_poll, character, change, committed, django_capture_on_commit_callbacks
):
    url, etag = player_poll
    assert _answered(url, etag)[0] == 304
    # Not committed: the writer's mark is set (its callback never ran). Committed: a fresh generation.
    with django_capture_on_commit_callbacks(execute=committed):
        getattr(character, change)()
    _fell_through(url, etag)
    with override_settings(MIDDLEWARE=WITHOUT_SHORTCUT):
        assert call(EarlyPolls(WSGIHandler()), poll_environ(url, etag))[0] == 404


def test_a_pending_mark_sends_the_poll_the_full_way(player_poll, character):
    url, etag = player_poll
    scopes = link_cache.begin([link_cache.character_scope(character.pk)])
    _fell_through(url, etag)
    link_cache._settle(scopes)  # the write committed and settled: a new generation, the answer read afresh
    _fell_through(url, etag)
    call(EarlyPolls(WSGIHandler()), poll_environ(url, etag))  # the full path keeps the link's answer again
    assert _answered(url, etag)[0] == 304


@pytest.mark.parametrize("who", ["spectator_poll", "player_poll"])
def test_any_other_middleware_list_turns_the_early_path_off(request, who):
    url, etag = request.getfixturevalue(who)
    moved = [SHORTCUT, *WITHOUT_SHORTCUT]
    for middleware in (moved, WITHOUT_SHORTCUT, [*settings.MIDDLEWARE, "django.middleware.gzip.GZipMiddleware"]):
        with override_settings(MIDDLEWARE=middleware):
            assert not EarlyPolls(Inner()).on
            _fell_through(url, etag)


@pytest.mark.parametrize(
    "unusual",
    [
        {"Host": "elsewhere.example"},  # CommonMiddleware: a 400
        {"Cookie": "csrftoken=short"},  # CsrfViewMiddleware sets a new cookie
        {"Cookie": "sessionid=abc"},  # SessionMiddleware deletes it
        {"HX-Request": "false"},
        {"If-None-Match": ""},
    ],
)
def test_a_poll_the_skipped_middleware_would_treat_otherwise_goes_the_full_way(spectator_poll, unusual):
    url, etag = spectator_poll
    _fell_through(url, etag, **unusual)


def test_a_body_or_an_https_redirect_goes_the_full_way(spectator_poll):
    url, etag = spectator_poll
    environ = poll_environ(url, etag)
    environ["CONTENT_LENGTH"] = "3"
    inner = Inner()
    assert call(EarlyPolls(inner), environ)[0] == 200 and inner.reached
    with override_settings(**PRODUCTION):
        _fell_through(url, etag)  # plain http: SecurityMiddleware redirects it
        assert _answered(url, etag, secure=True)[0] == 304


def test_a_fight_past_its_deadline_goes_the_full_way(spectator_poll, fight):
    url, etag = spectator_poll
    meta = cache.get(meta_key(fight.pk))
    past = timezone.now() - dt.timedelta(seconds=1)
    cache.set(meta_key(fight.pk), dataclasses.replace(meta, next_deadline=past))
    _fell_through(url, etag)


def test_an_error_in_the_early_path_is_never_a_500(spectator_poll, monkeypatch):
    url, etag = spectator_poll

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    app = EarlyPolls(Inner())
    monkeypatch.setattr(app, "current", broken)
    status, _headers, _body = call(app, poll_environ(url, etag))
    assert status == 200


def test_the_link_check_reloads_its_script_after_a_redis_restart(player_poll, character):
    url, etag = player_poll
    link_cache._backend().redis_client().script_flush()  # as a restarted Redis: NOSCRIPT once, then loaded
    assert link_cache.cached(character.link_token, "{c}")[0] is not None
    assert _answered(url, etag)[0] == 304


def test_the_expires_header_is_the_clocks_second(monkeypatch):
    app = EarlyPolls(Inner())
    for second in (1_800_000_000.2, 1_800_000_000.9, 1_800_000_001.0):
        monkeypatch.setattr(time, "time", lambda second=second: second)
        assert app.now() == http_date(second)


def test_a_host_allowed_once_is_asked_again_when_the_setting_changes(spectator_poll):
    url, etag = spectator_poll
    inner = Inner()
    app = EarlyPolls(inner)
    assert call(app, poll_environ(url, etag))[0] == 304 and not inner.reached
    with override_settings(ALLOWED_HOSTS=["sumrak.example"]):
        assert call(app, poll_environ(url, etag))[0] == 200 and inner.reached  # Django's 400 then
    assert call(app, poll_environ(url, etag, Host="elsewhere.example"))[0] == 200


def test_a_failure_is_logged_without_the_secret_link(player_poll, character, monkeypatch, caplog):
    url, etag = player_poll

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError(f"a bug near {character.link_token}")

    app = EarlyPolls(Inner())
    monkeypatch.setattr(app, "current", broken)
    assert call(app, poll_environ(url, etag))[0] == 200
    logged = "\n".join(caplog.text.splitlines())
    assert "the early poll path failed (RuntimeError at" in logged
    assert character.link_token not in logged


def test_a_changed_poll_is_read_once(player_poll, monkeypatch):
    # What the early path read travels on: neither the shortcut nor the view asks the cache for the link again.
    from duels import views_player
    from duels.web import shortcut

    url, _etag = player_poll
    asked: list[str] = []
    for module in (shortcut, views_player):
        monkeypatch.setattr(module, "link_poll", lambda token, asked=asked: asked.append(token))
    status, _headers, _body = call(EarlyPolls(WSGIHandler()), poll_environ(url, '"older"'))
    assert status == 200 and asked == []

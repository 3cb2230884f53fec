"""The unchanged-poll shortcut (duels.web.shortcut) answers exactly as the full path does.

Each poll is sent twice, once with the middleware and once without it, for a
spectator and a player's link, unchanged and changed, anonymous and signed
in, in both languages; status and headers must be the same (``Expires`` is
the clock's second). A 304 it answered never reached the session middleware.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.urls import resolve, reverse

from duels import views_player, views_public
from events import link_cache

pytestmark = pytest.mark.django_db
SHORTCUT = "duels.web.shortcut.UnchangedPollMiddleware"
WITHOUT = [m for m in settings.MIDDLEWARE if m != SHORTCUT]


def _headers(response):
    return {k.lower(): v for k, v in response.headers.items() if k.lower() != "expires"}


def _counted(client, url, headers):
    sent = []

    def count(execute, sql, *args):
        sent.append(sql)
        return execute(sql, *args)

    with connection.execute_wrapper(count):
        response = client.get(url, headers=headers)
    return response, len(sent)


def _both(client, url, headers):
    short, statements = _counted(client, url, headers)
    with override_settings(MIDDLEWARE=WITHOUT):
        full = client.get(url, headers=headers)
    return short, full, statements


def test_the_poll_urls_are_the_views_the_shortcut_stands_for():
    assert resolve("/watch/7/").func is views_public.watch
    assert resolve("/c/abc_-9/live/").func is views_player.player_live_token
    assert SHORTCUT in settings.MIDDLEWARE
    assert settings.MIDDLEWARE.index(SHORTCUT) < settings.MIDDLEWARE.index(
        "django.contrib.sessions.middleware.SessionMiddleware"
    )


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize("who", ["spectator", "player"])
def test_the_shortcut_answers_as_the_full_path(client, fight, character, referee, who, signed_in, language):
    if signed_in:
        client.force_login(referee)
    url = (
        reverse("duels:watch", args=[fight.pk])
        if who == "spectator"
        else reverse("duels:player-live-token", args=[character.link_token])
    )
    hx = {"HX-Request": "true", "Accept-Language": language}
    link_cache.forget_all()  # the fixtures' writes, as if committed
    etag = client.get(url, headers=hx)["ETag"]
    client.get(url, headers={**hx, "If-None-Match": etag})  # a first poll keeps the link's answer

    short, full, statements = _both(client, url, {**hx, "If-None-Match": etag})
    assert short.status_code == full.status_code == 304
    assert _headers(short) == _headers(full)
    assert "expires" in {k.lower() for k in short.headers}
    assert short["Content-Language"] == language
    assert not hasattr(short.wsgi_request, "session"), "the shortcut answered, not the full path"
    # The player's link: its cached answer with Redis (events/link_cache.py), else one statement.
    assert statements == (0 if who == "spectator" or link_cache.enabled() else 1)

    short, full, _ = _both(client, url, {**hx, "If-None-Match": '"older"'})
    assert short.status_code == full.status_code == 200
    assert _headers(short).keys() == _headers(full).keys()
    assert short["ETag"] == full["ETag"] == etag


def test_a_malformed_csrf_cookie_goes_the_full_way(client, fight):
    url = reverse("duels:watch", args=[fight.pk])
    hx = {"HX-Request": "true"}
    etag = client.get(url, headers=hx)["ETag"]
    client.cookies[settings.CSRF_COOKIE_NAME] = "short"
    short, full, _ = _both(client, url, {**hx, "If-None-Match": etag})
    assert short.status_code == full.status_code == 304
    assert hasattr(short.wsgi_request, "session")
    assert _headers(short).keys() == _headers(full).keys()


def test_a_revoked_link_is_refused_by_the_shortcut_too(client, fight, character):
    url = reverse("duels:player-live-token", args=[character.link_token])
    hx = {"HX-Request": "true"}
    etag = client.get(url, headers=hx)["ETag"]
    character.revoke_link()
    response, statements = _counted(client, url, {**hx, "If-None-Match": etag})
    assert response.status_code == 404
    assert statements == 1  # the view took the shortcut's refusal, not a second look

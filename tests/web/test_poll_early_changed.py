"""A changed poll answered before Django from the fragment another viewer had rendered (config/early.py).

For a fight of each kind, the spectator's poll and the player's (a mass
battle has no character in it: its player polls the arsenal, which the early
path leaves to Django) of a version some viewer had rendered already are
answered by the early path with the full path's very answer: the same
headers, value for value (the clock stopped, so Expires and the cookie's
expiry too), the same body but for what each response draws afresh (the
nonces, the CSRF token's mask). What it cannot answer goes the full way, told
what it read and that the fragment was not cached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
import time_machine
from django.core.cache import cache
from django.core.handlers.wsgi import WSGIHandler
from django.middleware.csrf import CSRF_ALLOWED_CHARS
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from config.early import EarlyPolls
from duels.models import Situation
from duels.services import live as live_meta
from duels.web import live
from duels.web.polls import PLAYER_FRAGMENT, SEEN, Seen, watch_fragment
from events import link_cache
from tests.services.mass_kit import armies, start
from tests.web.early_kit import PRODUCTION, WITHOUT_SHORTCUT, Inner, call, current_etag, poll_environ

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("on_redis")]
TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([A-Za-z0-9]{64})"')
SECRET = "Sumrak0polls0a0changed0version0"[:32].ljust(32, "x")  # a browser's CSRF cookie (32 of [a-zA-Z0-9])
NONCE = re.compile(rb'name="nonce" value="([0-9a-f]{32})"')


@dataclass
class Fight:
    kind: str
    situation: Situation
    watch: str
    player: str | None  # a fighter's secret link's poll; None: no character fights in it


def _fight(request: Any, kind: str) -> Fight:
    event, referee = request.getfixturevalue("event"), request.getfixturevalue("referee")
    if kind == "duel":
        situation, fighter = request.getfixturevalue("fight"), request.getfixturevalue("character")
    elif kind == "battle":
        situation, fighter = request.getfixturevalue("battle"), request.getfixturevalue("people")[0]
    else:
        request.getfixturevalue("cards")  # the catalogue's magic cards
        red, blue = armies(event)
        situation, fighter = start(event, referee, red, blue), None
    assert situation.kind == kind
    watch = reverse("duels:mass-watch" if situation.kind == "mass_battle" else "duels:watch", args=[situation.pk])
    player = reverse("duels:player-live-token", args=[fighter.link_token]) if fighter is not None else None
    link_cache.forget_all()  # the fixtures' writes, as if committed
    return Fight(kind, situation, watch, player)


@pytest.fixture(params=["duel", "battle", "mass_battle"])
def kind_fight(request) -> Fight:
    """A fight of each kind."""
    return _fight(request, request.param)


@pytest.fixture(params=["duel", "battle"])
def fighters_fight(request) -> Fight:
    """A fight of each kind a character fights in (a mass battle's warriors are the armies':
    test_a_mass_battle_s_player_polls_the_full_way)."""
    return _fight(request, request.param)


POLLS = [
    ("duel", "spectator"),
    ("battle", "spectator"),
    ("mass_battle", "spectator"),
    ("duel", "player"),
    ("battle", "player"),
]


@pytest.fixture(params=POLLS, ids="-".join)
def poll(request) -> tuple[Fight, str]:
    """A spectator's poll of a fight of each kind, and a fighter's."""
    kind, who = request.param
    return _fight(request, kind), who


def _url(fight: Fight, who: str) -> str:
    url = fight.watch if who == "spectator" else fight.player
    assert url is not None
    return url


def _fragment(fight: Fight, who: str) -> str:
    return watch_fragment(fight.kind) if who == "spectator" else PLAYER_FRAGMENT


def _unmask_cipher_token(token: str) -> str:
    """The secret a masked CSRF token carries (Django's unmasking: the cipher's characters shifted back by the mask)."""
    chars, half = CSRF_ALLOWED_CHARS, len(token) // 2
    mask, cipher = token[:half], token[half:]
    return "".join(chars[(chars.index(c) - chars.index(m)) % len(chars)] for c, m in zip(cipher, mask, strict=True))


def _without_drawn(body: bytes) -> bytes:
    """The body with each response's own draws (the CSRF token's mask, the forms' nonces) blanked."""
    return NONCE.sub(b'name="nonce" value="N"', TOKEN.sub(b'name="csrfmiddlewaretoken" value="T"', body))


@pytest.mark.parametrize("production", [False, True])
@pytest.mark.parametrize("language", ["ru", "en"])
def test_a_changed_poll_of_a_rendered_version_is_the_full_paths_answer(client, poll, language, production):
    kind_fight, who = poll
    url = _url(kind_fight, who)
    with time_machine.travel(timezone.now(), tick=False):
        etag = current_etag(client, url, language)  # rendered once: every viewer's next poll finds it cached
        sent: dict[str, Any] = {"language": language, "secure": production, "Cookie": f"csrftoken={SECRET}"}
        with override_settings(**(PRODUCTION if production else {})):
            inner = Inner()
            status, headers, body = call(EarlyPolls(inner), poll_environ(url, '"older"', **sent))
            with override_settings(MIDDLEWARE=WITHOUT_SHORTCUT):
                full_status, full_headers, full_body = call(WSGIHandler(), poll_environ(url, '"older"', **sent))
    assert status == 200 and not inner.reached, "the early path did not answer a version rendered already"
    assert full_status == 200
    assert sorted(headers) == sorted(full_headers), "the early 200's headers are not the full path's"
    assert dict(headers)["ETag"] == etag and ("Content-Language", language) in headers
    assert ("Strict-Transport-Security" in dict(headers)) is production
    assert _without_drawn(body) == _without_drawn(full_body)
    tokens = TOKEN.findall(body)
    # A spectator has no form; a duellist has (the focus, the fight's own); the cookie is renewed where used.
    assert bool(tokens) is (who == "player" and kind_fight.kind == "duel")
    assert ("Set-Cookie" in dict(headers)) is bool(tokens)
    for token in tokens:
        assert _unmask_cipher_token(token.decode()) == SECRET
    nonces = NONCE.findall(body)
    assert len(set(nonces)) == len(nonces), "two forms of one answer share a nonce"
    assert not set(nonces) & set(NONCE.findall(full_body)), "a nonce was not drawn afresh"


def test_a_version_no_viewer_rendered_goes_the_full_way_without_a_second_look(client, poll, monkeypatch):
    kind_fight, who = poll
    url = _url(kind_fight, who)
    etag = current_etag(client, url)
    cache.delete(live.fragment_key(_fragment(kind_fight, who), etag))
    sent: dict[str, Any] = {"Cookie": f"csrftoken={SECRET}"}
    inner = Inner()
    status, _headers, _body = call(EarlyPolls(inner), poll_environ(url, '"older"', **sent))
    assert status == 200 and len(inner.reached) == 1
    seen = inner.reached[0][SEEN]
    assert isinstance(seen, Seen) and seen.missed == etag  # the view is told the fragment is not cached

    looked: list[str] = []

    class Counted:
        """The fragments' cache, counting the fragments looked up."""

        def get(self, key: str, *args: Any, **kwargs: Any) -> Any:
            if "fragment-pieces" in key:
                looked.append(key)
            return cache.get(key, *args, **kwargs)

        def __getattr__(self, name: str) -> Any:
            return getattr(cache, name)

    cache.delete(live.fragment_key(_fragment(kind_fight, who), etag))
    monkeypatch.setattr(live, "cache", Counted())
    status, headers, body = call(EarlyPolls(WSGIHandler()), poll_environ(url, '"older"', **sent))
    assert status == 200 and dict(headers)["ETag"] == etag and etag.strip('"').encode() in body
    assert len(looked) == 1, f"the fragment was looked up {len(looked)} times: {looked}"
    monkeypatch.undo()
    inner = Inner()
    assert call(EarlyPolls(inner), poll_environ(url, '"older"', **sent))[0] == 200 and not inner.reached  # now cached


def test_a_player_without_a_csrf_cookie_gets_django_s_new_secret_where_a_form_needs_one(client, fighters_fight):
    url = _url(fighters_fight, "player")
    etag = current_etag(client, url)
    pieces = live.cached_pieces(PLAYER_FRAGMENT, etag)
    assert pieces is not None
    forms = live.needs_csrf_token(pieces)
    assert forms is (fighters_fight.kind == "duel")  # the focus and the duel's own forms; a battle's player has none
    inner = Inner()
    status, early_headers, _body = call(EarlyPolls(inner), poll_environ(url, '"older"'))
    assert status == 200 and len(inner.reached) == int(forms)  # with forms: Django makes the secret
    status, headers, body = call(EarlyPolls(WSGIHandler()), poll_environ(url, '"older"'))
    cookie = [v for k, v in headers if k == "Set-Cookie"]
    assert status == 200 and len(cookie) == int(forms) and "Set-Cookie" not in dict(early_headers)
    if forms:
        secret = cookie[0].split(";")[0].removeprefix("csrftoken=")
        tokens = TOKEN.findall(body)
        assert tokens and {_unmask_cipher_token(t.decode()) for t in tokens} == {secret}


def test_a_mass_battle_s_player_polls_the_full_way(client, event, referee, character, cards):
    """No character fights in a mass battle (its warriors are the armies'): their poll shows the arsenal."""
    red, blue = armies(event)
    start(event, referee, red, blue)
    link_cache.forget_all()
    url = reverse("duels:player-live-token", args=[character.link_token])
    current_etag(client, url)
    inner = Inner()
    assert call(EarlyPolls(inner), poll_environ(url, '"older"', Cookie=f"csrftoken={SECRET}"))[0] == 200
    assert len(inner.reached) == 1


@pytest.mark.parametrize("change", ["revoke_link", "regenerate_link"])
def test_a_revoked_or_rotated_link_gets_no_cached_fragment(
    client, fighters_fight, change, django_capture_on_commit_callbacks
):
    kind_fight = fighters_fight
    url = _url(kind_fight, "player")
    current_etag(client, url)
    sent: dict[str, Any] = {"Cookie": f"csrftoken={SECRET}"}
    inner = Inner()
    assert call(EarlyPolls(inner), poll_environ(url, '"older"', **sent))[0] == 200 and not inner.reached
    character = kind_fight.situation.participants.get(link_token=url.split("/")[2])
    with django_capture_on_commit_callbacks(execute=True):
        getattr(character, change)()
    assert call(EarlyPolls(inner), poll_environ(url, '"older"', **sent))[0] == 200 and len(inner.reached) == 1
    with override_settings(MIDDLEWARE=WITHOUT_SHORTCUT):
        assert call(EarlyPolls(WSGIHandler()), poll_environ(url, '"older"', **sent))[0] == 404


def test_a_fight_under_another_kinds_url_is_not_answered_from_the_cache(client, kind_fight):
    """duels:watch stands for every kind; duels:mass-watch for the mass battle alone (the full path's 404)."""
    other = reverse(
        "duels:watch" if kind_fight.kind == "mass_battle" else "duels:mass-watch", args=[kind_fight.situation.pk]
    )
    etag = current_etag(client, kind_fight.watch)
    for if_none_match in (etag, '"older"'):
        inner = Inner()
        status = call(EarlyPolls(inner), poll_environ(other, if_none_match))[0]
        if kind_fight.kind == "mass_battle":  # its own page, under the name every kind's page has
            assert status in (200, 304) and not inner.reached
        else:
            assert status == 200 and len(inner.reached) == 1
            assert call(EarlyPolls(WSGIHandler()), poll_environ(other, if_none_match))[0] == 404


def test_a_version_no_viewer_rendered_keeps_nothing_the_cache_holds_already(client, poll, monkeypatch):
    """The fight's meta the poll found in the cache is not written back after the database's read (one round trip)."""
    kind_fight, who = poll
    url = _url(kind_fight, who)
    etag = current_etag(client, url)
    cache.delete(live.fragment_key(_fragment(kind_fight, who), etag))
    written: list[str] = []

    class Watched:
        def add(self, key: str, *args: Any, **kwargs: Any) -> Any:
            written.append(key)
            return cache.add(key, *args, **kwargs)

        def __getattr__(self, name: str) -> Any:
            return getattr(cache, name)

    monkeypatch.setattr(live_meta, "cache", Watched())
    sent: dict[str, Any] = {"Cookie": f"csrftoken={SECRET}"}
    status, headers, _body = call(EarlyPolls(WSGIHandler()), poll_environ(url, '"older"', **sent))
    assert status == 200 and dict(headers)["ETag"] == etag
    assert written == []
    # Not in the cache: the database's answer is kept for the next poll.
    cache.delete(live_meta.meta_key(kind_fight.situation.pk))
    if who == "player":
        cache.delete(live_meta.active_key(int(kind_fight.situation.participants.get(link_token=url.split("/")[2]).pk)))
    cache.delete(live.fragment_key(_fragment(kind_fight, who), etag))
    link_cache.forget_all()
    assert call(EarlyPolls(WSGIHandler()), poll_environ(url, '"older"', **sent))[0] == 200
    assert written, "the database's answer was not kept"

"""Bad input gets a clear message, changes nothing, and is never a 500 - on every URL of the project.

Every URL pattern (``get_resolver()``, without the admin's internals and ``i18n/``;
the admin has ``test_no_server_errors_admin.py``) is tried with real ids of
``event`` (a character in no fight, one in a running fight, a finished fight),
ids that do not exist (one too large for any database integer, a NUL byte in a
token), ids of ``other_event`` and a real id mixed with another event's, by
every role, with GET and with POSTs: empty, well-formed, and garbage in every
field the view reads (a string for an int, huge and negative numbers, unknown
choices, a missing version or nonce, a 200-character nonce, NUL bytes,
non-UTF-8 bytes, files that are not CSV/XLSX/JSON, 1100 fields), with and
without htmx headers, and with the methods no page uses. Each request runs in
a savepoint that is rolled back, so every one meets the same world.

The roles are the access tests' personas plus a superuser (no event role on
the site's pages), a deactivated account and a referee of the other event.

Asserted: never a status >= 500; no page shows a role a card from another's
unplayed hand (D4) or a secret link it was not given; out of scope a 404 (anonymous on a login-only
page: the login redirect), so exports and JSON are scoped too; a view that
needs a POST answers GET with 405 and a GET-only view answers POST with 405;
in scope never a 404; a refused POST (4xx, an error message, a form with
errors) and any other method leave the database as it was (``fingerprint``);
garbage in a Spec's ``strict`` fields is never saved.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib import messages
from django.db import transaction
from django.forms import BaseForm
from django.test import Client
from django.test.utils import ContextList
from django.urls import reverse

from duels.web.alerts import Alert
from events.models import Character
from tests.web.no_server_errors_kit import (
    FIELD_GARBAGE,
    GARBAGE,
    HX,
    LONG_NONCE,
    NOT_UTF8,
    OTHER_SCOPE,
    PARAM_KINDS,
    SCOPES,
    SECRET_CARD,
    SEES_THE_HAND,
    Spec,
    bad_files,
    fingerprint,
)
from tests.web.no_server_errors_urls import SPECS
from tests.web.no_server_errors_walk import ROLES, URLS, origin

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("sessions_in_cookies")]

# htmx, and headers a poll or a broken proxy may send; a Spec's htmx_targets are tried as well.
GET_HEADERS = [
    HX,
    {**HX, "HX-Target": "\u00ff" * 300, "If-None-Match": '"x", *, W/"garbage'},
    {"If-None-Match": "*", "Accept-Language": "xx-YY;q=abc, ru;q=2"},
]
RAW_QUERY = "?q=%FF%FE&page=%C3%28&format=%80&show=%FF&a=%FF&b=%FF&with=%00&what=%FF&file_format=%FF&next=%FF"


def test_every_url_is_tried():
    """A new URL fails here until it has a Spec (who may use it, what it reads)."""
    untried = {name for name, _route, _params in URLS} - set(SPECS)
    assert not untried, f"add a Spec to tests/web/no_server_errors_urls.py for {sorted(untried)}"


# --- sending --------------------------------------------------------------------------------------


def _short(value: Any) -> str:
    text = repr(value() if callable(value) else value)
    return text if len(text) < 40 else text[:37] + "..."


def refused(response: Any) -> bool:
    """4xx, a non-success message, a bound form with errors, or a danger/warning alert of the fight pages."""
    if 400 <= response.status_code < 500:
        return True
    storage = getattr(response.wsgi_request, "_messages", None)
    if any(m.level != messages.SUCCESS for m in getattr(storage, "_queued_messages", [])):
        return True
    contexts = response.context if isinstance(response.context, ContextList) else [response.context]
    for context in filter(None, contexts):
        for value in context.flatten().values():
            if isinstance(value, BaseForm) and value.is_bound and value.errors:
                return True
            if isinstance(value, Alert) and value.level in ("danger", "warning"):
                return True
    return False


class Probe:
    """Sends requests for one URL name, each in a rolled-back savepoint, and collects what went wrong."""

    def __init__(self, clients: dict[str, Client]) -> None:
        self.clients = clients
        self.before = fingerprint()
        self.problems: list[str] = []
        self.seen: set[str] = set()
        self.tokens: dict[str, set[str]] = {}
        self.holder_token = ""  # the secret link of the character holding SECRET_CARD
        self.count = 0

    def send(
        self,
        role: str,
        method: str,
        url: str,
        data: Any = None,
        *,
        headers: dict | None = None,
        raw: bytes | None = None,
    ) -> tuple[Any, bool, str]:
        client = self.clients[role]
        where = f"{role} {method} {url} {_short(data) if data else ''}{' hx' if headers else ''}"
        cookies = {key: morsel.value for key, morsel in client.cookies.items()}
        self.count += 1
        try:
            with transaction.atomic():
                if raw is not None:
                    response = client.generic(
                        method, url, raw, content_type="application/x-www-form-urlencoded", headers=headers
                    )
                elif method == "GET":
                    response = client.get(url, data, headers=headers)
                else:
                    body = {k: v() if callable(v) else v for k, v in (data or {}).items()}
                    response = client.post(url, body, headers=headers)
                changed = fingerprint() != self.before
                transaction.set_rollback(True)
        except Exception as exc:  # the test client re-raises a view's exception: that is the 500
            self.problems.append(f"500 {where}: {type(exc).__name__}: {str(exc)[:150]} at {origin(exc)}")
            return None, False, where
        finally:
            # A logout or a failed login must not change who the next request is.
            client.cookies.clear()
            for key, value in cookies.items():
                client.cookies[key] = value
        if response.status_code >= 500:
            self.problems.append(f"{response.status_code} {where}")
        elif changed and (method != "POST" or refused(response)):
            self.problems.append(f"changed the database on a refused or GET request ({response.status_code}): {where}")
        self.check_secrets(role, url, response, where)
        return response, changed, where

    def check_secrets(self, role: str, url: str, response: Any, where: str) -> None:
        """D4 and the secret links: what a role was not given never appears in what it is shown."""
        if response.status_code != 200 or getattr(response, "streaming", False):
            return
        text = response.content.decode("utf-8", errors="replace")
        # The secret link is the player's key: whoever opens it sees that character's hand.
        if role not in SEES_THE_HAND and self.holder_token not in url and SECRET_CARD in text:
            self.problems.append(f"a card of another's hand shown: {where}")
        for token, allowed in self.tokens.items():
            if token in text and role not in allowed and token not in url:
                self.problems.append(f"a secret link shown to {role}: {where}")

    def expect(self, response: Any, where: str, wanted: str | None) -> None:
        """``wanted``: "404", "405", "login", "found" (anything but a 404) or None (anything below 500)."""
        if response is None or wanted is None:
            return
        status = response.status_code
        if wanted == "login":
            ok = status == 302 and response["Location"].startswith(reverse("login"))
        elif wanted == "found":
            ok = status not in (404, 405)
        else:
            ok = status == int(wanted)
        if not ok:
            self.problems.append(f"expected {wanted}, got {status}: {where}")


# --- what to send ---------------------------------------------------------------------------------


def variants(spec: Spec, params: tuple[str, ...], w: Any) -> Iterator[tuple[str, dict, frozenset, frozenset]]:
    """(label, path kwargs, roles in scope for GET, roles in scope for POST)."""
    kinds = {p: spec.params.get(p, PARAM_KINDS[p]) for p in params}
    post_scope = spec.post_scope or spec.scope
    tried: list[dict] = []
    for number, ids in enumerate(w.reals):
        kwargs = {p: ids[kind] for p, kind in kinds.items()}
        if kwargs not in tried:
            tried.append(kwargs)
            yield "real" if number == 0 else f"real {number}", kwargs, SCOPES[spec.scope], SCOPES[post_scope]
    real = tried[0]
    nobody: frozenset[str] = frozenset()
    for p, kind in kinds.items():
        for missing in w.missing[kind]:
            scope = nobody if spec.lookups else SCOPES[spec.scope]
            yield f"missing {p}", {**real, p: missing}, scope, scope if not spec.lookups else nobody
    if params and all(kind in w.foreign for kind in kinds.values()):
        foreign = {p: w.foreign[k] for p, k in kinds.items()}
        yield "foreign", foreign, OTHER_SCOPE[spec.scope], OTHER_SCOPE[post_scope]
        if len(params) > 1:
            for p in params:
                yield f"mixed {p}", {**real, p: foreign[p]}, nobody, nobody


def wanted_for(spec: Spec, method: str, role: str, in_scope: bool, plain: bool) -> str | None:
    anonymous_redirect = role in ("anonymous", "inactive") and spec.login
    if spec.methods in ("GET", "POST") and method != spec.methods:
        return "login" if anonymous_redirect else "405"
    if in_scope:
        return "found" if plain else None
    return "login" if anonymous_redirect else "404"


def garbage_bodies(spec: Spec, w: Any, every_field: bool) -> Iterator[tuple[str, dict, set[str]]]:
    """Each field of the well-formed bodies missing or replaced by garbage (once per field), then all at once.

    The third item names the fields that carry garbage.
    """
    tried: set[str] = set()
    for number, payload in enumerate(spec.posts):
        base = payload(w)
        for key in base if every_field else ():
            if key in tried:
                continue
            tried.add(key)
            yield f"without {key}", {k: v for k, v in base.items() if k != key}, set()
            values: list[Any] = [*bad_files(), "abc"] if key == "file" else list(FIELD_GARBAGE)
            if key == "nonce":
                values.append(LONG_NONCE)
            for value in values:
                yield f"{key}={_short(value)}", {**base, key: value}, {key}
        for value in GARBAGE if number == 0 else GARBAGE[:3]:
            yield f"all={_short(value)}", {k: value for k in base}, set(base)


def get_queries(spec: Spec, w: Any) -> Iterator[dict]:
    base = {k: v(w) if callable(v) else v for k, v in spec.get.items()}
    for key in base:
        yield {k: v for k, v in base.items() if k != key}
        for value in FIELD_GARBAGE:
            yield {**base, key: value}
    for value in GARBAGE:
        yield {k: value for k in base}
    yield base


# --- the test -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "route", "params"), URLS, ids=[name for name, _r, _p in URLS])
def test_no_server_error_and_nothing_changed_by_bad_input(name, route, params, world_once, as_user):
    # The world (no_server_errors_kit.build_world) is built once for the module and each case gets
    # a copy (tests/web/conftest.py's ``shared_world``): built per case, it was a tenth of the time.
    world, personas = world_once.world, world_once.personas
    spec = SPECS[name]
    probe = Probe({role: as_user(personas[role]) for role in ROLES})
    # Organizers see every link of their event; a player the links of their own characters.
    probe.tokens = {
        c.link_token: {"organizer"} | ({"player"} if c.player_id == personas["player"].pk else set())
        for c in Character.objects.filter(event=world.event)
    } | {c.link_token: {"other_organizer"} for c in Character.objects.filter(event=world.other_event)}
    probe.holder_token = world.character.link_token
    in_real_scope = SCOPES[spec.scope] | SCOPES[spec.post_scope or spec.scope]
    # The role that may do most tries everything.
    primary = "organizer" if "organizer" in in_real_scope else [r for r in ROLES if r in in_real_scope][-1]
    for label, kwargs, scope, post_scope in variants(spec, params, world):
        url = reverse(name, kwargs=kwargs)
        for index, role in enumerate(ROLES):
            if label.startswith("missing") and label in probe.seen and role != primary:
                continue  # the further unknown ids of a parameter: the role that may do most is enough
            if label.startswith("mixed") and role not in in_real_scope | {"other_organizer"}:
                continue  # a real id with another event's: only who could use the real ones is worth asking
            headers = HX if index % 2 else None
            real = label.startswith("real")
            if real and role == primary:
                # Field by field only with the first real ids; the others get the well-formed and all-garbage bodies.
                thorough(probe, spec, role, url, world, scope, post_scope, every_field=label == "real")
            elif real and role in scope | post_scope:
                try_in_scope(probe, spec, role, url, world, scope, post_scope)
            else:
                # Out of scope (or an unknown id): the page and a well-formed POST, each once.
                if spec.methods != "POST" or real:
                    response, _changed, where = probe.send(role, "GET", url, headers=headers)
                    probe.expect(response, where, wanted_for(spec, "GET", role, role in scope, plain=not headers))
                if spec.methods != "GET" or real:
                    body = spec.posts[0](world) if spec.posts else {}
                    response, _changed, where = probe.send(role, "POST", url, body, headers=headers)
                    probe.expect(response, where, wanted_for(spec, "POST", role, role in post_scope, plain=False))
        probe.seen.add(label)
    assert not probe.problems, f"{len(probe.problems)} problems:\n" + "\n".join(probe.problems[:60])


def try_in_scope(
    probe: Probe, spec: Spec, role: str, url: str, w: Any, scope: frozenset, post_scope: frozenset
) -> None:
    """Another role in scope: the page (plain and htmx), the well-formed bodies and all-garbage ones."""
    for headers in (None, HX) if spec.methods != "POST" else (HX,):
        response, _changed, where = probe.send(role, "GET", url, headers=headers)
        probe.expect(response, where, wanted_for(spec, "GET", role, role in scope, plain=headers is None))
    base = spec.posts[0](w) if spec.posts else {}
    for number, body in enumerate([base, {k: "abc" for k in base}]):
        response, _changed, where = probe.send(role, "POST", url, body, headers=HX if number % 2 else None)
        probe.expect(response, where, wanted_for(spec, "POST", role, role in post_scope, plain=False))


def thorough(
    probe: Probe, spec: Spec, role: str, url: str, w: Any, scope: frozenset, post_scope: frozenset, every_field: bool
) -> None:
    """The role that may do most: every header, every garbage query and body."""
    targets = [{**HX, "HX-Target": target} for target in spec.htmx_targets]
    for headers in [None, *(GET_HEADERS + targets if spec.methods != "POST" else [HX])]:
        response, _changed, where = probe.send(role, "GET", url, headers=headers)
        probe.expect(response, where, wanted_for(spec, "GET", role, role in scope, plain=headers is None))
    if spec.methods != "POST" and every_field:
        for query in get_queries(spec, w):
            probe.send(role, "GET", url, query, headers=HX if probe.count % 2 else None)
        probe.send(role, "GET", url + RAW_QUERY)
    wanted = wanted_for(spec, "POST", role, role in post_scope, plain=False)
    bodies: list[tuple[str, dict[str, Any], set[str]]] = [("empty", {}, set())]
    bodies += [(f"base {n}", payload(w), set()) for n, payload in enumerate(spec.posts)]
    if spec.methods != "GET":
        bodies += list(garbage_bodies(spec, w, every_field))
    for what, body, garbled in bodies:
        response, changed, where = probe.send(role, "POST", url, body, headers=HX if probe.count % 2 else None)
        probe.expect(response, where, wanted)
        if changed and response is not None and garbled & set(spec.strict) and not refused(response):
            probe.problems.append(f"garbage accepted and saved ({what}): {where}")
    response, _changed, where = probe.send(role, "POST", url, raw=NOT_UTF8, headers=HX)
    probe.expect(response, where, wanted)
    if every_field:
        # More fields than Django reads (a 400 of its own), and the methods no page uses.
        probe.send(role, "POST", url, raw="&".join(f"f{n}=x" for n in range(1100)).encode())
        for method in ("PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"):
            probe.send(role, method, url, raw=b"name=x&card=1")

"""Live fragments stay small and are rendered once per role and version (issue 8).

A long fight's live fragment shows the newest steps and played cards only,
with a link to the record page, which has them all (paginated) and never an
unplayed card (D4). The same fragment is served to every viewer of a role and
version from the cache, each response with its own server time, CSRF token
and fresh nonces.
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from duels.duel.presenters import LIVE_RECENT
from duels.duel.record import RECORD_PAGE
from events.models import StaffRole
from rules import duel as engine
from tests.web.duels_kit import rendered_nonces

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}


def _steps_shown(html: str) -> int:
    return len(re.findall(r"<tr>\s*<td>\d+</td>", html))


def test_a_long_fights_spectator_fragment_shows_the_newest_steps_and_links_the_record(client, long_fight):
    html = client.get(reverse("duels:watch", args=[long_fight.pk]), headers=HX).content.decode()
    assert _steps_shown(html) == LIVE_RECENT
    assert reverse("duels:record", args=[long_fight.pk]) in html
    assert len(html) < 20_000


def test_the_record_page_has_every_step_a_page_at_a_time_and_every_played_card(client, long_fight):
    url = reverse("duels:record", args=[long_fight.pk])
    first = client.get(url).content.decode()
    assert first.count("<tr>\n        <td>") == RECORD_PAGE
    # The row keeps each duel's newest steps and counts them all (issue 24); the page replays the log.
    steps = sum(d.get("steps_total", len(d["steps_done"])) for d in long_fight.state["duels"])
    assert steps > RECORD_PAGE
    pages = -(-steps // RECORD_PAGE)
    last = client.get(url, {"page": pages}).content.decode()
    assert last.count("<tr>\n        <td>") == steps - (pages - 1) * RECORD_PAGE
    # Played cards are counted per fighter (public); a hand is never listed (D4).
    for fighter in long_fight.state["fighters"]:
        assert f"{len(fighter['discards'])} cards played" in first
    assert "Fireball" in first and "×" in first


def test_every_referee_gets_the_fragment_rendered_once_with_their_own_nonces_and_token(
    as_user, referee, organizer, long_fight, django_user_model
):
    other = django_user_model.objects.create_user("second-referee", password="x")
    StaffRole.objects.create(event=long_fight.event, user=other, role=StaffRole.Role.REFEREE)
    url = reverse("duels:situation", args=[long_fight.pk])
    first = as_user(referee).get(url, headers=HX)
    second_client = Client(enforce_csrf_checks=True)
    second_client.force_login(other)
    with CaptureQueriesContext(connection) as ctx:
        # A poll from a page of an older version (its ETag no longer matches).
        second = second_client.get(url, headers={**HX, "If-None-Match": '"older"'})
    assert first.status_code == second.status_code == 200
    # The second referee's fragment came from the cache: the state was not read.
    assert not any('"state"' in q["sql"] for q in ctx.captured_queries)
    one, two = first.content.decode(), second.content.decode()
    assert rendered_nonces(one) and set(rendered_nonces(one)).isdisjoint(rendered_nonces(two))
    assert len(set(rendered_nonces(two))) == len(rendered_nonces(two))
    assert "@now-" not in two and "@csrf-" not in two and "@nonce-" not in two
    # The token in the shared fragment is this referee's own: a POST through it passes CSRF.
    token_field = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', two)
    form_tag = re.search(r'<form[^>]*hx-post="([^"]+)"', two)
    assert token_field is not None and form_tag is not None, "the shared fragment has a form with its token"
    token, form = token_field.group(1), form_tag.group(1)
    long_fight.refresh_from_db()
    state_duel = long_fight.state["duels"][-1]
    response = second_client.post(
        form,
        {
            "csrfmiddlewaretoken": token,
            "action": "end_duel",
            "duel": state_duel["number"],
            "reason": "they parted",
            "version": long_fight.version,
            "nonce": rendered_nonces(two)[0],
        },
        headers=HX,
    )
    assert response.status_code == 200
    long_fight.refresh_from_db()
    assert long_fight.state["duels"][-1]["phase"] == engine.ENDED

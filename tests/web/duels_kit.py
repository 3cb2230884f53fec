"""Helpers for the fight pages' tests (web and browser); their fixtures are in tests/conftest.py.

``secret_hands`` gives Anton Veil of Secrets and Zavulon Dark Mirror, never
played: their names must never reach a page that may not see the hand (D4).
"""

from __future__ import annotations

import re
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from cards.models import Card
from duels import services
from duels.duel.start import start_instant_attack
from duels.models import Situation
from rules import duel as engine
from tests.services.kit import nonce


def state_of(situation: Situation) -> Any:
    situation.refresh_from_db()
    return services.state_of(situation)


def uid_of(situation: Situation, fighter_id: int, card: Card) -> str:
    st = state_of(situation)
    return next(u for u in st.fighters[fighter_id].hand if st.cards[u].card_id == card.pk)


def post_action(client: Client, situation: Situation, htmx: bool = True, **data: Any):
    """POST one fight action with the version the page would carry and a fresh nonce."""
    situation.refresh_from_db()
    payload = {"version": situation.version, "nonce": nonce(), **data}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/fights/{situation.pk}/act/", payload, headers=headers)


def rendered_nonces(html: str) -> list[str]:
    return re.findall(r'name="nonce" value="([0-9a-f]{32})"', html)


def drive(situation: Situation, referee, *commands: Any) -> Situation:
    for command in commands:
        situation.refresh_from_db()
        services.perform(situation.pk, command, user=referee, seen_version=situation.version, nonce=nonce())
    situation.refresh_from_db()
    return situation


def parry_then_spark(shown: Situation, referee, anton: Any, zavulon: Any, shield: Card, spark: Card) -> Situation:
    """From ``shown``: Zavulon parries the Fireball with Mage Shield (CR2 confirmed), then strikes Anton with
    Spark, unanswered and confirmed (CR1): each has played a card, Anton is wounded."""
    return drive(
        shown,
        referee,
        engine.Answer(0, zavulon.pk, uid_of(shown, zavulon.pk, shield)),
        engine.ConfirmResult(0),
        engine.Attack(0, zavulon.pk, uid_of(shown, zavulon.pk, spark)),
        engine.Answer(0, anton.pk, None),
        engine.ConfirmResult(0),
    )


def poll_with_queries(client: Client, url: str, etag: str) -> tuple[Any, list[str]]:
    """An htmx poll with ``If-None-Match: etag``, and the SQL it ran."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers={"HX-Request": "true", "If-None-Match": etag})
    return response, [q["sql"] for q in ctx.captured_queries]


# --- from test_duels_corrections.py ---


def instant_fight(anton, zavulon, attack_card, referee, **kw):
    return start_instant_attack(
        anton.event,
        anton,
        zavulon,
        attack_card.pk,
        out_of_sight=True,
        within_reach=True,
        user=referee,
        nonce=nonce(),
        **kw,
    ).situation

"""Fixtures for the fight pages' tests (imported by the other ``test_duels_*`` modules).

``character`` (Anton) holds 2 x Fireball (attack, fire), Mage Shield (parries
fire) and Veil of Secrets; ``rival`` (Zavulon) holds Spark (attack) , Mage
Shield and Dark Mirror. Veil of Secrets and Dark Mirror are never played in
these tests: their names must never reach a page that may not see the hand (D4).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from cards.models import Card
from duels import services
from duels.models import Situation
from tests.services.kit import arm, nonce, parries

SECRET_ANTON = ("Покров тайны", "Veil of Secrets")
SECRET_ZAVULON = ("Тёмное зеркало", "Dark Mirror")


@pytest.fixture(name="no_broker", autouse=True)
def no_broker_fixture(monkeypatch):
    """A commit must not reach a Celery broker in web tests; reads apply deadlines anyway."""
    monkeypatch.setattr("duels.services.store.schedule_expiry", lambda sid, deadline: None)


@pytest.fixture(name="spark")
def spark_fixture(catalogue) -> Card:
    return Card.objects.create(
        catalogue=catalogue,
        name_ru="Искра",
        name_en="Spark",
        kind="attack",
        full_effect="lightly_wounded",
        tags="spark",
    )


def _secret(catalogue, names: tuple[str, str]) -> Card:
    return Card.objects.create(catalogue=catalogue, name_ru=names[0], name_en=names[1], kind="defence")


@pytest.fixture(name="armed")
def armed_fixture(character, rival, attack_card, defence_card, spark, catalogue):
    parries(defence_card, "fire")
    arm(character, (attack_card, 2), defence_card, _secret(catalogue, SECRET_ANTON))
    arm(rival, spark, defence_card, _secret(catalogue, SECRET_ZAVULON))
    return character, rival


@pytest.fixture(name="fight")
def fight_fixture(armed, referee) -> Situation:
    """Aggression by a spoken declaration: Anton attacks first (AG1, D5), nothing shown yet."""
    anton, zavulon = armed
    return services.declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce()).situation


@pytest.fixture(name="shown")
def shown_fixture(armed, referee, attack_card) -> Situation:
    """Anton has shown a Fireball to Zavulon (AG1); the answer window is open (D8)."""
    anton, zavulon = armed
    return services.declare_aggression(
        anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()
    ).situation


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

"""Fight-service fixtures: two armed characters in ``event`` and counter rules.

``character`` (Anton) holds 2 x Fireball (attack, fire: heavy wound / light
wound when softened) and Mage Shield (defence, parries fire); ``rival``
(Zavulon) holds Spark (attack: light wound) and Mage Shield.
"""

import pytest

from cards.models import Card
from events.models import Character, Side
from tests.services.kit import arm, parries


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    """Timers are tested in tests/timers; here a commit must not reach a broker."""
    sent = []
    monkeypatch.setattr("duels.services.store.schedule_expiry", lambda sid, deadline: sent.append((sid, deadline)))
    return sent


@pytest.fixture
def spark(catalogue) -> Card:
    return Card.objects.create(
        catalogue=catalogue, name_ru="Искра", name_en="Spark", kind="attack", full_effect="lightly_wounded"
    )


@pytest.fixture
def armed(character, rival, attack_card, defence_card, spark):
    parries(defence_card, "fire")
    arm(character, (attack_card, 2), defence_card)
    arm(rival, spark, defence_card)
    return character, rival


@pytest.fixture
def bystander(event) -> Character:
    return Character.objects.create(event=event, name="Olga", side=Side.LIGHT)

"""Audit scenarios of the mass battle's pages: what they say must follow M1-M8 (issue: the mass wing's audit).

Each test walks a scenario no other test walks and names the rule it holds the pages to.
"""

import pytest
from django.urls import reverse

import rules.mass as magic
from duels.web.pages import pages_of
from tests.services.mass_kit import act, armies, in_catalogue_order, ready, start, state

pytestmark = pytest.mark.django_db


@pytest.fixture
def mass_battle(event, referee, cards, monkeypatch):
    in_catalogue_order(monkeypatch, cards["Fire Rain"])
    red, blue = armies(event)
    return start(event, referee, red, blue)


def test_M4_the_initiative_winner_is_not_the_winner_of_an_ended_mass_battle(as_user, referee, mass_battle, client):
    """[M4] Red wins cycle 1's initiative (5 - 2) and the referee then ends the battle: the magic phase decides no
    winner of the battle, so neither the lists (history, running fights) nor the public record may say "Red won" or
    mark Blue as out."""
    ready(mass_battle, referee, 5, 2)  # the initiative's winner only chooses who starts (M4)
    act(mass_battle, magic.EndBattle(reason="the armies part"), referee)
    mass_battle.refresh_from_db()
    summary = pages_of(mass_battle).summary(mass_battle, state(mass_battle))
    assert "won" not in summary.result and not any("won" in line for line in summary.lines)
    assert not any(person.out for person in summary.people)
    assert "over" in summary.result
    history = as_user(referee).get(reverse("duels:history", args=[mass_battle.event_id])).content.decode()
    assert "Red won" not in history and "The mass battle is over in cycle 1." in history
    record = client.get(reverse("duels:record", args=[mass_battle.pk])).content.decode()
    assert "Red won" not in record and "over in cycle 1" in record


@pytest.mark.parametrize(
    "language,contradiction",
    [("en", "Positive cards act on everyone"), ("ru", "Позитивные карты действуют на всех")],
)
def test_M3_the_mass_help_never_says_a_helpful_card_acts_on_protected_warriors(client, language, contradiction):
    """[M3] Protection covers every card of a protected type, helpful or harmful, unless the organizer marked the card
    "acts on protected warriors too" (the engine's ``Warrior.protected_from``, and the same help page's first part).
    The help's "Carrying out a card" section must not tell the referee the opposite."""
    client.cookies["django_language"] = language
    html = client.get(reverse("help-role", args=["mass"])).content.decode()
    assert "M3" in html
    assert contradiction not in html

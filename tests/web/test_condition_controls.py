"""A blow or a healing from a fight's tablet (CR1, D9, D11; issue 20): templates/duels/_condition_controls.html.

Measured on main: the battle tablet had no way to record a condition change,
and the character page's change for a battle combatant answered 500.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from duels import services
from duels.models import LogEntry
from events.models import ConditionRecord
from rules import battle as B
from tests.services.battle_kit import battle_state, buid
from tests.services.kit import act, nonce

pytestmark = pytest.mark.django_db


def post(client, battle, who, *, follow=True, **data):
    battle.refresh_from_db()
    fields = {"character": who.pk, "change": "add", "condition": "paralysed", "reason": "a Sleep"}
    fields |= {"version": battle.version, "nonce": nonce()} | data
    return client.post(reverse("duels:fight-condition", args=[battle.pk]), fields, follow=follow)


@pytest.fixture
def tablet(as_user, referee):
    client = as_user(referee)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_the_battle_tablet_offers_the_change_for_every_combatant(tablet, battle, people):
    page = tablet.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    form = page[page.index('id="condition-form"') :]
    form = form[: form.index("</form>")]
    assert all(f'value="{p.pk}"' in form for p in people)
    assert 'name="reason"' in form and 'value="paralysed"' in form


def test_CR1_D11_paralysed_from_the_battle_tablet_is_logged_and_leaves_the_order(tablet, battle, people):
    _anna, _boris, vera, _gleb = people
    response = post(tablet, battle, vera)
    assert response.redirect_chain[-1][0] == reverse("duels:battle", args=[battle.pk])
    page = response.content.decode()
    assert vera.pk not in battle_state(battle).order
    assert "recorded by the referee. Reason: a Sleep" in page  # the battle's own log says it
    assert ConditionRecord.objects.get(character=vera).situation_id == battle.pk


def test_D9_refused_from_the_tablet_while_the_answer_window_is_open(tablet, battle, people, referee):
    anna, _boris, vera, _gleb = people
    act(battle, B.Act(actor=anna.pk, act=B.ATTACK, cards=(buid(battle, anna, "Blade"),), targets=(vera.pk,)), referee)
    entries = LogEntry.objects.filter(situation=battle).count()
    response = post(tablet, battle, vera)
    assert response.status_code == 422
    assert "Decide the open step of Vera first" in response.content.decode()
    assert LogEntry.objects.filter(situation=battle).count() == entries and not ConditionRecord.objects.exists()


def test_someone_outside_the_fight_or_a_bad_form_is_a_message_not_a_change(tablet, battle, people, bystander):
    response = post(tablet, battle, bystander)
    assert response.status_code == 422
    assert "Only someone in this running fight can be chosen here." in response.content.decode()
    response = post(tablet, battle, people[2], reason="")
    assert response.status_code == 400 and not ConditionRecord.objects.exists()


def test_a_tap_sent_again_is_applied_once(tablet, battle, people):
    """The tablet keeps a tap and sends it again after a lost connection (its nonce): one change, one record."""
    vera = people[2]
    battle.refresh_from_db()
    fields = {"character": vera.pk, "change": "add", "condition": "lightly_wounded", "reason": "a stone"}
    fields |= {"version": battle.version, "nonce": nonce()}
    url = reverse("duels:fight-condition", args=[battle.pk])
    assert tablet.post(url, fields).status_code == 302
    tablet.post(url, fields)
    assert ConditionRecord.objects.filter(character=vera).count() == 1
    assert battle_state(battle).combatants[vera.pk].condition == "lightly_wounded"


@pytest.mark.parametrize("role", ["player", "other_organizer"])
def test_only_the_event_s_staff_may_record(role, personas, as_user, battle, people):
    response = as_user(personas[role]).post(
        reverse("duels:fight-condition", args=[battle.pk]),
        {
            "character": people[2].pk,
            "change": "add",
            "condition": "dead",
            "reason": "x",
            "version": 0,
            "nonce": nonce(),
        },
    )
    assert response.status_code == 404 and not ConditionRecord.objects.exists()


def test_the_character_page_records_it_for_a_battle_combatant_too(tablet, battle, people):
    """The 500 of issue 20: the character page's change for a battle combatant."""
    vera = people[2]
    response = tablet.post(
        reverse("duels:condition", args=[vera.pk]),
        {"change": "add", "condition": "paralysed", "reason": "a Sleep from the bushes"},
    )
    assert response.status_code == 302
    assert battle_state(battle).combatants[vera.pk].condition == "paralysed"


def test_CR1_D11_the_duel_tablet_records_it_the_same_way(tablet, fight, armed):
    """The same include and view on the duel's tablet: a finishing blow ends the duel (D11)."""
    _anton, zavulon = armed
    page = tablet.get(reverse("duels:situation", args=[fight.pk])).content.decode()
    assert 'id="condition-form"' in page and f'value="{zavulon.pk}"' in page
    response = post(tablet, fight, zavulon, condition="dead", reason="a finishing blow")
    assert response.status_code == 200
    fight.refresh_from_db()
    assert services.state_of(fight).fighters[zavulon.pk].condition == "dead"
    assert ConditionRecord.objects.get(character=zavulon).situation_id == fight.pk

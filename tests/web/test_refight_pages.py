"""[S2, IA6] The referee's pages start a new fight within the gap after a battle, through the real forms.

A battle over (BP5) leaves its situation open until the gap (S2). On the start
page an instant attack on one of its combatants is not offered as joining that
battle; sent, it is an ordinary attack (IA6) whose duel takes the situation on.
The battle start page offers the battle's people again and starts a battle that
takes it on. Bad input is refused in words and leaves the battle's situation open.
"""

import pytest
from django.urls import reverse

from cards.models import ArsenalCard, Card
from duels import services
from duels.models import Situation
from rules import battle as B
from rules import duel as rules_duel
from tests.services.battle_kit import battle_state
from tests.services.kit import act, instant_attack, nonce

pytestmark = pytest.mark.django_db


@pytest.fixture
def over(event, people, referee):
    """Anna's instant attack on Vera, grown into a battle by Boris's blow (IA6), ended now (BP5)."""
    anna, boris, vera, _gleb = people
    blade = ArsenalCard.objects.get(character=anna, card__name_en="Blade").card
    instant_attack(anna, vera, blade, referee, None, parry=False)
    battle = instant_attack(boris, anna, blade, referee, None).situation
    assert battle.kind == Situation.Kind.BATTLE
    act(battle, B.EndBattle(reason="the Dark ran"), referee)
    st = battle_state(battle)
    assert st.ended and not st.closed and st.instant_attack_used
    return battle


def _strike(client, event, a, b, card):
    form = {"kind": "instant", "a": a.pk, "b": b.pk, "nonce": nonce(), "card": card.pk}
    return client.post(reverse("duels:start", args=[event.pk]), {**form, "out_of_sight": "yes", "within_reach": "yes"})


def test_S2_IA6_the_start_pages_instant_attack_in_a_battles_gap_is_an_ordinary_attack_taking_it_on(
    as_user, referee, event, people, over, monkeypatch
):
    _anna, _boris, vera, gleb = people
    client = as_user(referee)
    page = client.get(reverse("duels:start", args=[event.pk]), {"a": gleb.pk, "b": vera.pk}).content.decode()
    assert 'id="ia-joins-fight"' not in page  # the battle is over: nobody joins it
    blade = ArsenalCard.objects.get(character=gleb, card__name_en="Blade").card
    monkeypatch.setattr("secrets.randbelow", lambda n: pytest.fail("IA6: nothing may be drawn"))
    response = _strike(client, event, gleb, vera, blade)
    assert response.status_code == 302
    duel = Situation.objects.filter(kind=Situation.Kind.DUEL).latest("pk")
    assert response["Location"] == reverse("duels:situation", args=[duel.pk])
    assert [{d.a, d.b} for d in services.state_of(duel).duels] == [{gleb.pk, vera.pk}]
    assert services.state_of(duel).duels[0].opened_by != rules_duel.INSTANT_ATTACK  # IA6: ordinary
    assert rules_duel.from_dict(duel.opening).instant_attack_used
    over.refresh_from_db()
    assert over.ended and battle_state(over).closed  # taken on by the duel (S2)
    assert client.get(response["Location"], follow=True).status_code == 200
    client.cookies["django_language"] = "en"
    tablet = client.get(reverse("duels:battle", args=[over.pk]))
    assert tablet.status_code == 200
    assert "The combat situation goes on in a new fight (S2): A duel takes the situation on" in tablet.content.decode()


def test_S2_a_refused_strike_in_the_gap_is_said_in_words_and_leaves_the_battle_open(
    as_user, referee, event, people, over, catalogue
):
    anna, _boris, vera, _gleb = people
    axe = Card.objects.create(catalogue=catalogue, name_ru="Топор", name_en="Axe", kind="attack")
    client = as_user(referee)
    client.cookies["django_language"] = "en"
    version = Situation.objects.get(pk=over.pk).version
    response = _strike(client, event, anna, vera, axe)  # both of the battle; the Axe is not hers
    assert response.status_code in (400, 422)  # not a 409 "already started", never a 500
    assert 'id="running-fight-link"' not in response.content.decode()
    row = Situation.objects.get(pk=over.pk)
    assert not row.ended and row.version == version


def test_S2_IA6_the_battle_start_page_offers_and_starts_a_battle_with_the_people_of_one_over(
    as_user, referee, event, people, over
):
    anna, boris, vera, gleb = people
    client = as_user(referee)
    client.cookies["django_language"] = "en"
    page = client.get(reverse("duels:battle-start", args=[event.pk])).content.decode()
    assert f'value="{vera.pk}"' in page  # offered again: her fight is over (S2)

    def start(chosen):
        data = {
            "nonce": nonce(),
            "combatants": [p.pk for p in chosen],
            "declarer": vera.pk,
            **{f"side_{p.pk}": p.side for p in chosen},
        }
        return client.post(reverse("duels:battle-start", args=[event.pk]), data)

    left = start([boris, vera, gleb])  # Anna, still able to fight, is in that situation too (S2)
    assert left.status_code == 422
    assert "Anna is still in that combat situation (S2)" in left.content.decode()
    assert not Situation.objects.get(pk=over.pk).ended
    response = start([anna, boris, vera, gleb])
    assert response.status_code == 302
    made = Situation.objects.filter(kind=Situation.Kind.BATTLE).exclude(pk=over.pk).get()
    assert response["Location"] == reverse("duels:battle", args=[made.pk])
    assert B.from_dict(made.opening).instant_attack_used  # IA6 carried
    over.refresh_from_db()
    assert over.ended and battle_state(over).closed

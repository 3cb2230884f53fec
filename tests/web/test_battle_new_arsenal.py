"""D3 in a battle: between rounds the referee builds a new arsenal on the spot from a fighter's pool.

The same picker as a duel's round break (the arsenal builder's ``card_<id>``
fields) and the engine's ``check_arsenal`` decide; a refusal changes nothing;
the log gives the card count, never the cards (D4).
"""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from cards.models import Card
from cards.words import explain
from duels.battle.log import describe_battle
from duels.battle.start import build_between_rounds
from events.models import Character
from rules import RuleError
from tests.services.battle_kit import battle_state, begin
from tests.services.kit import nonce
from tests.web.battle_page_kit import to_round_break

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(event, people, referee):
    """[D3] The event makes every round a bout, so a round of passes reaches a bout break."""
    event.every_round_a_bout = True
    event.save()
    return begin(event, people, referee)


def card(name):
    return Card.objects.get(name_en=name)


def hand_of(situation, character):
    st = battle_state(situation)
    return sorted(st.cards[u].face.name for u in st.combatants[character.pk].hand)


def build(situation, user, character, ids):
    situation.refresh_from_db()
    return build_between_rounds(situation, character, ids, user=user, seen_version=situation.version, nonce=nonce())


def post(client, situation, **data):
    situation.refresh_from_db()
    payload = {"version": situation.version, "nonce": nonce(), **data}
    url = reverse("duels:battle-arsenal", args=[situation.pk])
    return client.post(url, payload, headers={"HX-Request": "true"})


def last_log_lines(situation):
    situation.refresh_from_db()
    entry = situation.log.select_related("actor").order_by("-seq")[:1]
    return describe_battle(entry, battle_state(situation))[0].lines


# --- through the service ---------------------------------------------------------------


def test_D3_a_new_arsenal_from_the_pool_replaces_the_hand_between_rounds(battle, referee, people):
    vera = people[2]
    to_round_break(battle, referee)
    before = battle_state(battle).combatants[vera.pk].hand
    build(battle, referee, vera, [card("Blade").pk, card("Blade").pk, card("Shield").pk])
    st = battle_state(battle)
    assert hand_of(battle, vera) == ["Blade", "Blade", "Shield"]
    assert set(before) <= set(st.combatants[vera.pk].set_aside)  # D3: the old hand is set aside
    # R4: a card keeps its catalogue action kind in the new arsenal.
    build(battle, referee, vera, [card("Riposte").pk])
    st = battle_state(battle)
    assert [st.cards[u].action for u in st.combatants[vera.pk].hand] == ["response"]


def test_D3_D4_the_log_gives_the_new_arsenal_s_card_count_not_its_cards(battle, referee, people):
    vera = people[2]
    to_round_break(battle, referee)
    build(battle, referee, vera, [card("Bolt").pk, card("Nova").pk, card("Shield").pk])
    with translation.override("en"):
        assert last_log_lines(battle) == ["Vera takes a new arsenal (3 cards, D3)."]
    build(battle, referee, vera, [card("Bolt").pk])
    with translation.override("ru"):
        assert last_log_lines(battle) == ["Vera берёт новый арсенал (1 карта, D3)."]


def test_AG2_no_new_arsenal_in_round_1(battle, referee, people):
    battle.refresh_from_db()
    version = battle.version
    with pytest.raises(RuleError) as refused:
        build(battle, referee, people[2], [card("Bolt").pk])
    assert refused.value.rule_id == "AG2"
    battle.refresh_from_db()
    assert battle.version == version


@pytest.mark.parametrize(
    ("picks", "words"),
    [
        (["Blade", "Blade", "Bolt", "Nova", "Shield", "Snap"], "An arsenal holds at most 5 cards; this one has 6."),
        (["Bolt", "Bolt"], "The arsenal has 2 copies of card"),
        ([], "Pick at least one card for the new arsenal, or keep the hand."),
    ],
)
def test_D3_a_new_arsenal_over_the_limit_beyond_the_pool_or_empty_changes_nothing(
    battle, referee, people, picks, words
):
    vera = people[2]
    to_round_break(battle, referee)
    battle.refresh_from_db()
    version, hand = battle.version, hand_of(battle, vera)
    with pytest.raises(RuleError) as refused:
        build(battle, referee, vera, [card(name).pk for name in picks])
    with translation.override("en"):
        assert words in explain(refused.value)
    battle.refresh_from_db()
    assert battle.version == version and hand_of(battle, vera) == hand


def test_D3_a_card_not_in_the_pool_is_refused(battle, referee, people, event):
    vera = people[2]
    spear = Card.objects.create(catalogue=event.catalogue, name_ru="Копьё", name_en="Spear", kind="attack")
    to_round_break(battle, referee)
    battle.refresh_from_db()
    version = battle.version
    with pytest.raises(RuleError) as refused:
        build(battle, referee, vera, [spear.pk])
    with translation.override("en"):
        assert explain(refused.value) == "Card «Spear» is not in this character's pool."
    battle.refresh_from_db()
    assert battle.version == version


# --- through the referee's tablet --------------------------------------------------------


def test_D3_the_tablet_offers_each_fighter_their_pool_at_a_round_break(as_user, referee, battle, people):
    client = as_user(referee)
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert 'name="fighter"' not in page  # round 1 is on: no arsenal choice (AG2)
    to_round_break(battle, referee)
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    for person in people:
        assert f'id="new-arsenal-{person.pk}"' in page
        assert f'id="battle-pool-{person.pk}-{card("Blade").pk}"' in page
    assert f'name="card_{card("Blade").pk}"' in page and 'max="2"' in page  # Blade x2 in the pool
    assert "at most 5 cards" in page


def test_D3_the_referee_builds_a_new_arsenal_from_the_tablet(as_user, referee, battle, people):
    vera = people[2]
    client = as_user(referee)
    to_round_break(battle, referee)
    response = post(client, battle, fighter=vera.pk, **{f"card_{card('Blade').pk}": 2, f"card_{card('Snap').pk}": 1})
    assert response.status_code == 200
    assert hand_of(battle, vera) == ["Blade", "Blade", "Snap"]
    assert "Vera takes a new arsenal (3 cards, D3)." in response.content.decode()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_D3_an_empty_or_oversized_selection_is_refused_in_words_and_changes_nothing(
    as_user, referee, battle, people, language
):
    vera = people[2]
    client = as_user(referee)
    client.cookies["django_language"] = language
    to_round_break(battle, referee)
    battle.refresh_from_db()
    version, hand = battle.version, hand_of(battle, vera)
    empty = post(client, battle, fighter=vera.pk, **{f"card_{card('Blade').pk}": 0})
    too_many = post(
        client,
        battle,
        fighter=vera.pk,
        **{f"card_{card(n).pk}": 1 for n in ("Bolt", "Nova", "Shield", "Snap", "Riposte", "Counterspell")},
    )
    assert empty.status_code == 400 and too_many.status_code == 422
    expected = {
        "en": ("Pick at least one card for the new arsenal", "An arsenal holds at most 5 cards; this one has 6."),
        "ru": ("Выберите хотя бы одну карту для нового арсенала", "В арсенале не более 5 карт, а в этом — 6."),
    }[language]
    assert expected[0] in empty.content.decode()
    assert expected[1] in too_many.content.decode()
    battle.refresh_from_db()
    assert battle.version == version and hand_of(battle, vera) == hand


def test_D3_cards_outside_the_pool_and_garbage_are_refused(as_user, referee, battle, people, other_event):
    vera = people[2]
    stranger = Character.objects.create(event=other_event, name="Stranger")
    client = as_user(referee)
    to_round_break(battle, referee)
    battle.refresh_from_db()
    version = battle.version
    not_owned = post(client, battle, fighter=vera.pk, **{"card_999999": 1})
    assert not_owned.status_code == 422 and "is not in this character&#x27;s pool" in not_owned.content.decode()
    assert post(client, battle, fighter=vera.pk, **{f"card_{card('Bolt').pk}": "two"}).status_code == 400
    assert post(client, battle, fighter=stranger.pk, **{f"card_{card('Bolt').pk}": 1}).status_code == 400
    assert post(client, battle).status_code == 400  # neither a prepared arsenal nor a fighter
    battle.refresh_from_db()
    assert battle.version == version

"""The player's character page: condition, focus and the arsenal, in a fixed number of queries."""

import pytest
from django.urls import reverse

from cards.arsenal import arsenal_context
from cards.models import ArsenalCard, Card, PoolEntry, PreparedArsenal, PreparedArsenalCard


def _cards(catalogue, count: int, kind: str = "defence") -> list[Card]:
    return [Card.objects.create(catalogue=catalogue, name_ru=f"Карта {kind} {i}", kind=kind) for i in range(count)]


def _fill(character, catalogue, count: int) -> None:
    cards = _cards(catalogue, count)
    for card in cards:
        PoolEntry.objects.create(character=character, card=card, copies=2)
        ArsenalCard.objects.create(character=character, card=card)
    for n in range(3):
        prepared = PreparedArsenal.objects.create(character=character, name=f"Set {n}")
        for card in cards:
            PreparedArsenalCard.objects.create(arsenal=prepared, card=card)


def test_D4_page_shows_hand_pool_prepared_condition_and_focus(as_user, player, character, attack_card, defence_card):
    """D4: the holder sees their own unplayed cards; F1: the focused card is shown."""
    ArsenalCard.objects.create(character=character, card=attack_card, copies=2)
    ArsenalCard.objects.create(character=character, card=defence_card)
    PoolEntry.objects.create(character=character, card=defence_card, copies=3)
    prepared = PreparedArsenal.objects.create(character=character, name="Night set")
    PreparedArsenalCard.objects.create(arsenal=prepared, card=attack_card)
    character.focus_card = defence_card
    character.condition = "lightly_wounded"
    character.save()
    page = as_user(player).get(reverse("events:my-character", args=[character.pk]), HTTP_ACCEPT_LANGUAGE="en")
    text = page.text
    assert page.status_code == 200
    assert "Fireball" in text or "Огненный шар" in text
    assert "Night set" in text
    assert "Mage Shield" in text or "Щит мага" in text
    assert 'id="character-state"' in text
    assert "no-store" in page["Cache-Control"]  # a shared tablet's browser must not keep the hand


def test_arsenal_context_builds_hand_pool_and_prepared(character, attack_card, defence_card):
    ArsenalCard.objects.create(character=character, card=attack_card, copies=2)
    PoolEntry.objects.create(character=character, card=defence_card)
    PreparedArsenal.objects.create(character=character, name="Empty")
    context = arsenal_context(character)
    assert context["hand"] == [(attack_card, 2)]
    assert context["hand_size"] == 2
    assert [entry.card for entry in context["pool"]] == [defence_card]
    assert [p.name for p in context["prepared"]] == ["Empty"]


@pytest.mark.parametrize("count", [1, 12])
def test_arsenal_context_takes_four_queries_whatever_the_size(count, character, catalogue, django_assert_num_queries):
    _fill(character, catalogue, count)
    with django_assert_num_queries(4):
        context = arsenal_context(character)
        for prepared in context["prepared"]:
            for entry in prepared.cards.all():
                assert entry.card.name
    assert len(context["hand"]) == count


def test_player_page_query_count_does_not_grow_with_the_arsenal(
    as_user, player, character, catalogue, django_assert_max_num_queries
):
    client = as_user(player)
    _fill(character, catalogue, 2)
    url = reverse("events:my-character", args=[character.pk])
    client.get(url)  # warm the session and the template cache
    with django_assert_max_num_queries(12) as small:
        client.get(url)
    for card in _cards(catalogue, 15, kind="attack"):
        ArsenalCard.objects.create(character=character, card=card)
    with django_assert_max_num_queries(len(small.captured_queries)):
        response = client.get(url)
    assert response.status_code == 200


def test_page_links_to_the_live_fight_page(as_user, player, character):
    mine = as_user(player).get(reverse("events:my-character", args=[character.pk]))
    assert reverse("duels:player-live", args=[character.pk]) in mine.text
    by_link = as_user(None).get(reverse("events:character-link", args=[character.link_token]))
    assert reverse("duels:player-live-token", args=[character.link_token]) in by_link.text


def test_referee_opening_a_players_secret_link_is_offered_to_start_a_fight(as_user, referee, character, player):
    character_link = reverse("events:character-link", args=[character.link_token])
    start = reverse("duels:start", args=[character.event_id]) + f"?with={character.pk}"
    assert start in as_user(referee).get(character_link).content.decode()
    assert start not in as_user(player).get(character_link).content.decode()
    assert start not in as_user(None).get(character_link).content.decode()

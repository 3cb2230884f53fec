"""Who may open each cards page (DESIGN.md §6, D4): out of scope is a 404, anonymous goes to the login page.

Catalogue pages: organizers edit, referees read. The arsenal builder and
import/export: organizers only.
"""

import pytest
from django.urls import reverse

from cards.models import ArsenalCard, Card, CounterRule, PoolEntry, PreparedArsenal

ROLES = ["anonymous", "player", "other_player", "referee", "organizer", "other_organizer"]
STAFF_READ = {"referee", "organizer"}
ORGANIZER_ONLY = {"organizer"}


def _expect(response, allowed: bool, role: str) -> None:
    if role == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    elif allowed:
        assert response.status_code == 200, response.content[:500]
    else:
        assert response.status_code == 404


def read_pages(event, card):
    return [
        reverse("cards:catalogue", args=[event.pk]),
        reverse("cards:card-edit", args=[event.pk, card.pk]),
        reverse("cards:counter-matrix", args=[event.pk]),
    ]


def organizer_pages(event, character):
    return [
        reverse("cards:card-new", args=[event.pk]),
        reverse("cards:catalogue-import", args=[event.pk]),
        reverse("cards:catalogue-export", args=[event.pk]) + "?what=cards&file_format=csv",
        reverse("cards:arsenal-builder", args=[character.pk]),
    ]


@pytest.mark.parametrize("role", ROLES)
def test_catalogue_and_matrix_pages_for_the_events_staff(role, personas, as_user, event, character, attack_card):
    client = as_user(personas[role])
    for url in read_pages(event, attack_card):
        _expect(client.get(url), allowed=role in STAFF_READ, role=role)


@pytest.mark.parametrize("role", ROLES)
def test_editing_pages_for_the_events_organizers_only(role, personas, as_user, event, character, attack_card):
    client = as_user(personas[role])
    for url in organizer_pages(event, character):
        _expect(client.get(url), allowed=role in ORGANIZER_ONLY, role=role)


def test_the_player_does_not_reach_their_own_arsenal_builder(as_user, player, character):
    """D4 lets the holder see their cards (on their own page), not edit them here."""
    assert as_user(player).get(reverse("cards:arsenal-builder", args=[character.pk])).status_code == 404


@pytest.mark.parametrize("role", [r for r in ROLES if r != "organizer"])
def test_changes_out_of_scope_are_404_and_change_nothing(
    role, personas, as_user, event, character, attack_card, defence_card
):
    """Every POST of the cards pages, by anyone but the event's organizer: 404 (or login), nothing saved."""
    PoolEntry.objects.create(character=character, card=attack_card, copies=2)
    prepared = PreparedArsenal.objects.create(character=character, name="Opening")
    character.restorable_arsenal = [attack_card.pk]
    character.save()
    client = as_user(personas[role])
    posts = [
        (reverse("cards:card-new", args=[event.pk]), {"name_ru": "Новая", "kind": "attack", "category": "spell"}),
        (reverse("cards:card-edit", args=[event.pk, attack_card.pk]), {"name_ru": "Renamed", "kind": "attack"}),
        (reverse("cards:card-delete", args=[event.pk, defence_card.pk]), {}),
        (reverse("cards:counter-matrix", args=[event.pk]), {f"c-{defence_card.pk}-{attack_card.pk}": "parried"}),
        (reverse("cards:arsenal-select", args=[character.pk]), {f"card_{attack_card.pk}": "1", "action": "build"}),
        (reverse("cards:pool-add", args=[character.pk]), {"card": defence_card.pk, "copies": "1"}),
        (reverse("cards:prepared-delete", args=[character.pk, prepared.pk]), {}),
        (reverse("cards:arsenal-restore", args=[character.pk]), {}),
    ]
    for url, data in posts:
        response = client.post(url, data)
        if role == "anonymous":
            assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        else:
            assert response.status_code == 404, url
    assert Card.objects.count() == 2
    assert Card.objects.get(pk=attack_card.pk).name_ru == "Огненный шар"
    assert not CounterRule.objects.exists()
    assert not ArsenalCard.objects.exists()
    assert list(PoolEntry.objects.values_list("card_id", flat=True)) == [attack_card.pk]
    assert PreparedArsenal.objects.filter(pk=prepared.pk).exists()


def test_referee_sees_the_card_read_only(as_user, referee, event, attack_card):
    response = as_user(referee).get(reverse("cards:card-edit", args=[event.pk, attack_card.pk]))
    content = response.content.decode()
    assert "disabled" in content
    assert reverse("cards:card-delete", args=[event.pk, attack_card.pk]) not in content


def test_a_card_of_another_catalogue_is_404(as_user, organizer, event, db):
    from cards.models import Catalogue

    stranger = Card.objects.create(catalogue=Catalogue.objects.create(name="Other"), name_ru="Чужая", kind="attack")
    client = as_user(organizer)
    assert client.get(reverse("cards:card-edit", args=[event.pk, stranger.pk])).status_code == 404
    assert client.post(reverse("cards:card-delete", args=[event.pk, stranger.pk])).status_code == 404
    assert Card.objects.filter(pk=stranger.pk).exists()

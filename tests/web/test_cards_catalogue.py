"""Catalogue pages: the filtered list, creating, editing and deleting cards (CR1)."""

import pytest
from django.urls import reverse

from cards.models import Card, Catalogue, PoolEntry
from events.models import Event


@pytest.fixture
def cards(catalogue, attack_card, defence_card):
    Card.objects.create(
        catalogue=catalogue,
        name_ru="Ледяная игла",
        name_en="Ice Needle",
        kind="attack",
        magic_type="water",
        category="ability",
        tags="ice, Fire-Proof",
        full_effect="lightly_wounded",
    )
    Card.objects.create(catalogue=catalogue, name_ru="Огненная стена", kind="defence", tags="fireproof")
    return catalogue


def listed(client, event, **params) -> str:
    return client.get(reverse("cards:catalogue", args=[event.pk]), params).content.decode()


def test_catalogue_lists_every_card(org, event, cards):
    content = listed(org, event)
    for name in ("Огненный шар", "Щит мага", "Ледяная игла", "Огненная стена"):
        assert name in content
    assert "4 cards" in content


@pytest.mark.parametrize(
    ("params", "shown", "hidden"),
    [
        ({"kind": "defence"}, ["Щит мага", "Огненная стена"], ["Огненный шар", "Ледяная игла"]),
        ({"magic_type": "water"}, ["Ледяная игла"], ["Огненный шар", "Щит мага"]),
        ({"category": "ability"}, ["Ледяная игла"], ["Огненный шар"]),
        # A whole tag: "fire" is not "fireproof" nor "fire-proof".
        ({"tag": "fire"}, ["Огненный шар"], ["Огненная стена", "Ледяная игла"]),
        # Search ignores case, Cyrillic included, in both names and the rules text.
        ({"q": "ОГНЕН"}, ["Огненный шар", "Огненная стена"], ["Ледяная игла"]),
        ({"q": "needle"}, ["Ледяная игла"], ["Огненный шар"]),
    ],
)
def test_catalogue_filters(org, event, cards, params, shown, hidden):
    content = listed(org, event, **params)
    for name in shown:
        assert name in content
    for name in hidden:
        assert name not in content


def test_catalogue_filter_by_htmx_returns_the_list_only(org, event, cards):
    response = org.get(reverse("cards:catalogue", args=[event.pk]), {"kind": "attack"}, HTTP_HX_REQUEST="true")
    content = response.content.decode()
    assert content.lstrip().startswith('<div id="card-list">')
    assert "<html" not in content and "Щит мага" not in content and "Огненный шар" in content


def test_bad_filter_values_show_everything_not_an_error(org, event, cards):
    response = org.get(reverse("cards:catalogue", args=[event.pk]), {"kind": "dragon", "tag": "nope"})
    assert response.status_code == 200
    assert "Огненный шар" in response.content.decode()


def test_CR1_organizer_creates_a_card_with_its_effects(org, event, catalogue):
    response = org.post(
        reverse("cards:card-new", args=[event.pk]),
        {
            "name_ru": "  Молния ",
            "name_en": "Lightning",
            "category": "spell",
            "kind": "attack",
            "magic_type": "wind",
            "full_effect": "paralysed",
            "softened_effect": "lightly_wounded",
            "tags": "Air, shock, air",
            "action_kind": "standard",
        },
    )
    assert response.status_code == 302
    card = Card.objects.get(catalogue=catalogue, name_ru="Молния")
    assert (card.full_effect, card.softened_effect, card.tags) == ("paralysed", "lightly_wounded", "air, shock")


def test_a_second_card_with_the_same_name_is_refused(org, event, catalogue, attack_card):
    response = org.post(
        reverse("cards:card-new", args=[event.pk]),
        {"name_ru": "Огненный шар", "category": "spell", "kind": "attack", "action_kind": "standard"},
    )
    assert response.status_code == 200
    assert "already has a card with this name" in response.content.decode()
    assert Card.objects.filter(name_ru="Огненный шар").count() == 1


def test_a_card_with_a_bad_kind_is_refused(org, event, catalogue):
    response = org.post(
        reverse("cards:card-new", args=[event.pk]),
        {"name_ru": "Дракон", "category": "spell", "kind": "dragon", "action_kind": "standard"},
    )
    assert response.status_code == 200
    assert "is-invalid" in response.content.decode()
    assert not Card.objects.filter(name_ru="Дракон").exists()


def test_organizer_edits_a_card(org, event, attack_card):
    data = {
        "name_ru": "Огненный шар",
        "name_en": "Great Fireball",
        "category": "spell",
        "kind": "attack",
        "full_effect": "dead",
        "softened_effect": "heavily_wounded",
        "tags": "fire",
        "action_kind": "standard",
    }
    org.post(reverse("cards:card-edit", args=[event.pk, attack_card.pk]), data)
    attack_card.refresh_from_db()
    assert (attack_card.name_en, attack_card.full_effect) == ("Great Fireball", "dead")


def test_card_in_a_pool_cannot_be_deleted(org, event, character, attack_card, defence_card):
    PoolEntry.objects.create(character=character, card=attack_card)
    response = org.post(reverse("cards:card-delete", args=[event.pk, attack_card.pk]), follow=True)
    assert "remove it from there first" in response.content.decode()
    assert Card.objects.filter(pk=attack_card.pk).exists()
    org.post(reverse("cards:card-delete", args=[event.pk, defence_card.pk]))
    assert not Card.objects.filter(pk=defence_card.pk).exists()


def test_shared_catalogue_is_announced(org, event, other_event, attack_card):
    """The fixtures' two events share one catalogue: editing it changes both."""
    content = listed(org, event)
    assert "This catalogue is shared with:" in content and other_event.name in content


def test_an_event_without_a_catalogue_gets_one(org, organizer, event):
    Event.objects.filter(pk=event.pk).update(catalogue=None)
    content = listed(org, event)
    assert "This event has no card catalogue yet." in content
    response = org.post(reverse("cards:catalogue-create", args=[event.pk]), {"name": "Winter cards"})
    assert response.status_code == 302
    assert Event.objects.get(pk=event.pk).catalogue == Catalogue.objects.get(name="Winter cards")


def test_a_catalogue_name_in_use_is_refused(org, event, catalogue):
    Event.objects.filter(pk=event.pk).update(catalogue=None)
    response = org.post(reverse("cards:catalogue-create", args=[event.pk]), {"name": catalogue.name})
    assert response.status_code == 200
    assert Event.objects.get(pk=event.pk).catalogue_id is None
    assert Catalogue.objects.count() == 1


def test_referee_cannot_create_a_catalogue(as_user, referee, event):
    Event.objects.filter(pk=event.pk).update(catalogue=None)
    response = as_user(referee).post(reverse("cards:catalogue-create", args=[event.pk]), {"name": "Mine"})
    assert response.status_code == 404
    assert not Catalogue.objects.filter(name="Mine").exists()

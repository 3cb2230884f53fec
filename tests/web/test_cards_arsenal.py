"""The arsenal builder: pool, current arsenal, prepared arsenals, restore and focus.

The checks are the engine's (ARSENAL, F1); these tests follow them through the
organizer's pages and assert the database after each request.
"""

import uuid

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from cards import arsenal, hooks
from cards.faces import face_of
from cards.models import ArsenalCard, Card, Catalogue, PoolEntry, PreparedArsenal, PreparedArsenalCard
from duels.duel.start import declare_aggression
from events.models import Character


@pytest.fixture
def pool(character, attack_card, defence_card, healing):
    PoolEntry.objects.create(character=character, card=attack_card, copies=2)
    PoolEntry.objects.create(character=character, card=defence_card, copies=1)
    PoolEntry.objects.create(character=character, card=healing, copies=3)
    return character


def hand(character) -> dict[int, int]:
    return dict(ArsenalCard.objects.filter(character=character).values_list("card_id", "copies"))


def select(client, character, action="build", name="", **copies):
    data = {"action": action, "name": name, **{f"card_{k}": v for k, v in copies.items()}}
    return client.post(reverse("cards:arsenal-select", args=[character.pk]), data, follow=True)


def test_builder_shows_the_limit_the_pool_and_the_player_view(org, pool, attack_card):
    response = org.get(reverse("cards:arsenal-builder", args=[pool.pk]))
    content = response.content.decode()
    assert response.status_code == 200
    assert "Arsenal size limit: 7 cards" in content  # power level 5
    assert "Fireball" in content and "Mage Shield" in content
    assert f'name="card_{attack_card.pk}"' in content


def test_a_valid_arsenal_is_saved(org, pool, attack_card, defence_card):
    response = select(org, pool, **{str(attack_card.pk): 2, str(defence_card.pk): 1})
    assert hand(pool) == {attack_card.pk: 2, defence_card.pk: 1}
    assert "The current arsenal is saved: 3 cards." in response.content.decode()


def test_ARSENAL_more_cards_than_the_limit_is_refused(org, pool, attack_card, defence_card, healing):
    ArsenalCard.objects.create(character=pool, card=healing, copies=1)
    pool.arsenal_limit = 3
    pool.save()
    response = select(org, pool, **{str(attack_card.pk): 2, str(defence_card.pk): 1, str(healing.pk): 1})
    assert "An arsenal holds at most 3 cards; this one has 4." in response.content.decode()
    assert hand(pool) == {healing.pk: 1}


def test_ARSENAL_a_card_outside_the_pool_is_refused_by_name(org, pool, attack_card, stranger_card):
    response = select(org, pool, **{str(attack_card.pk): 1, str(stranger_card.pk): 1})
    assert "Card «Call of Darkness» is not in this character&#x27;s pool." in response.content.decode()
    assert hand(pool) == {}


def test_ARSENAL_more_copies_than_owned_is_refused(org, pool, attack_card):
    response = select(org, pool, **{str(attack_card.pk): 3})
    assert "The arsenal has 3 copies of card «Fireball»; the pool holds only 2." in response.content.decode()
    assert hand(pool) == {}


def test_ARSENAL_refusal_keeps_the_organizers_selection_on_screen(org, pool, attack_card):
    response = select(org, pool, **{str(attack_card.pk): 3})
    assert 'value="3"' in response.content.decode()


def test_bad_numbers_are_form_errors_and_change_nothing(org, pool, attack_card):
    ArsenalCard.objects.create(character=pool, card=attack_card, copies=1)
    response = select(org, pool, **{str(attack_card.pk): "many"})
    assert response.status_code == 200
    assert hand(pool) == {attack_card.pk: 1}
    response = select(org, pool, **{str(attack_card.pk): "-1"})
    assert hand(pool) == {attack_card.pk: 1}


def test_D3_prepared_arsenal_is_saved_without_touching_the_current_one(org, pool, attack_card, defence_card):
    ArsenalCard.objects.create(character=pool, card=defence_card, copies=1)
    select(org, pool, action="save", name="Opening", **{str(attack_card.pk): 2, str(defence_card.pk): 1})
    prepared = PreparedArsenal.objects.get(character=pool, name="Opening")
    assert dict(prepared.cards.values_list("card_id", "copies")) == {attack_card.pk: 2, defence_card.pk: 1}
    assert hand(pool) == {defence_card.pk: 1}
    # The same name again replaces it.
    response = select(org, pool, action="save", name="Opening", **{str(defence_card.pk): 1})
    assert "Prepared arsenal “Opening” replaced." in response.content.decode()
    assert dict(PreparedArsenal.objects.get(pk=prepared.pk).cards.values_list("card_id", "copies")) == {
        defence_card.pk: 1
    }


def test_D3_prepared_arsenal_is_checked_like_any_arsenal(org, pool, attack_card):
    response = select(org, pool, action="save", name="Too much", **{str(attack_card.pk): 5})
    assert "the pool holds only 2" in response.content.decode()
    assert not PreparedArsenal.objects.exists()
    response = select(org, pool, action="save", name="  ", **{str(attack_card.pk): 1})
    assert "A prepared arsenal needs a name." in response.content.decode()
    assert not PreparedArsenal.objects.exists()


def test_D3_taking_a_prepared_arsenal_makes_it_the_current_one(org, pool, attack_card, healing):
    ArsenalCard.objects.create(character=pool, card=healing, copies=3)
    prepared = PreparedArsenal.objects.create(character=pool, name="Strike")
    PreparedArsenalCard.objects.create(arsenal=prepared, card=attack_card, copies=2)
    org.post(reverse("cards:prepared-take", args=[pool.pk, prepared.pk]))
    assert hand(pool) == {attack_card.pk: 2}


def test_D3_a_prepared_arsenal_the_pool_no_longer_covers_is_refused(org, pool, attack_card, healing):
    ArsenalCard.objects.create(character=pool, card=healing, copies=1)
    prepared = PreparedArsenal.objects.create(character=pool, name="Strike")
    PreparedArsenalCard.objects.create(arsenal=prepared, card=attack_card, copies=2)
    PoolEntry.objects.filter(character=pool, card=attack_card).update(copies=1)
    response = org.post(reverse("cards:prepared-take", args=[pool.pk, prepared.pk]), follow=True)
    assert "the pool holds only 1" in response.content.decode()
    assert hand(pool) == {healing.pk: 1}


def test_prepared_arsenal_of_another_character_is_404(org, pool, rival):
    theirs = PreparedArsenal.objects.create(character=rival, name="Theirs")
    assert org.post(reverse("cards:prepared-take", args=[pool.pk, theirs.pk])).status_code == 404
    assert org.post(reverse("cards:prepared-delete", args=[pool.pk, theirs.pk])).status_code == 404
    assert PreparedArsenal.objects.filter(pk=theirs.pk).exists()


def test_prepared_arsenal_is_deleted(org, pool):
    prepared = PreparedArsenal.objects.create(character=pool, name="Old")
    org.post(reverse("cards:prepared-delete", args=[pool.pk, prepared.pk]))
    assert not PreparedArsenal.objects.filter(pk=prepared.pk).exists()


def test_S2_restore_puts_back_the_arsenal_held_before_the_last_fight(org, pool, attack_card, defence_card, healing):
    ArsenalCard.objects.create(character=pool, card=healing, copies=1)
    pool.restorable_arsenal = [attack_card.pk, defence_card.pk, attack_card.pk]
    pool.save()
    response = org.post(reverse("cards:arsenal-restore", args=[pool.pk]), follow=True)
    assert "The arsenal is restored" in response.content.decode()
    assert hand(pool) == {attack_card.pk: 2, defence_card.pk: 1}


def test_S2_restore_with_nothing_saved_is_refused(org, pool, healing):
    ArsenalCard.objects.create(character=pool, card=healing, copies=1)
    response = org.post(reverse("cards:arsenal-restore", args=[pool.pk]), follow=True)
    assert "There is no original arsenal to restore yet." in response.content.decode()
    assert hand(pool) == {healing.pk: 1}


def test_S2_restore_is_checked_against_the_pool_of_today(org, pool, attack_card, stranger_card):
    pool.restorable_arsenal = [attack_card.pk, stranger_card.pk]
    pool.save()
    response = org.post(reverse("cards:arsenal-restore", args=[pool.pk]), follow=True)
    assert "«Call of Darkness» is not in this character" in response.content.decode()
    assert hand(pool) == {}


def test_AG2_D3_no_arsenal_change_while_the_character_is_in_an_unfinished_fight(
    org, pool, attack_card, healing, monkeypatch
):
    ArsenalCard.objects.create(character=pool, card=healing, copies=1)
    prepared = PreparedArsenal.objects.create(character=pool, name="Strike")
    PreparedArsenalCard.objects.create(arsenal=prepared, card=attack_card, copies=1)
    pool.restorable_arsenal = [attack_card.pk]
    pool.save()
    # Any fight app that says "in a fight" through the cards hook freezes the arsenal.
    monkeypatch.setattr(hooks, "_fight_checks", [lambda character: True])
    response = select(org, pool, **{str(attack_card.pk): 1})
    assert "is in a fight that has not ended" in response.content.decode()
    org.post(reverse("cards:prepared-take", args=[pool.pk, prepared.pk]))
    org.post(reverse("cards:arsenal-restore", args=[pool.pk]))
    assert hand(pool) == {healing.pk: 1}
    # Preparing for later is still allowed.
    select(org, pool, action="save", name="Later", **{str(attack_card.pk): 1})
    assert PreparedArsenal.objects.filter(name="Later").exists()


def test_AG2_the_fight_guard_is_the_fights_apps_own(org, pool, rival, referee, attack_card, healing):
    """A real unfinished situation (AG1: a spoken declaration) freezes the arsenal on the builder too."""
    ArsenalCard.objects.create(character=pool, card=healing, copies=1)
    ArsenalCard.objects.create(character=rival, card=attack_card, copies=1)
    declare_aggression(pool.event, pool, rival, None, user=referee, nonce=uuid.uuid4().hex)
    response = select(org, pool, **{str(attack_card.pk): 1})
    assert "is in a fight that has not ended" in response.content.decode()
    assert hand(pool) == {healing.pk: 1}


def test_F1_focus_on_a_defence_card_in_hand(org, pool, attack_card, defence_card):
    ArsenalCard.objects.create(character=pool, card=defence_card, copies=1)
    ArsenalCard.objects.create(character=pool, card=attack_card, copies=1)
    org.post(reverse("cards:arsenal-focus", args=[pool.pk]), {"card": defence_card.pk})
    assert Character.objects.get(pk=pool.pk).focus_card_id == defence_card.pk
    org.post(reverse("cards:arsenal-focus", args=[pool.pk]), {"card": ""})
    assert Character.objects.get(pk=pool.pk).focus_card_id is None


def test_F1_an_attack_card_cannot_be_focused(org, pool, attack_card, defence_card):
    ArsenalCard.objects.create(character=pool, card=attack_card, copies=1)
    response = org.post(reverse("cards:arsenal-focus", args=[pool.pk]), {"card": attack_card.pk}, follow=True)
    assert "Only a defence card can be focused; Fireball is an attack card." in response.content.decode()
    assert Character.objects.get(pk=pool.pk).focus_card_id is None


def test_F1_a_card_not_in_hand_cannot_be_focused(org, pool, defence_card):
    response = org.post(reverse("cards:arsenal-focus", args=[pool.pk]), {"card": defence_card.pk}, follow=True)
    assert "Card «Mage Shield» is not in this arsenal." in response.content.decode()
    assert Character.objects.get(pk=pool.pk).focus_card_id is None


@pytest.mark.parametrize("card", ["9" * 25, "0", "-3", "shield"])
def test_F1_a_focus_on_no_card_at_all_is_a_message(org, pool, defence_card, card):
    """A hand-made id beyond any database row (or no number) is refused by the form, not a 500."""
    ArsenalCard.objects.create(character=pool, card=defence_card, copies=1)
    Character.objects.filter(pk=pool.pk).update(focus_card=defence_card)
    response = org.post(reverse("cards:arsenal-focus", args=[pool.pk]), {"card": card}, follow=True)
    assert "Choose a card from the list." in response.content.decode()
    assert Character.objects.get(pk=pool.pk).focus_card_id == defence_card.pk


def test_ARSENAL_a_selection_naming_an_impossible_card_id_changes_nothing(org, pool, attack_card, healing):
    ArsenalCard.objects.create(character=pool, card=healing, copies=1)
    response = select(org, pool, **{str(attack_card.pk): 1, "9" * 25: 1})
    assert response.status_code == 200
    assert "The selection names a card that does not exist." in response.content.decode()
    assert hand(pool) == {healing.pk: 1}


def test_F1_the_focus_goes_when_its_card_leaves_the_hand(org, pool, attack_card, defence_card):
    ArsenalCard.objects.create(character=pool, card=defence_card, copies=1)
    Character.objects.filter(pk=pool.pk).update(focus_card=defence_card)
    select(org, pool, **{str(attack_card.pk): 1})
    assert Character.objects.get(pk=pool.pk).focus_card_id is None


def test_pool_add_adds_copies_and_stays_within_the_catalogue(org, character, attack_card):
    url = reverse("cards:pool-add", args=[character.pk])
    org.post(url, {"card": attack_card.pk, "copies": 2})
    org.post(url, {"card": attack_card.pk, "copies": 1})
    assert PoolEntry.objects.get(character=character, card=attack_card).copies == 3
    foreign = Card.objects.create(catalogue=Catalogue.objects.create(name="Other"), name_ru="Чужая", kind="attack")
    response = org.post(url, {"card": foreign.pk, "copies": 1})
    assert response.status_code == 200  # the form again, with its error
    assert not PoolEntry.objects.filter(card=foreign).exists()
    org.post(url, {"card": attack_card.pk, "copies": 0})
    assert PoolEntry.objects.get(character=character, card=attack_card).copies == 3


def test_pool_copies_change_and_remove(org, pool, healing):
    entry = PoolEntry.objects.get(character=pool, card=healing)
    org.post(reverse("cards:pool-copies", args=[pool.pk, entry.pk]), {"copies": 1})
    assert PoolEntry.objects.get(pk=entry.pk).copies == 1
    org.post(reverse("cards:pool-copies", args=[pool.pk, entry.pk]), {"remove": "1"})
    assert not PoolEntry.objects.filter(pk=entry.pk).exists()


def test_ARSENAL_the_pool_cannot_shrink_below_the_current_arsenal(org, pool, attack_card):
    ArsenalCard.objects.create(character=pool, card=attack_card, copies=2)
    entry = PoolEntry.objects.get(character=pool, card=attack_card)
    response = org.post(reverse("cards:pool-copies", args=[pool.pk, entry.pk]), {"copies": 1}, follow=True)
    assert "The current arsenal holds 2 copies of «Fireball»" in response.content.decode()
    org.post(reverse("cards:pool-copies", args=[pool.pk, entry.pk]), {"remove": "1"})
    assert PoolEntry.objects.get(pk=entry.pk).copies == 2


def test_pool_entry_of_another_character_is_404(org, pool, rival, attack_card):
    theirs = PoolEntry.objects.create(character=rival, card=attack_card, copies=1)
    assert org.post(reverse("cards:pool-copies", args=[pool.pk, theirs.pk]), {"copies": 5}).status_code == 404
    assert PoolEntry.objects.get(pk=theirs.pk).copies == 1


def test_arsenal_context_takes_four_queries_whatever_the_size(
    pool, attack_card, defence_card, healing, django_assert_num_queries
):
    ArsenalCard.objects.create(character=pool, card=attack_card, copies=2)
    ArsenalCard.objects.create(character=pool, card=healing, copies=1)
    for n in range(3):
        prepared = PreparedArsenal.objects.create(character=pool, name=f"P{n}")
        PreparedArsenalCard.objects.create(arsenal=prepared, card=attack_card, copies=1)
        PreparedArsenalCard.objects.create(arsenal=prepared, card=defence_card, copies=1)
    character = Character.objects.get(pk=pool.pk)
    with django_assert_num_queries(4):
        context = arsenal.arsenal_context(character)
        html = render_to_string("cards/_arsenal.html", context)
    assert context["hand_size"] == 3
    assert html.count("P1") == 1


def test_D4_player_arsenal_partial_shows_hand_pool_and_prepared(pool, attack_card, defence_card):
    attack_card.rules_text = "Throw it with both hands."
    attack_card.save()
    ArsenalCard.objects.create(character=pool, card=attack_card, copies=2)
    ArsenalCard.objects.create(character=pool, card=defence_card, copies=1)
    Character.objects.filter(pk=pool.pk).update(focus_card=defence_card)
    prepared = PreparedArsenal.objects.create(character=pool, name="Night plan")
    PreparedArsenalCard.objects.create(arsenal=prepared, card=attack_card, copies=1)
    with translation.override("en"):
        html = render_to_string("cards/_arsenal.html", arsenal.arsenal_context(Character.objects.get(pk=pool.pk)))
    assert "Fireball" in html and "×2" in html
    assert "heavily wounded" in html and "lightly wounded" in html
    assert "Throw it with both hands." in html
    assert "card-face defence focused" in html
    assert "3 / 7" in html
    assert "Night plan" in html and "Healing" in html  # pool lists Healing, not in hand


def test_face_of_snapshots_a_card_for_the_engine(attack_card):
    with translation.override("en"):
        face = face_of(attack_card)
    assert (face.card_id, face.name, face.kind) == (attack_card.pk, "Fireball", "attack")
    assert (face.full_effect, face.softened_effect, face.tags) == ("heavily_wounded", "lightly_wounded", ("fire",))


def test_AG2_the_builder_refuses_while_a_real_fight_is_open(org, pool, rival, referee, event, attack_card, healing):
    """The guard asks the fights app: after an aggression is declared the hand is frozen."""
    import uuid

    ArsenalCard.objects.create(character=pool, card=healing, copies=1)
    ArsenalCard.objects.create(character=rival, card=attack_card, copies=1)
    declare_aggression(event, pool, rival, None, user=referee, nonce=uuid.uuid4().hex)
    response = select(org, pool, **{str(attack_card.pk): 1})
    assert "Anton is in a fight that has not ended" in response.content.decode()
    assert hand(pool) == {healing.pk: 1}
    assert hand(rival) == {attack_card.pk: 1}
    page = org.get(reverse("cards:arsenal-builder", args=[pool.pk])).content.decode()
    assert "Anton is in a fight that has not ended: the arsenal can change only at the start of a bout" in page

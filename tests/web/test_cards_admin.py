"""The cards admin: every page opens, the character admin carries the pool and arsenal inlines."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cards.admin import ArsenalInline, PoolInline
from cards.models import ArsenalCard, Card, CounterRule, PoolEntry, PreparedArsenal, PreparedArsenalCard
from events.admin import CharacterAdmin


@pytest.fixture
def filled(catalogue, character, attack_card, defence_card):
    CounterRule.objects.create(defence_card=defence_card, attack_card=attack_card, outcome="parried")
    CounterRule.objects.create(defence_card=defence_card, attack_tag="fire", outcome="softened")
    PoolEntry.objects.create(character=character, card=attack_card, copies=2)
    ArsenalCard.objects.create(character=character, card=attack_card, copies=1)
    prepared = PreparedArsenal.objects.create(character=character, name="Opening")
    PreparedArsenalCard.objects.create(arsenal=prepared, card=attack_card)
    return prepared


def test_character_admin_has_the_pool_and_arsenal_inlines():
    assert PoolInline in CharacterAdmin.inlines and ArsenalInline in CharacterAdmin.inlines


def test_every_cards_admin_page_opens(admin_client_, filled, catalogue, character, attack_card, defence_card):
    urls = [
        reverse("admin:cards_catalogue_changelist"),
        reverse("admin:cards_catalogue_change", args=[catalogue.pk]),
        reverse("admin:cards_card_changelist"),
        reverse("admin:cards_card_change", args=[defence_card.pk]),
        reverse("admin:cards_counterrule_changelist"),
        reverse("admin:cards_counterrule_add"),
        reverse("admin:cards_preparedarsenal_changelist"),
        reverse("admin:cards_preparedarsenal_change", args=[filled.pk]),
        reverse("admin:events_character_change", args=[character.pk]),
    ]
    for url in urls:
        assert admin_client_.get(url).status_code == 200, url
    page = admin_client_.get(reverse("admin:events_character_change", args=[character.pk])).content.decode()
    assert "pool-" in page and "arsenal-" in page  # the inline formsets' prefixes


def test_card_autocomplete_for_the_pickers(admin_client_, attack_card, defence_card):
    response = admin_client_.get(
        reverse("admin:autocomplete"),
        {"app_label": "cards", "model_name": "poolentry", "field_name": "card", "term": "Огнен"},
    )
    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == [str(attack_card)]


@pytest.mark.parametrize("model", ["card", "counterrule", "preparedarsenal"])
def test_changelists_do_not_query_per_row(admin_client_, catalogue, character, model):
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert admin_client_.get(reverse(f"admin:cards_{model}_changelist")).status_code == 200
        return len(queries)

    def add(n: int, offset: int) -> None:
        for i in range(offset, offset + n):
            attack = Card.objects.create(catalogue=catalogue, name_ru=f"A{i}", kind="attack")
            defence = Card.objects.create(catalogue=catalogue, name_ru=f"D{i}", kind="defence")
            CounterRule.objects.create(defence_card=defence, attack_card=attack, outcome="parried")
            PreparedArsenal.objects.create(character=character, name=f"P{i}")

    add(2, 0)
    few = count()
    add(10, 2)
    assert count() == few


def test_character_admin_inlines_do_not_query_per_card(admin_client_, catalogue, character):
    def page_queries(n: int) -> int:
        PoolEntry.objects.all().delete()
        ArsenalCard.objects.all().delete()
        for i in range(n):
            card = Card.objects.create(catalogue=catalogue, name_ru=f"C{n}-{i}", kind="attack")
            PoolEntry.objects.create(character=character, card=card, copies=2)
            ArsenalCard.objects.create(character=character, card=card)
        with CaptureQueriesContext(connection) as queries:
            response = admin_client_.get(reverse("admin:events_character_change", args=[character.pk]))
        assert response.content.decode().count(f">C{n}-0</option>") == 2  # the pool row and the arsenal row
        return len(queries)

    assert page_queries(12) <= page_queries(2)


def test_prepared_arsenal_admin_saves_its_cards(admin_client_, filled, attack_card, defence_card):
    url = reverse("admin:cards_preparedarsenal_change", args=[filled.pk])
    row = filled.cards.get()
    data = {
        "character": filled.character_id,
        "name": "Opening",
        "cards-TOTAL_FORMS": "2",
        "cards-INITIAL_FORMS": "1",
        "cards-MIN_NUM_FORMS": "0",
        "cards-MAX_NUM_FORMS": "1000",
        "cards-0-id": row.pk,
        "cards-0-arsenal": filled.pk,
        "cards-0-card": attack_card.pk,
        "cards-0-copies": "2",
        "cards-1-arsenal": filled.pk,
        "cards-1-card": defence_card.pk,
        "cards-1-copies": "1",
    }
    response = admin_client_.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert dict(filled.cards.values_list("card_id", "copies")) == {attack_card.pk: 2, defence_card.pk: 1}


def test_card_change_page_does_not_query_per_counter_rule(
    admin_client_, catalogue, defence_card, django_assert_max_num_queries
):
    url = reverse("admin:cards_card_change", args=[defence_card.pk])

    def add_rules(n: int, tag: str) -> None:
        for i in range(n):
            attack = Card.objects.create(catalogue=catalogue, name_ru=f"{tag}{i}", kind="attack")
            CounterRule.objects.create(defence_card=defence_card, attack_card=attack, outcome="parried")

    add_rules(2, "few")
    with CaptureQueriesContext(connection) as few:
        assert admin_client_.get(url).status_code == 200
    add_rules(20, "many")
    with django_assert_max_num_queries(len(few)):
        response = admin_client_.get(url)
    assert ">many19</option>" in response.text  # each rule's attack card is shown by name

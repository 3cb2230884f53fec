"""The history of organizers' edits and the revert of one change (issue 22, docs/history.md)."""

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cards import arsenal as builder
from cards import history
from cards.models import ArsenalCard, Card, CounterRule, PoolEntry, PreparedArsenal
from duels import services
from duels.models import Situation
from events.models import Character
from tests.services.kit import knock_out

pytestmark = pytest.mark.django_db


def character_page(character):
    return reverse("cards:character-history", args=[character.pk])


def character_revert(character):
    return reverse("cards:character-revert", args=[character.pk])


def change_key(changes, kind, action="~"):
    return next(c.key for c in changes if c.kind == kind and c.action == action)


def test_a_form_edit_is_recorded_with_who_and_what_and_shown(org, organizer, character):
    response = org.post(
        reverse("events:character-edit", args=[character.pk]),
        {
            "name": "Anton Gorodetsky",
            "side": "light",
            "kind": "mage",
            "power_level": "4",
            "status": "accepted",
            "condition": "fit",
        },
    )
    assert response.status_code == 302
    record = Character.history.filter(id=character.pk).latest("history_date")
    assert record.history_type == "~" and record.history_user == organizer
    page = org.get(character_page(character)).content.decode()
    assert "Anton Gorodetsky" in page and "level 5 → level 4" in page and "organizer" in page


def test_revert_puts_back_one_change_and_is_itself_recorded_with_its_reason(org, organizer, character):
    character.name, character.notes = "Anton G.", "seen at the gate"
    character.save()
    key = change_key(history.character_changes(character.pk), "character")
    response = org.post(character_revert(character), {"change": key, "reason": "typo in the name"}, follow=True)
    character.refresh_from_db()
    assert (character.name, character.notes) == ("Anton", "")
    assert "Reverted" in response.content.decode()
    record = Character.history.filter(id=character.pk).latest("history_date")
    assert record.history_user == organizer
    assert "typo in the name" in record.history_change_reason and "Revert of the change" in record.history_change_reason


def test_revert_is_refused_when_the_field_changed_again_since(org, character):
    character.name = "Anton G."
    character.save()
    key = change_key(history.character_changes(character.pk), "character")
    character.name = "Anton Gorodetsky"
    character.save()
    response = org.post(character_revert(character), {"change": key, "reason": "oops"}, follow=True)
    character.refresh_from_db()
    assert character.name == "Anton Gorodetsky"
    assert "changed again since" in response.content.decode()


@pytest.mark.parametrize("data", [{"reason": "no key"}, {"change": "character:999999", "reason": "x"}, {"change": ""}])
def test_a_revert_without_a_reason_or_with_a_foreign_key_changes_nothing(org, character, rival, data):
    rival.name = "Zavulon the Great"
    rival.save()
    character.name = "Anton G."
    character.save()
    before = Character.history.count()
    if data.get("change") == "":
        # A reason is required: the right key without one changes nothing either.
        data = {"change": change_key(history.character_changes(character.pk), "character")}
    response = org.post(character_revert(character), data, follow=True)
    assert response.status_code == 200
    assert "Nothing was reverted" in response.content.decode()
    assert Character.history.count() == before
    character.refresh_from_db()
    assert character.name == "Anton G."


def test_a_change_of_another_character_cannot_be_reverted_through_this_page(org, character, rival):
    rival.name = "Zavulon the Great"
    rival.save()
    key = change_key(history.character_changes(rival.pk), "character")
    org.post(character_revert(character), {"change": key, "reason": "sneaky"})
    rival.refresh_from_db()
    assert rival.name == "Zavulon the Great"


@pytest.mark.parametrize("who", ["anonymous", "player", "referee", "other_organizer"])
def test_only_the_events_organizers_see_or_revert_the_history(as_user, personas, character, who):
    character.name = "Anton G."
    character.save()
    key = change_key(history.character_changes(character.pk), "character")
    client = as_user(personas[who])
    page = client.get(character_page(character))
    post = client.post(character_revert(character), {"change": key, "reason": "mine now"})
    if who == "anonymous":
        assert page.status_code == post.status_code == 302 and "/login" in page["Location"]
    else:
        assert page.status_code == post.status_code == 404
    character.refresh_from_db()
    assert character.name == "Anton G."


def test_pool_and_arsenal_changes_are_recorded_row_by_row_and_reverted_through_the_checks(
    org, character, attack_card, defence_card
):
    builder.add_to_pool(character, attack_card, 2)
    builder.add_to_pool(character, defence_card, 1)
    builder.build_arsenal(character, [attack_card.pk, attack_card.pk])
    builder.build_arsenal(character, [attack_card.pk, defence_card.pk])
    changes = history.character_changes(character.pk)
    assert sorted((c.kind, c.action) for c in changes if c.kind == "arsenal") == [
        ("arsenal", "+"),
        ("arsenal", "+"),
        ("arsenal", "~"),
    ]
    # The pool entry of the Fireball cannot be taken back while the arsenal holds one.
    pool_created = next(
        c for c in changes if c.kind == "pool" and c.action == "+" and c.record.card_id == attack_card.pk
    )
    response = org.post(character_revert(character), {"change": pool_created.key, "reason": "wrong"}, follow=True)
    assert "take them out of the arsenal first" in response.content.decode()
    assert PoolEntry.objects.filter(character=character, card=attack_card).exists()
    # Undo the Fireball's change of copies (2 → 1): back to two Fireballs and the shield.
    changed = next(c for c in changes if c.kind == "arsenal" and c.action == "~")
    org.post(character_revert(character), {"change": changed.key, "reason": "two fireballs"})
    assert dict(ArsenalCard.objects.filter(character=character).values_list("card_id", "copies")) == {
        attack_card.pk: 2,
        defence_card.pk: 1,
    }
    character.refresh_from_db()
    assert sorted(character.restorable_arsenal) == sorted([attack_card.pk, attack_card.pk, defence_card.pk])


def test_a_deleted_prepared_arsenal_comes_back_with_its_cards(org, character, attack_card, defence_card):
    builder.add_to_pool(character, attack_card, 2)
    builder.add_to_pool(character, defence_card, 1)
    prepared, _ = builder.save_prepared(character, "Night", [attack_card.pk, defence_card.pk, attack_card.pk])
    org.post(reverse("cards:prepared-delete", args=[character.pk, prepared.pk]))
    assert not PreparedArsenal.objects.filter(character=character).exists()
    key = change_key(history.character_changes(character.pk), "prepared", "-")
    org.post(character_revert(character), {"change": key, "reason": "deleted by mistake"})
    back = PreparedArsenal.objects.get(character=character)
    assert back.name == "Night"
    assert builder.prepared_ids(back) == sorted([attack_card.pk, attack_card.pk, defence_card.pk])


def test_card_and_counter_rule_history_with_the_revert_of_a_deleted_rule(org, event, attack_card, defence_card):
    page = reverse("cards:card-history", args=[event.pk, defence_card.pk])
    revert = reverse("cards:card-revert", args=[event.pk, defence_card.pk])
    org.post(
        reverse("cards:card-edit", args=[event.pk, defence_card.pk]),
        {
            "name_ru": "Щит мага",
            "name_en": "Great Shield",
            "category": "spell",
            "kind": "defence",
            "action_kind": "standard",
        },
    )
    rule = CounterRule.objects.create(defence_card=defence_card, attack_card=attack_card, outcome="parried")
    rule.delete()
    html = org.get(page).content.decode()
    assert "Mage Shield → Great Shield" in html and "counter rule" in html
    key = change_key(history.card_changes(defence_card.pk), "counter-rule", "-")
    org.post(revert, {"change": key, "reason": "still parries"})
    assert CounterRule.objects.filter(defence_card=defence_card, attack_card=attack_card, outcome="parried").exists()


def test_a_deleted_card_keeps_its_history_page_for_the_organizers_only(org, as_user, other_organizer, event, spark):
    spark_id = spark.pk
    org.post(reverse("cards:card-delete", args=[event.pk, spark_id]))
    assert not Card.objects.filter(pk=spark_id).exists()
    page = reverse("cards:card-history", args=[event.pk, spark_id])
    assert as_user(other_organizer).get(page).status_code == 404
    key = change_key(history.card_changes(spark_id), "card", "-")
    org.post(reverse("cards:card-revert", args=[event.pk, spark_id]), {"change": key, "reason": "needed after all"})
    assert Card.objects.get(pk=spark_id).name_en == "Spark"


T0 = dt.datetime(2026, 12, 5, 20, 0, tzinfo=dt.UTC)


@pytest.mark.usefixtures("clock")
def test_a_whole_fight_writes_no_history_row(request, armed, referee, attack_card, defence_card, spark, clock):
    """The step's hot path stays free of history: conditions by update(), the hand written back unrecorded."""
    anton, zavulon = armed
    models = history.history_models()
    before = {model: model._default_manager.count() for model in models}
    with CaptureQueriesContext(connection) as queries:
        shown = request.getfixturevalue("shown")  # Anton shows a Fireball (AG1): the fight begins here
        knock_out(shown, anton, zavulon, referee, attack_card, defence_card, spark)
        clock.shift(dt.timedelta(seconds=181))
        situation = services.refresh(Situation.objects.get(pk=shown.pk))
    assert situation.ended
    zavulon.refresh_from_db()
    assert zavulon.condition == "heavily_wounded"  # the fight did write the condition and the hands
    assert ArsenalCard.objects.filter(character=zavulon).count() == 0
    assert {model: model._default_manager.count() for model in models} == before
    assert not [q for q in queries.captured_queries if "historical" in q["sql"].lower()]


def test_every_history_model_is_listed_for_the_archive():
    assert {model._meta.label for model in history.history_models()} == {
        "events.HistoricalCharacter",
        "cards.HistoricalPoolEntry",
        "cards.HistoricalArsenalCard",
        "cards.HistoricalPreparedArsenal",
        "cards.HistoricalPreparedArsenalCard",
        "cards.HistoricalCard",
        "cards.HistoricalCounterRule",
    }


def test_a_condition_set_on_the_character_page_is_a_condition_record_not_a_history_change(org, organizer, character):
    org.post(
        reverse("events:character-edit", args=[character.pk]),
        {
            "name": "Anton",
            "side": "light",
            "kind": "mage",
            "power_level": "5",
            "status": "accepted",
            "condition": "dead",
        },
    )
    record = character.condition_records.get()
    assert (record.old, record.new, record.actor) == ("fit", "dead", organizer)
    assert not any(f.label == "condition" for c in history.character_changes(character.pk) for f in c.fields)

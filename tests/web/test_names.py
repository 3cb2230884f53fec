"""Names are stored in one written form, and names that look the same are duplicates (issue 13, helpers/names.py).

A right-to-left override, a zero-width joiner or a full-width letter pasted from a
chat must not reach the referee's tablet, and a character typed with a Latin «A»
must not sit beside the one typed with the Cyrillic letter.
"""

import pytest
from django.urls import reverse

from cards.models import Card, Catalogue
from events.models import Character, Event
from helpers.names import name_key, normalize_name
from tests.web.character_form_kit import character_form

pytestmark = pytest.mark.django_db

RLO, PDF, ZWJ, ZWSP, BOM, SHY = "\u202e", "\u202c", "\u200d", "\u200b", "\ufeff", "\u00ad"


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        (f"{RLO}нолубаЗ{PDF}", "нолубаЗ"),
        (f"Ант{ZWJ}он{ZWSP} Городец{SHY}кий{BOM}", "Антон Городецкий"),
        ("  Антон \t\n Городецкий  ", "Антон Городецкий"),
        ("Ａｎｔｏｎ", "Anton"),  # full-width letters (NFKC)
        ("Гесер\u2066\u2069", "Гесер"),  # an empty bidi isolate
        ("Ольга\x00\x07", "Ольга"),  # control characters
    ],
)
def test_names_are_normalized(typed, stored):
    assert normalize_name(typed) == stored


def test_lookalike_latin_letters_and_case_give_the_same_key():
    assert name_key("Антон") == name_key("AHTOH".replace("H", "Н")) == name_key("антон")
    assert name_key("Антон") == name_key("Aнтон")  # Latin A
    assert name_key("Антон") != name_key("Антонина")


def test_a_character_name_with_an_override_is_stored_without_it(as_user, organizer, event):
    as_user(organizer).post(
        reverse("events:character-create", args=[event.pk]), character_form(name=f"Свет{ZWJ}лана {RLO}")
    )
    assert Character.objects.filter(event=event, name="Светлана").exists()


def test_a_character_that_looks_like_another_is_refused(as_user, organizer, event, character):
    client = as_user(organizer)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    Character.objects.filter(pk=character.pk).update(name="Антон")
    before = Character.objects.count()
    response = client.post(
        reverse("events:character-create", args=[event.pk]), character_form(name=f" aнтон{ZWSP} ")
    )  # a Latin a, lower case, a zero-width space
    assert response.status_code == 200
    assert "already has a character named" in response.content.decode()
    assert Character.objects.count() == before


def test_the_same_name_in_another_event_is_fine(as_user, organizer, event, other_event, character):
    other = Character(event=other_event, name=character.name)
    other.full_clean()  # no clash across events


def test_a_card_that_looks_like_another_in_the_catalogue_is_refused(as_user, organizer, event, catalogue, attack_card):
    client = as_user(organizer)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    before = Card.objects.count()
    response = client.post(
        reverse("cards:card-new", args=[event.pk]),
        {
            "name_ru": "ОГНЕННЫЙ  ШАР",
            "name_en": "",
            "category": "spell",
            "kind": "attack",
            "magic_type": "fire",
            "full_effect": "heavily_wounded",
            "softened_effect": "",
            "tags": "",
            "action_kind": "standard",
        },
    )
    assert response.status_code == 200
    assert "already has a card with this name" in response.content.decode()
    assert Card.objects.count() == before


def test_a_catalogue_that_looks_like_another_is_refused(as_user, organizer, event, catalogue):
    Event.objects.filter(pk=event.pk).update(catalogue=None)
    response = as_user(organizer).post(
        reverse("cards:catalogue-create", args=[event.pk]), {"name": f"{catalogue.name.upper()}{ZWJ}"}
    )
    assert response.status_code == 200
    assert Catalogue.objects.count() == 1


def test_names_saved_by_any_path_are_normalized(event, catalogue):
    """Imports, the admin and code all save through the model field, not only the forms."""
    character = Character.objects.create(event=event, name=f"{RLO}Игорь  Теплов")
    card = Card.objects.create(catalogue=catalogue, name_ru=f"Щит{ZWJ} мага", name_en="Ｓｈｉｅｌｄ", kind="defence")
    event.name = f"Дозор{BOM}"
    event.save()
    for row in (character, card, event):
        row.refresh_from_db()
    assert (character.name, card.name_ru, card.name_en, event.name) == ("Игорь Теплов", "Щит мага", "Shield", "Дозор")

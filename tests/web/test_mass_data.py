"""Organizers' mass-battle data: magic cards, armlist and warriors in and out as files (M1, M3, M5)."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from cards.models_mass import Army, MagicCard, Warrior, WarriorType

pytestmark = pytest.mark.django_db

CARDS_CSV = (
    "name_ru,name_en,deck,magic_type,text,acts_on_protected,keepable,copies\n"
    "Огненный дождь,Fire Rain,2,огонь,Burns one unit,no,no,2\n"
    "Попутный ветер,Fair Wind,5,Wind,Move again,yes,yes,1\n"
)


def upload(client, event, what, text, name="data.csv"):
    file = SimpleUploadedFile(name, text.encode(), content_type="text/csv")
    return client.post(reverse("cards:mass-data", args=[event.pk]), {"what": what, "file": file})


def test_M1_M2_magic_cards_import_by_label_in_any_language_and_export_back(as_user, organizer, event):
    client = as_user(organizer)
    assert upload(client, event, "magic_cards", CARDS_CSV).status_code == 302
    rain = MagicCard.objects.get(name_ru="Огненный дождь")
    assert (rain.deck, rain.magic_type, rain.acts_on_protected, rain.keepable, rain.copies) == (
        2,
        "fire",
        False,
        False,
        2,
    )
    again = upload(client, event, "magic_cards", CARDS_CSV)  # updates, no duplicates
    assert again.status_code == 302 and MagicCard.objects.count() == 2
    exported = client.get(reverse("cards:mass-export", args=[event.pk]), {"what": "magic_cards", "file_format": "json"})
    rows = json.loads(exported.content)
    assert {r["name_ru"]: r["deck"] for r in rows} == {"Огненный дождь": "2", "Попутный ветер": "5"}
    assert {r["name_ru"]: r["acts_on_protected"] for r in rows} == {"Огненный дождь": "no", "Попутный ветер": "yes"}
    assert all("negative" not in r for r in rows)


def test_M3_a_file_with_the_old_negative_column_still_imports_as_what_it_decided(as_user, organizer, event):
    """[M3] "negative: no" meant the card acted on protected warriors: it is imported as acts_on_protected."""
    old = (
        "name_ru,name_en,deck,magic_type,text,negative,keepable,copies\n"
        "Огненный дождь,Fire Rain,2,огонь,Burns one unit,yes,no,2\n"
        "Попутный ветер,Fair Wind,5,Wind,Move again,no,yes,1\n"
        "Тихая вода,Still Water,4,water,,,no,1\n"
    )
    assert upload(as_user(organizer), event, "magic_cards", old).status_code == 302
    acts = dict(MagicCard.objects.values_list("name_en", "acts_on_protected"))
    assert acts == {"Fire Rain": False, "Fair Wind": True, "Still Water": False}
    bad = old.replace("Burns one unit,yes", "Burns one unit,perhaps")
    response = upload(as_user(organizer), event, "magic_cards", bad)
    assert response.status_code == 400 and "perhaps" in response.content.decode()


def test_M5_a_keepable_card_in_deck_4_is_refused_and_nothing_is_imported(as_user, organizer, event):
    bad = CARDS_CSV + "Ливень,Downpour,4,water,,no,yes,1\n"
    response = upload(as_user(organizer), event, "magic_cards", bad)
    assert response.status_code == 400 and MagicCard.objects.count() == 0
    assert "not deck 4" in response.content.decode()


def test_M3_armlist_and_warriors_import_with_protections_and_new_armies(as_user, organizer, event, character):
    client = as_user(organizer)
    types = 'name_ru,name_en,protections,description\nСаламандра,Salamander,"огонь, Water",Fire lizard\n'
    assert upload(client, event, "warrior_types", types).status_code == 302
    assert WarriorType.objects.get().protections == "fire,water"
    warriors = (
        f"army,name,warrior_type,character,state\nRed,7,Саламандра,{character.name},hospital\nRed,8,Саламандра,,\n"
    )
    assert upload(client, event, "warriors", warriors).status_code == 302
    army = Army.objects.get(event=event, name="Red")
    assert {(w.name, w.state, w.character_id) for w in army.warriors.all()} == {
        ("7", "hospital", character.pk),
        ("8", "field", None),
    }
    bad = "army,name,warrior_type,character,state\nBlue,1,Nobody,,\n"
    response = upload(client, event, "warriors", bad)
    assert response.status_code == 400 and not Army.objects.filter(name="Blue").exists()
    assert Warrior.objects.count() == 2
    page = client.get(reverse("cards:mass-data", args=[event.pk]))
    assert "Salamander" in page.content.decode() or "Саламандра" in page.content.decode()


def test_only_organizers_reach_the_mass_data(as_user, referee, player, event):
    for user in (referee, player, None):
        response = as_user(user).get(reverse("cards:mass-data", args=[event.pk]))
        assert response.status_code in (302, 404)


def test_M5_the_event_settings_page_keeps_and_checks_the_keepable_decks(as_user, organizer, event):
    from tests.web.event_form_kit import event_data

    client = as_user(organizer)
    url = reverse("events:event-settings", args=[event.pk])
    assert 'name="magic_keepable_decks"' in client.get(url).content.decode()
    assert 'value="2,5"' in client.get(url).content.decode()
    client.post(url, event_data(catalogue=event.catalogue_id, magic_keepable_decks="2, 4,5"))
    event.refresh_from_db()
    assert event.keepable_decks == (2, 4, 5)
    refused = client.post(url, event_data(catalogue=event.catalogue_id, magic_keepable_decks="3"))
    assert refused.status_code == 200 and "2, 4, 5 and 6" in refused.content.decode()
    event.refresh_from_db()
    assert event.keepable_decks == (2, 4, 5)


def test_M5_the_event_cannot_drop_a_deck_that_holds_a_keepable_card(as_user, organizer, event):
    from tests.web.event_form_kit import event_data

    MagicCard.objects.create(
        catalogue=event.catalogue, name_ru="Ветер", name_en="Fair Wind", deck=5, magic_type="wind", keepable=True
    )
    url = reverse("events:event-settings", args=[event.pk])
    refused = as_user(organizer).post(url, event_data(catalogue=event.catalogue_id, magic_keepable_decks="2"))
    assert refused.status_code == 200 and "Fair Wind" in refused.content.decode()
    event.refresh_from_db()
    assert event.keepable_decks == (2, 5)


def test_every_mass_battle_admin_page_opens(as_user, event):
    from django.contrib.auth.models import User

    from tests.services.mass_kit import armies, magic_cards

    root = as_user(User.objects.create_superuser("root", "root@example.org", "pass-root"))
    card = next(iter(magic_cards(event).values()))
    red, _blue = armies(event)
    warrior = red.warriors.first()
    assert warrior is not None
    for model, obj in (("magiccard", card), ("warriortype", warrior.warrior_type), ("army", red), ("warrior", warrior)):
        assert root.get(reverse(f"admin:cards_{model}_changelist")).status_code == 200
        assert root.get(reverse(f"admin:cards_{model}_change", args=[obj.pk])).status_code == 200
        assert root.get(reverse(f"admin:cards_{model}_add")).status_code == 200


def test_an_organizer_gives_an_army_a_new_secret_link(as_user, organizer, referee, event, client):
    from tests.services.mass_kit import armies

    red, _blue = armies(event)
    old = red.link_token
    url = reverse("cards:army-new-link", args=[event.pk, red.pk])
    assert as_user(referee).post(url).status_code == 404
    assert as_user(organizer).get(url).status_code == 405
    assert as_user(organizer).post(url).status_code == 302
    red.refresh_from_db()
    assert red.link_token != old
    assert client.get(reverse("duels:mass-army-link", args=[old])).status_code == 404
    assert client.get(reverse("duels:mass-army-link", args=[red.link_token])).status_code == 200


def test_M2_the_catalogue_and_the_armlist_speak_the_engines_words():
    import rules.mass as magic
    from cards.models_mass import MagicType

    assert tuple(MagicType.values) == magic.MAGIC_TYPES
    assert tuple(Warrior.State.values) == magic.WARRIOR_PLACES

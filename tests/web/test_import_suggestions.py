"""“Did you mean …?” for unknown card and character names, applied only when ticked (issue 22).

Every import that looks names up offers the closest known name beside the error (the pools
and arsenals file's characters and cards, a counter rule's cards, a warrior's type and
character); the import runs again with the ticked ones only. A name the check did not offer
cannot be slipped in through the form.
"""

import re

import pytest
from django.urls import reverse

from cards.models import CounterRule, PoolEntry
from cards.models_mass import Warrior, WarriorType
from events.imports.models import TableImport
from events.models import Character
from tests.web.mapping_kit import mapped_import, upload

pytestmark = pytest.mark.django_db

CORRECT = re.compile(r'<form method="post" action="([^"]+)" id="import-corrections">')


def correct_url(page: str) -> str:
    found = CORRECT.search(page)
    assert found, "no suggestions offered"
    return found.group(1)


def test_a_misspelt_card_and_character_are_offered_and_applied_when_ticked(
    org, event, character, attack_card, defence_card
):
    content = "character,list,card,copies\nAntn,pool,Огненый шар,2\nAnton,pool,Щит мага,1\n".encode()
    response = upload(org, event, "cards:arsenals-import", "a.csv", content)
    page = response.content.decode()
    assert response.status_code == 400
    assert "<td>2</td><td>character: No character “Antn” in this event.</td>" in page
    assert "Did you mean «Anton»?" in page and "Did you mean «Огненный шар»?" not in page  # one error per row
    url = correct_url(page)
    # Untouched, nothing changes; nothing is applied without a tick.
    org.post(url, {})
    assert not PoolEntry.objects.exists()
    again = org.post(url, {"use": ["2:character"]}, follow=True)
    page = again.content.decode()
    assert "Did you mean «Огненный шар»?" in page  # the next error of the same row, now its card
    assert not PoolEntry.objects.exists()
    done = org.post(correct_url(page), {"use": ["2:card"]})
    assert done.status_code == 302
    assert dict(PoolEntry.objects.filter(character=character).values_list("card__name_ru", "copies")) == {
        "Огненный шар": 2,
        "Щит мага": 1,
    }


def test_a_name_the_check_did_not_offer_cannot_be_posted_in(org, event, character, attack_card):
    content = "character,list,card,copies\nAntn,pool,Огненный шар,2\n".encode()
    response = upload(org, event, "cards:arsenals-import", "a.csv", content)
    url = correct_url(response.content.decode())
    org.post(url, {"use": ["2:card", "3:character", "2:list"]})
    record = TableImport.objects.get(event=event)
    assert record.status == TableImport.Status.REFUSED and not record.mapping.get("corrections")
    assert not PoolEntry.objects.exists()


def test_nothing_close_means_no_suggestion(org, event, character, attack_card):
    content = "character,list,card,copies\nZzyzx Qwerty,pool,Огненный шар,2\n".encode()
    response = upload(org, event, "cards:arsenals-import", "a.csv", content)
    assert response.status_code == 400 and "Did you mean" not in response.content.decode()


def test_CR2_a_counter_rule_misnaming_its_cards_is_offered_them(org, event, attack_card, defence_card):
    content = "defence_card,attack_card,attack_tag,outcome\nЩит мага,Огненный шор,,parried\n".encode()
    response = upload(org, event, "cards:catalogue-import", "r.csv", content, what="rules", file_format="")
    page = response.content.decode()
    assert "Did you mean «Огненный шар»?" in page
    done = org.post(correct_url(page), {"use": ["2:attack_card"]})
    assert done.status_code == 302
    assert CounterRule.objects.filter(defence_card=defence_card, attack_card=attack_card).exists()


def test_M3_a_warriors_type_and_character_are_offered(org, event, character):
    WarriorType.objects.create(event=event, name_ru="Пехота")
    content = "army,name,warrior_type,character\nСиние,Воин 1,Пехoта,Antonn\n".encode()  # a Latin o, a typo
    response = upload(org, event, "cards:mass-data", "w.csv", content, what="warriors")
    page = response.content.decode()
    assert response.status_code == 400 and "Did you mean «Anton»?" in page and "Did you mean «Пехота»?" in page
    org.post(correct_url(page), {"use": ["2:character", "2:warrior_type"]})
    assert Warrior.objects.get(name="Воин 1").character == character


def test_a_mapped_file_is_offered_names_too_and_comes_back_to_its_page(org, event, character, attack_card):
    content = "Персонаж;Где;Карта;Сколько\nAnton;пул;Огненый шар;2\n".encode()
    _page, response = mapped_import(
        org, event, "a.csv", content, "cards:arsenals-import", **{"column-1": "list", "column-3": "copies"}
    )
    text = response.content.decode()
    assert response.status_code == 400 and "«Карта» (C): No card “Огненый шар”" in text
    done = org.post(correct_url(text), {"use": ["2:card"]})
    assert done.status_code == 302 and PoolEntry.objects.filter(character=character, copies=2).exists()
    assert reverse("events:characters", args=[event.pk]) == done["Location"]
    assert Character.objects.filter(event=event).count() == 1

"""Bulk entry of pools, arsenals and prepared arsenals (issue 10) through the shared import pipeline.

One row per character, list and card; all or nothing; every arsenal checked by
the engine's arsenal rule (ARSENAL: within the pool and the size limit) and
refused while the character is in a fight (D3).
"""

import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from cards.models import ArsenalCard, Card, PoolEntry, PreparedArsenal
from events.models import Character
from tests.web.arsenal_lists import lists

HEADER = "character,list,card,copies\n"


@pytest.fixture
def shield2(catalogue) -> Card:
    return Card.objects.create(catalogue=catalogue, name_ru="Серый щит", name_en="Grey Shield", kind="defence")


def upload(client, event, name: str, content: bytes):
    url = reverse("cards:arsenals-import", args=[event.pk])
    return client.post(url, {"file": SimpleUploadedFile(name, content)})


def test_ARSENAL_pools_arsenals_and_prepared_arsenals_of_several_characters(
    as_user, organizer, event, character, rival, attack_card, defence_card
):
    content = (
        HEADER
        + "Anton,pool,Огненный шар,2\n"
        + "Anton,pool,Mage Shield,1\n"
        + "Anton,arsenal,Огненный шар,2\n"
        + "anton,Ночной патруль,Щит мага,1\n"  # a prepared arsenal; names in any letter case
        + "Anton,Ночной патруль,Fireball,1\n"
        + "Zavulon,пул,Щит мага,3\n"
        + "Zavulon,арсенал,Щит мага,3\n"
    )
    response = upload(as_user(organizer), event, "arsenals.csv", content.encode())
    assert response.status_code == 302, response.content.decode()
    assert lists(character) == {
        "pool": {"Огненный шар": 2, "Щит мага": 1},
        "arsenal": {"Огненный шар": 2},
        "Ночной патруль": {"Щит мага": 1, "Огненный шар": 1},
    }
    assert lists(rival) == {"pool": {"Щит мага": 3}, "arsenal": {"Щит мага": 3}}
    character.refresh_from_db()
    assert sorted(character.restorable_arsenal) == [attack_card.pk, attack_card.pk]  # S2's original arsenal


def test_ARSENAL_an_arsenal_beyond_the_pool_or_the_limit_refuses_the_whole_file(
    as_user, organizer, event, character, rival, attack_card, defence_card
):
    rival.arsenal_limit = 2
    rival.save()
    content = (
        HEADER
        + "Anton,pool,Огненный шар,1\n"
        + "Anton,arsenal,Огненный шар,2\n"  # row 3: two copies, the pool has one
        + "Zavulon,pool,Щит мага,5\n"
        + "Zavulon,arsenal,Щит мага,3\n"  # row 5: three cards, the limit is two
    )
    response = upload(as_user(organizer), event, "arsenals.csv", content.encode())
    assert response.status_code == 400
    page = response.content.decode()
    assert "<td>3</td><td>The arsenal has 2 copies of card «Огненный шар»; the pool holds only 1." in page
    assert "<td>5</td><td>An arsenal holds at most 2 cards; this one has 3." in page
    assert lists(character) == {} and lists(rival) == {}  # the good rows were not saved either


def test_a_pool_that_no_longer_covers_the_hand_is_refused(as_user, organizer, event, character, attack_card):
    PoolEntry.objects.create(character=character, card=attack_card, copies=2)
    ArsenalCard.objects.create(character=character, card=attack_card, copies=2)
    response = upload(as_user(organizer), event, "a.csv", (HEADER + "Anton,pool,Огненный шар,1\n").encode())
    assert response.status_code == 400
    assert "the pool holds only 1" in response.content.decode()
    assert lists(character)["pool"] == {"Огненный шар": 2}


def test_bad_rows_are_named_and_change_nothing(as_user, organizer, event, character, attack_card, other_event):
    Character.objects.create(event=other_event, name="Stranger")
    content = (
        HEADER
        + "Stranger,pool,Огненный шар,1\n"  # another event's character
        + "Anton,pool,Дракон,1\n"
        + "Anton,pool,Огненный шар,zero\n"
        + "Anton,,Огненный шар,1\n"
        + "Anton,pool,Огненный шар,1\n"
        + "Anton,pool,Fireball,1\n"  # the same card twice in one list
    )
    response = upload(as_user(organizer), event, "a.csv", content.encode())
    page = response.content.decode()
    assert response.status_code == 400
    # Every error names its column (issue 22), here the file's own column names.
    assert "<td>2</td><td>character: No character “Stranger” in this event.</td>" in page
    assert "<td>3</td><td>card: No card “Дракон” in the event&#x27;s catalogue.</td>" in page
    assert "<td>4</td><td>copies: “zero” is not a whole number from 1 to 99.</td>" in page
    assert "<td>5</td><td>list: say pool, arsenal or the name of a prepared arsenal.</td>" in page
    assert "<td>7</td><td>card: “Fireball” appears twice in this list.</td>" in page
    assert not PoolEntry.objects.exists()


def test_D3_a_character_in_a_fight_keeps_its_arsenal(as_user, organizer, event, character, attack_card, monkeypatch):
    from cards import arsenal

    monkeypatch.setattr(arsenal, "in_fight", lambda c: c.pk == character.pk)
    PoolEntry.objects.create(character=character, card=attack_card, copies=1)
    response = upload(as_user(organizer), event, "a.csv", (HEADER + "Anton,arsenal,Огненный шар,1\n").encode())
    assert response.status_code == 400
    assert "is in a fight that has not ended" in response.content.decode()
    assert "arsenal" not in lists(character)


@pytest.mark.parametrize("file_format", ["csv", "xlsx", "json"])
def test_export_then_import_round_trips(as_user, organizer, event, character, attack_card, defence_card, file_format):
    client = as_user(organizer)
    content = (
        HEADER
        + "Anton,pool,Огненный шар,2\nAnton,pool,Щит мага,1\nAnton,arsenal,Щит мага,1\nAnton,Утро,Огненный шар,2\n"
    )
    assert upload(client, event, "a.csv", content.encode()).status_code == 302
    before = lists(character)
    response = client.get(reverse("cards:arsenals-export", args=[event.pk]), {"format": file_format})
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    PoolEntry.objects.all().delete()
    ArsenalCard.objects.all().delete()
    PreparedArsenal.objects.all().delete()
    assert upload(client, event, f"back.{file_format}", response.content).status_code == 302
    assert lists(character) == before


def test_an_xlsx_with_numbers_as_numbers(as_user, organizer, event, character, attack_card):
    book = openpyxl.Workbook()
    for row in (["character", "list", "card", "copies"], ["Anton", "pool", "Огненный шар", 3.0]):
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    assert upload(as_user(organizer), event, "a.xlsx", out.getvalue()).status_code == 302
    assert lists(character) == {"pool": {"Огненный шар": 3}}


def test_only_the_events_organizers_import(as_user, referee, other_organizer, event, character, attack_card):
    for user in (referee, other_organizer):
        response = upload(as_user(user), event, "a.csv", (HEADER + "Anton,pool,Огненный шар,1\n").encode())
        assert response.status_code in (403, 404)
    assert not PoolEntry.objects.exists()

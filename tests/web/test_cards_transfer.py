"""Catalogue import and export (CSV, XLSX, JSON): all or nothing, with a row-level error report."""

import io
import json

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from cards.models import Card, Catalogue, CounterRule
from events.models import Event

CARD_FIELDS = (
    "name_ru",
    "name_en",
    "category",
    "kind",
    "magic_type",
    "full_effect",
    "softened_effect",
    "rules_text",
    "tags",
    "action_kind",
    "trigger_text",
    "trigger_kind",
    "double_attack",
)


def upload(client, event, name: str, content: bytes, what: str = "cards", file_format: str = ""):
    data = {"what": what, "file_format": file_format, "file": SimpleUploadedFile(name, content)}
    return client.post(reverse("cards:catalogue-import", args=[event.pk]), data)


def export(client, event, what: str, file_format: str) -> bytes:
    response = client.get(
        reverse("cards:catalogue-export", args=[event.pk]), {"what": what, "file_format": file_format}
    )
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    return response.content


def snapshot(catalogue) -> list[tuple]:
    return list(Card.objects.filter(catalogue=catalogue).order_by("name_ru").values_list(*CARD_FIELDS))


def rule_snapshot(catalogue) -> set[tuple]:
    return set(
        CounterRule.objects.filter(defence_card__catalogue=catalogue).values_list(
            "defence_card__name_ru", "attack_card__name_ru", "attack_tag", "outcome"
        )
    )


GOOD_CSV = (
    "name_ru,name_en,category,kind,magic_type,full_effect,softened_effect,rules_text,tags,action_kind,trigger_text\n"
    'Молния,Lightning,spell,attack,wind,paralysed,lightly_wounded,Strikes,"Air, shock",standard,\n'
    "Зеркало,Mirror,ability,Defence,,,,Reflects,,interrupt,when attacked\n"
)


def test_import_cards_from_csv(org, event, catalogue):
    response = upload(org, event, "cards.csv", GOOD_CSV.encode("utf-8-sig"))
    assert response.status_code == 200
    assert "Imported: 2 new, 0 updated." in response.content.decode()
    lightning = Card.objects.get(catalogue=catalogue, name_ru="Молния")
    assert (lightning.kind, lightning.full_effect, lightning.tags) == ("attack", "paralysed", "air, shock")
    mirror = Card.objects.get(catalogue=catalogue, name_ru="Зеркало")
    assert (mirror.kind, mirror.action_kind, mirror.trigger_text) == ("defence", "interrupt", "when attacked")


def test_a_cp1251_semicolon_csv_from_a_russian_excel_imports(org, event, catalogue):
    """The same encodings and delimiters as the character import (helpers/tables.py)."""
    response = upload(org, event, "cards.csv", "name_ru;kind\nМолния;атака\n".encode("cp1251"))
    assert "Imported: 1 new, 0 updated." in response.content.decode()
    assert Card.objects.get(catalogue=catalogue, name_ru="Молния").kind == "attack"


def test_choices_in_russian_import_for_an_english_speaking_organizer(org, event, catalogue):
    content = (
        "name_ru,category,kind,magic_type,full_effect,action_kind\n"
        "Молния,заклинание,атака,,тяжёлое ранение,немедленное прерывание\n"
    )
    response = upload(org, event, "cards.csv", content.encode())
    assert "Imported: 1 new, 0 updated." in response.content.decode()
    lightning = Card.objects.get(catalogue=catalogue, name_ru="Молния")
    assert (lightning.category, lightning.kind, lightning.full_effect, lightning.action_kind) == (
        "spell",
        "attack",
        "heavily_wounded",
        "interrupt",
    )


def test_import_updates_a_card_of_the_same_name(org, event, catalogue, attack_card):
    csv = "name_ru,name_en,kind,full_effect\nОгненный шар,Big Fireball,attack,dead\n"
    response = upload(org, event, "cards.csv", csv.encode())
    assert "Imported: 0 new, 1 updated." in response.content.decode()
    attack_card.refresh_from_db()
    assert (attack_card.name_en, attack_card.full_effect, attack_card.tags) == ("Big Fireball", "dead", "fire")


def test_import_with_a_bad_row_creates_nothing_and_names_the_row(org, event, catalogue, attack_card):
    before = snapshot(catalogue)
    csv = "name_ru,kind,full_effect\nМолния,attack,paralysed\nОгненный шар,attack,dead\nДракон,dragon,dead\n,attack,\n"
    response = upload(org, event, "cards.csv", csv.encode())
    content = response.content.decode()
    assert response.status_code == 400
    assert "nothing was imported" in content
    # Row numbers as a spreadsheet shows them: the header is row 1.
    assert "<td>4</td><td>kind: “dragon” is not one of: attack, defence.</td>" in content
    assert "<td>5</td><td>name_ru: This field cannot be blank.</td>" in content
    assert snapshot(catalogue) == before
    assert not Card.objects.filter(name_ru="Молния").exists()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("cards.xlsx", b"this is not a spreadsheet", "could not be read as an XLSX workbook"),
        ("cards.json", b"{not json", "could not be read as JSON"),
        ("cards.txt", b"name_ru\nx\n", "Choose the file&#x27;s format"),
    ],
)
def test_an_unreadable_file_changes_nothing(org, event, catalogue, name, content, message):
    response = upload(org, event, name, content)
    assert message in response.content.decode()
    assert not Card.objects.filter(catalogue=catalogue).exists()


@pytest.mark.parametrize("file_format", ["csv", "xlsx", "json"])
def test_export_import_round_trip_of_cards(org, event, catalogue, attack_card, defence_card, file_format):
    Card.objects.create(
        catalogue=catalogue,
        name_ru="Зеркало",
        name_en="Mirror",
        category="ability",
        kind="defence",
        magic_type="water",
        rules_text="Reflects, then\nbreaks",
        action_kind="response",
        trigger_text="after a hit",
    )
    before = snapshot(catalogue)
    data = export(org, event, "cards", file_format)
    # Into an empty catalogue of the same event: everything comes back.
    fresh = Catalogue.objects.create(name="Fresh")
    Event.objects.filter(pk=event.pk).update(catalogue=fresh)
    response = upload(org, event, f"export.{file_format}", data)
    assert "Imported: 3 new, 0 updated." in response.content.decode()
    assert snapshot(fresh) == before
    # And again into the same catalogue: nothing duplicated.
    response = upload(org, event, f"export.{file_format}", data)
    assert "Imported: 0 new, 3 updated." in response.content.decode()
    assert snapshot(fresh) == before


@pytest.mark.parametrize("file_format", ["csv", "xlsx", "json"])
def test_CR2_export_import_round_trip_of_counter_rules(org, event, catalogue, attack_card, defence_card, file_format):
    CounterRule.objects.create(defence_card=defence_card, attack_card=attack_card, outcome="softened")
    CounterRule.objects.create(defence_card=defence_card, attack_tag="fire", outcome="parried")
    before = rule_snapshot(catalogue)
    data = export(org, event, "rules", file_format)
    CounterRule.objects.all().delete()
    response = upload(org, event, f"rules.{file_format}", data, what="rules")
    assert "Imported: 2 new, 0 updated." in response.content.decode()
    assert rule_snapshot(catalogue) == before


def test_CR2_import_rules_by_english_name_and_tag(org, event, catalogue, attack_card, defence_card):
    csv = "defence_card,attack_card,attack_tag,outcome\nMage Shield,Fireball,,parries\nЩит мага,,Mind,softened\n"
    response = upload(org, event, "rules.csv", csv.encode(), what="rules")
    assert response.status_code == 200, response.content.decode()
    assert rule_snapshot(catalogue) == {
        ("Щит мага", "Огненный шар", "", "parried"),
        ("Щит мага", None, "mind", "softened"),
    }


def test_CR2_import_rules_with_bad_rows_saves_nothing(org, event, catalogue, attack_card, defence_card):
    csv = (
        "defence_card,attack_card,attack_tag,outcome\n"
        "Щит мага,Огненный шар,,parried\n"
        "Огненный шар,Щит мага,,parried\n"  # the kinds swapped
        "Щит мага,Огненный шар,fire,parried\n"  # both a card and a tag
        "Щит мага,Нет такой,,parried\n"  # unknown card
        "Щит мага,,fire,maybe\n"  # unknown outcome
    )
    response = upload(org, event, "rules.csv", csv.encode(), what="rules")
    content = response.content.decode()
    assert response.status_code == 400
    assert "No defence card “Огненный шар” in this catalogue." in content
    assert "not both or neither" in content
    assert "No attack card “Нет такой” in this catalogue." in content
    assert "“maybe” is not one of" in content
    for row in (3, 4, 5, 6):
        assert f"<td>{row}</td>" in content
    assert "<td>2</td>" not in content
    assert not CounterRule.objects.exists()


def test_xlsx_export_has_the_documented_columns(org, event, attack_card):
    book = openpyxl.load_workbook(io.BytesIO(export(org, event, "cards", "xlsx")))
    header = [cell.value for cell in next(book.active.rows)]
    assert tuple(header) == CARD_FIELDS


def test_json_export_is_a_list_of_cards(org, event, attack_card):
    rows = json.loads(export(org, event, "cards", "json"))
    assert rows[0]["name_ru"] == "Огненный шар" and rows[0]["kind"] == "attack"


def test_bad_export_parameters_are_a_message_not_an_error(org, event):
    response = org.get(reverse("cards:catalogue-export", args=[event.pk]), {"what": "x"}, follow=True)
    assert response.status_code == 200
    assert "Choose what to export" in response.content.decode()


def test_the_import_page_has_the_organizers_links(org, event):
    page = org.get(reverse("cards:catalogue-import", args=[event.pk])).content.decode()
    assert f'href="{reverse("events:organizer-home", args=[event.pk])}"' in page
    assert f'href="{reverse("events:characters", args=[event.pk])}"' in page


def test_BP2_R4_the_double_attack_and_trigger_kind_columns_import_and_export(org, event, catalogue):
    """[BP2, R4] Issue 25 items 5 and 10: the catalogue's battle properties go through files both ways."""
    csv = (
        "name_ru,kind,action_kind,trigger_kind,double_attack\n"
        "Вихрь,attack,standard,,1\n"
        "Отражение,defence,interrupt,attacked,0\n"
    )
    response = upload(org, event, "cards.csv", csv.encode("utf-8"))
    assert "Imported: 2 new, 0 updated." in response.content.decode()
    whirl = Card.objects.get(catalogue=catalogue, name_ru="Вихрь")
    mirror = Card.objects.get(catalogue=catalogue, name_ru="Отражение")
    assert (whirl.double_attack, whirl.trigger_kind) == (True, "")
    assert (mirror.double_attack, mirror.trigger_kind) == (False, "attacked")


def test_BP2_R4_the_card_s_page_shows_its_double_attack_and_trigger_kind(client, catalogue):
    from django.urls import reverse

    card = Card.objects.create(
        catalogue=catalogue,
        name_ru="Вихрь",
        name_en="Whirl",
        kind="attack",
        double_attack=True,
        action_kind="response",
        trigger_kind="attacked",
    )
    page = client.get(reverse("cards:card-entry", args=[card.pk])).content.decode()
    assert 'id="card-double-attack"' in page and "you are attacked" in page

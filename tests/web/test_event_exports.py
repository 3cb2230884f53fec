"""The event taken back out (issue 22): one workbook with every list, and the links for messaging."""

import csv
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from cards import arsenal as builder
from cards.models import CounterRule
from events.models import Character
from events.public_url import secret_link
from tests.print.print_kit import add_army, add_magic_cards

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(event, character, rival, bystander, attack_card, defence_card, catalogue):
    """Three characters (one pending), two with cards and a prepared arsenal, a counter rule, mass data."""
    for who in (character, rival):
        builder.add_to_pool(who, attack_card, 2)
        builder.add_to_pool(who, defence_card, 1)
        builder.build_arsenal(who, [attack_card.pk, defence_card.pk])
    builder.save_prepared(character, "Night", [attack_card.pk, attack_card.pk])
    CounterRule.objects.create(defence_card=defence_card, attack_tag="fire", outcome="parried")
    add_magic_cards(catalogue, 3)
    add_army(event, "Dark", 4, commander_name="Zavulon")
    Character.objects.filter(pk=bystander.pk).update(status="pending", notes='=HYPERLINK("http://evil")')
    return event


def workbook(org, event):
    response = org.get(reverse("cards:event-workbook", args=[event.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    return load_workbook(io.BytesIO(response.content), read_only=True)


def rows(book, title):
    return list(book[title].iter_rows(values_only=True))


def test_one_workbook_has_every_list_as_its_own_sheet_with_every_row(org, game):
    book = workbook(org, game)
    counts = {title: len(rows(book, title)) - 1 for title in book.sheetnames}  # less the header
    assert counts == {
        "Characters": 3,
        "Applications": 3,
        "Pools": 4,
        "Arsenals": 4,
        "Prepared arsenals": 1,
        "Catalogue": 2,
        "Counter rules": 1,
        "Magic cards": 3,
        "Armlist": 2,
        "Armies": 1,
        "Warriors": 4,
        "Check-in": 2,  # accepted characters only
    }
    assert rows(book, "Armies")[1] == ("Dark", "Zavulon", 4)
    assert ("Anton", "Night", "Огненный шар", 2) in rows(book, "Prepared arsenals")
    assert {r[2] for r in rows(book, "Applications")[1:]} == {"accepted", "pending"}


def test_a_cell_a_spreadsheet_would_run_is_plain_text_in_the_workbook(org, game):
    book = workbook(org, game)
    header, *data = rows(book, "Characters")
    notes = [row[header.index("notes")] for row in data if row[0] == "Olga"]
    assert notes == ['\'=HYPERLINK("http://evil")']


def test_the_sheet_titles_follow_the_organizers_language(org, game):
    org.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    book = workbook(org, game)
    assert "Персонажи" in book.sheetnames and "Правила противодействия" in book.sheetnames and "Пулы" in book.sheetnames


def test_links_for_messaging_list_the_working_links_with_the_contacts(org, game, character, rival, player):
    Character.objects.filter(pk=character.pk).update(
        contact_email="anton@example.org", contact_telegram="@anton_g", contact_vk="vk.com/anton"
    )
    player.email = "player@example.org"
    player.save()
    rival.revoke_link()
    character.refresh_from_db()
    response = org.get(reverse("cards:messaging-links", args=[game.pk]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    table = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert table[0] == ["character", "player", "email", "telegram", "vk", "secret_link"]
    assert table[1:] == [
        ["Anton", "player", "anton@example.org", "https://t.me/anton_g", "vk.com/anton", secret_link(character)]
    ]  # Zavulon's link is revoked, Olga is not accepted


def test_a_contact_a_spreadsheet_would_run_is_plain_text_in_the_links(org, game, character):
    Character.objects.filter(pk=character.pk).update(contact_vk="=cmd|'/c calc'!A1", contact_telegram="+7 900")
    table = list(
        csv.reader(io.StringIO(org.get(reverse("cards:messaging-links", args=[game.pk])).content.decode("utf-8-sig")))
    )
    assert table[1][3:5] == ["'+7 900", "'=cmd|'/c calc'!A1"]


@pytest.mark.parametrize("name", ["cards:event-workbook", "cards:messaging-links"])
@pytest.mark.parametrize("who", ["anonymous", "player", "referee", "other_organizer"])
def test_only_the_events_organizers_export(as_user, personas, game, name, who):
    response = as_user(personas[who]).get(reverse(name, args=[game.pk]))
    assert response.status_code == (302 if who == "anonymous" else 404)

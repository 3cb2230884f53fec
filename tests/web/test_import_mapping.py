"""The column-mapping step (issue 22): files from JoinRPG, allrpg.info and Google Forms, as those tools write them.

Each file (tests/web/foreign_files.py) goes through the characters import page: it is sent to
the mapping page, which recognises the tool, matches every column and the values of the
columns with choices (a JoinRPG field's «Свет» to the side ``light``, «вне категорий» to the
power level ``beyond``, «Принята» to ``accepted``), shows the first rows; nothing is written
until the organizer imports; then the characters are there with their invitations by e-mail,
groups, contacts and the other tool's ids. The mapping is remembered for the event.
"""

import pytest

from events.imports.models import ColumnMapping, TableImport
from events.models import Character
from tests.web import foreign_files
from tests.web.mapping_kit import mapped_import, shown_form, upload

pytestmark = pytest.mark.django_db


def characters(event) -> dict[str, dict]:
    fields = (
        "side",
        "power_level",
        "kind",
        "status",
        "invited_email",
        "invited_username",
        "groups",
        "external_id",
        "contact_vk",
        "contact_telegram",
    )
    return {c["name"]: c for c in Character.objects.filter(event=event).values("name", "contacts", *fields)}


@pytest.mark.parametrize("file_format", ["csv", "xlsx"])
def test_a_joinrpg_character_list_imports_with_its_columns_and_values_mapped(org, event, file_format):
    rows = foreign_files.joinrpg_characters_rows()
    content = foreign_files.joinrpg_csv(rows) if file_format == "csv" else foreign_files.joinrpg_xlsx(rows)
    page, response = mapped_import(org, event, f"characters.{file_format}", content)
    assert 'id="import-preset"' in page.text and "JoinRPG character list" in page.text
    form = shown_form(page.text)
    # «Персонаж» twice: the name, then the link (the character's id there); «Занят?» is ignored.
    assert [form[f"column-{i}"] for i in range(9)] == [
        "name",
        "external_id",
        "",
        "groups",
        "",
        "",
        "side",
        "power_level",
        "kind",
    ]
    assert form["column-9"] == "player" and form["column-13"] == "email"
    assert form["column-14"] == "vk" and form["column-16"] == "telegram"
    assert form["value-side-0"] == "v:light" and form["value-side-1"] == "v:dark"
    assert form["value-power_level-1"] == "v:beyond"
    assert 'id="mapping-preview"' in page.text and "Антон Городецкий" in page.text
    assert response.status_code == 302, response.content.decode()[:3000]
    found = characters(event)
    anton, zavulon, olga = found["Антон Городецкий"], found["Завулон"], found["Ольга"]
    assert (anton["side"], anton["power_level"], anton["kind"]) == ("light", "2", "mage")
    assert (zavulon["side"], zavulon["power_level"]) == ("dark", "beyond")
    assert anton["external_id"] == "joinrpg:5678" and zavulon["external_id"] == "joinrpg:5679"
    assert anton["groups"] == "Ночной Дозор, Маги"  # JoinRPG's " | " kept as the group list's commas
    # «Антон Петров» cannot be a user name: the invitation goes by the row's e-mail (issue 22).
    assert anton["invited_username"] == "" and anton["invited_email"] == "anton@example.org"
    assert anton["contacts"] == {"name": "Антон Петров"}
    assert (anton["contact_vk"], anton["contact_telegram"]) == ("id1001", "@anton")
    assert olga["invited_email"] == "" and olga["contacts"] == {}


@pytest.mark.parametrize("file_format", ["csv", "xlsx"])
def test_a_joinrpg_claims_list_imports_with_the_statuses_mapped(org, event, file_format):
    rows = foreign_files.joinrpg_claims_rows()
    content = foreign_files.joinrpg_csv(rows) if file_format == "csv" else foreign_files.joinrpg_xlsx(rows)
    page, response = mapped_import(org, event, f"claims.{file_format}", content)
    assert "JoinRPG claims list" in page.text
    form = shown_form(page.text)
    assert form["column-0"] == "name" and form["column-1"] == "" and form["column-2"] == "status"
    assert response.status_code == 302, response.content.decode()[:3000]
    found = characters(event)
    statuses = {name: c["status"] for name, c in found.items()}
    assert statuses == {"Семён": "accepted", "Алиса": "pending", "Игнат": "pending", "Светлана": "rejected"}
    assert found["Семён"]["invited_email"] == "semyon@example.org" and found["Алиса"]["side"] == "dark"


def test_an_allrpg_export_named_xls_is_read_as_the_html_table_it_is(org, event):
    page, response = mapped_import(org, event, "applications.xls", foreign_files.allrpg_xls())
    assert "allrpg.info applications" in page.text
    form = shown_form(page.text)
    assert form["column-0"] == "external_id" and form["column-2"] == "player" and form["column-5"] == "name"
    assert response.status_code == 302, response.content.decode()[:3000]
    found = characters(event)
    geser = found["Гесер"]
    # The player cell holds the e-mail, the phone and the name: the e-mail invites.
    assert geser["invited_email"] == "geser@example.org" and geser["status"] == "accepted"
    assert geser["external_id"] == "allrpg:501" and geser["side"] == "light"
    assert found["Тигрёнок"]["status"] == "pending"


def test_a_google_forms_sheet_imports_by_its_questions(org, event):
    page, response = mapped_import(org, event, "answers.csv", foreign_files.google_forms_csv())
    assert "Google Forms responses" in page.text
    assert response.status_code == 302
    lena = characters(event)["Лена"]
    assert (lena["invited_email"], lena["side"], lena["power_level"]) == ("lena@example.org", "dark", "3")


def test_nothing_is_written_before_the_organizer_imports(org, event):
    response = upload(
        org,
        event,
        "events:characters-import",
        "c.csv",
        foreign_files.joinrpg_csv(foreign_files.joinrpg_characters_rows()),
    )
    org.get(response["Location"])
    org.post(response["Location"], {**shown_form(org.get(response["Location"]).text), "action": "preview"})
    assert not Character.objects.filter(event=event).exists()
    assert TableImport.objects.get(event=event).status == TableImport.Status.MAPPING


def test_the_mapping_is_remembered_for_the_event_and_shown_for_the_next_file(org, event, other_event):
    content = foreign_files.joinrpg_csv(foreign_files.joinrpg_characters_rows())
    # The organizer keeps «Ответственный мастер» in the notes this time.
    _page, response = mapped_import(org, event, "c.csv", content, **{"column-5": "notes"})
    assert response.status_code == 302
    assert Character.objects.get(event=event, name="Завулон").notes == "Ольга Мастер"
    page = org.get(upload(org, event, "events:characters-import", "c.csv", content)["Location"])
    assert shown_form(page.text)["column-5"] == "notes"
    assert ColumnMapping.objects.filter(event=event, kind="characters").count() == 1
    assert not ColumnMapping.objects.filter(event=other_event).exists()


def test_every_row_error_names_the_files_row_and_column(org, event):
    rows = foreign_files.joinrpg_claims_rows()
    rows[2][2] = "Непонятно"  # a status no tool writes, on the file's row 3, column C
    rows[3][CLAIM_EMAIL] = "not-an-address"  # row 4, the e-mail column
    _page, response = mapped_import(org, event, "claims.csv", foreign_files.joinrpg_csv(rows))
    assert response.status_code == 400
    text = response.content.decode()
    assert "<td>3</td><td>«Статус» (C): “Непонятно” is not one of: pending, accepted, rejected.</td>" in text
    assert "<td>4</td><td>«Игрок.Email» (P): “not-an-address” is not an e-mail address.</td>" in text
    assert not Character.objects.filter(event=event).exists()


CLAIM_EMAIL = foreign_files.CLAIM_HEADER.index("Игрок.Email")


def test_a_display_name_without_an_e_mail_is_reported(org, event):
    rows = foreign_files.joinrpg_characters_rows()
    rows[1][foreign_files.CHARACTER_HEADER.index("Игрок.Email")] = ""
    _page, response = mapped_import(org, event, "c.csv", foreign_files.joinrpg_csv(rows))
    assert response.status_code == 400
    assert "«Игрок» (J): “Антон Петров” cannot be a user name" in response.content.decode()

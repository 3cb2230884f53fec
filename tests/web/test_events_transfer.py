"""Import and export of characters (CSV, XLSX): all rows or none, row-level errors, event fixed by the page."""

import csv
import io

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from events.models import Character

HEADER = "name,player,side,kind,power_level,condition,arsenal_limit,status,arrived,notes\n"


def import_errors(response) -> dict[str, list[str]]:
    """The page's error table (templates/_import_errors.html) as {row: [messages]}; "" is the whole file."""
    section = response.text.split('id="import-errors"')[1].split("</section>")[0]
    rows: dict[str, list[str]] = {}
    for line in section.split("<tr><td>")[1:]:
        row, message = line.split("</td><td>", 1)
        rows.setdefault("" if not row.isdigit() else row, []).append(message.split("</td>", 1)[0])
    return rows


def _upload(client, event, name: str, content: bytes):
    return client.post(
        reverse("events:characters-import", args=[event.pk]), {"file": SimpleUploadedFile(name, content)}
    )


def _xlsx(rows: list[list]) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_good_csv_creates_the_rows(as_user, organizer, event, player):
    content = (
        HEADER
        + "Olga,player,light,enchanter,2,fit,,accepted,no,Owl\n"
        + "Ignat,,Dark,Other,level 4,lightly wounded,6,pending,yes,\n"
    )
    response = _upload(as_user(organizer), event, "chars.csv", content.encode())
    assert response.status_code == 302
    olga = Character.objects.get(event=event, name="Olga")
    ignat = Character.objects.get(event=event, name="Ignat")
    # Naming an account invites it (issue 13): the player accepts on their home page.
    assert olga.player is None and olga.invited_username == "player"
    assert olga.side == "light" and olga.kind == "enchanter" and olga.power_level == "2"
    assert olga.arsenal_limit is None and olga.notes == "Owl" and not olga.arrived
    assert ignat.player is None and ignat.side == "dark" and ignat.kind == "other" and ignat.power_level == "4"
    assert ignat.condition == "lightly_wounded" and ignat.arsenal_limit == 6
    assert ignat.status == "pending" and ignat.arrived and ignat.arrived_at is not None


def test_good_xlsx_creates_the_rows(as_user, organizer, event):
    content = _xlsx(
        [
            ["name", "side", "power_level", "arsenal_limit", "arrived"],
            ["Semyon", "light", 3, 7, True],
            [None, None, None, None, None],  # a blank row is skipped
            ["Tolik", "neutral", "beyond", None, False],
        ]
    )
    response = _upload(as_user(organizer), event, "chars.xlsx", content)
    assert response.status_code == 302
    semyon = Character.objects.get(event=event, name="Semyon")
    assert semyon.power_level == "3" and semyon.arsenal_limit == 7 and semyon.arrived
    assert semyon.status == Character.Status.ACCEPTED  # the default for imported characters
    assert Character.objects.get(event=event, name="Tolik").power_level == "beyond"


def test_semicolon_csv_in_cp1251_from_a_russian_spreadsheet(as_user, organizer, event):
    content = "name;side;notes\nГесер;light;Глава Ночного Дозора\n".encode("cp1251")
    assert _upload(as_user(organizer), event, "chars.csv", content).status_code == 302
    geser = Character.objects.get(event=event, name="Гесер")
    assert geser.notes == "Глава Ночного Дозора" and geser.side == "light"


def test_choices_may_be_written_as_labels_in_either_language(as_user, organizer, event):
    """A file written by a Russian-speaking organizer imports for an English-speaking one, and back."""
    content = (
        HEADER
        + "Olga,,Свет,маг,5-й уровень,тяжёлое ранение,,ждёт рассмотрения,no,\n"
        + "Ignat,,Dark,Vampire,Beyond category,Heavily wounded,,Waiting for review,no,\n"
    )
    client = as_user(organizer)
    assert _upload(client, event, "chars.csv", content.encode()).status_code == 302
    client.cookies["django_language"] = "ru"
    english = HEADER + "Semyon,,dark,vampire,beyond category,heavily wounded,,waiting for review,no,\n"
    assert _upload(client, event, "more.csv", english.encode()).status_code == 302
    columns = ("name", "side", "kind", "power_level", "condition", "status")
    rows = Character.objects.filter(event=event).values_list(*columns)
    assert sorted(rows) == [
        ("Ignat", "dark", "vampire", "beyond", "heavily_wounded", "pending"),
        ("Olga", "light", "mage", "5", "heavily_wounded", "pending"),
        ("Semyon", "dark", "vampire", "beyond", "heavily_wounded", "pending"),
    ]


def test_bad_row_shows_the_row_error_and_creates_nothing(as_user, organizer, event):
    content = (
        HEADER
        + "Olga,,light,enchanter,2,fit,,accepted,no,\n"
        + "Ignat,ghost,purple,mage,9,fit,-1,accepted,maybe,\n"
        + "Semyon,,light,mage,3,fit,,accepted,no,\n"
    )
    response = _upload(as_user(organizer), event, "chars.csv", content.encode())
    assert response.status_code == 400
    rows = import_errors(response)
    assert list(rows) == ["3"]  # the spreadsheet's row number: the header is row 1
    errors = " ".join(rows["3"])
    assert "ghost" not in errors  # a name is an invitation, never a row error that tells if it exists
    assert "“purple” is not one of" in errors
    assert "“9” is not one of" in errors
    assert "“-1” is not a whole number" in errors
    assert "“maybe” is not yes or no" in errors
    assert not Character.objects.filter(event=event).exists()


def test_bad_row_does_not_update_existing_characters_either(as_user, organizer, event, character):
    content = HEADER + "Anton,,dark,mage,1,fit,,accepted,no,\nX,,light,mage,nope,fit,,accepted,no,\n"
    response = _upload(as_user(organizer), event, "chars.csv", content.encode())
    assert response.status_code == 400
    character.refresh_from_db()
    assert character.side == "light" and character.power_level == "5"
    assert not Character.objects.filter(name="X").exists()


def test_row_updates_the_character_of_the_same_name(as_user, organizer, event, other_event, character):
    twin = Character.objects.create(event=other_event, name="Anton", side="light")
    content = HEADER + "Anton,,dark,mage,1,fit,10,accepted,no,Turned\n"
    assert _upload(as_user(organizer), event, "chars.csv", content.encode()).status_code == 302
    character.refresh_from_db()
    twin.refresh_from_db()
    assert character.side == "dark" and character.arsenal_limit == 10 and character.notes == "Turned"
    assert character.player is None  # the file said: no account
    assert twin.side == "light"  # another event's character is never touched
    assert Character.objects.filter(event=event, name="Anton").count() == 1


def test_a_player_column_invites_by_name_and_never_tells_which_accounts_exist(as_user, organizer, event):
    """Issue 13: an import that refused unknown names told organizers which user names exist."""
    User.objects.create_user("Sveta")
    sveta = User.objects.create_user("sveta")
    content = HEADER + "Olga,sveta\nIgor,ghost-of-nobody\n"
    assert _upload(as_user(organizer), event, "chars.csv", content.encode()).status_code == 302
    olga = Character.objects.get(event=event, name="Olga")
    igor = Character.objects.get(event=event, name="Igor")
    assert (olga.player, olga.invited_username) == (None, "sveta")
    assert (igor.player, igor.invited_username) == (None, "ghost-of-nobody")
    as_user(sveta).post(reverse("events:invitation-answer", args=[olga.pk]), {"answer": "accept"})
    olga.refresh_from_db()
    assert olga.player == sveta and olga.invited_username == ""
    # The same file again changes nothing: the player's own name is no new invitation.
    assert _upload(as_user(organizer), event, "chars.csv", (HEADER + "Olga,SVETA\n").encode()).status_code == 302
    olga.refresh_from_db()
    assert olga.player == sveta and olga.invited_username == ""


def test_same_name_twice_in_the_file_is_an_error(as_user, organizer, event):
    content = "name,side\nOlga,light\nolga,dark\n"
    response = _upload(as_user(organizer), event, "chars.csv", content.encode())
    assert "appears twice" in response.text
    assert not Character.objects.filter(event=event).exists()


def test_empty_name_is_a_row_error(as_user, organizer, event):
    response = _upload(as_user(organizer), event, "chars.csv", b"name,side\nOlga,light\n,dark\n")
    assert list(import_errors(response)) == ["3"]
    assert not Character.objects.filter(event=event).exists()


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("chars.csv", b"", "The submitted file is empty"),
        ("chars.csv", b"\n\n", "The file is empty"),
        ("chars.csv", b"name\n", "no rows to import"),
        ("chars.xlsx", b"this is not a workbook", "could not be read as an XLSX workbook"),
        ("chars.txt", b"name\nOlga\n", "Upload a .csv, .xlsx, .json or .xls (an HTML table) file"),
        ("chars.csv", b'name\n"' + b"x" * 200_000 + b'"\n', "A line of the file is longer than 100000 characters"),
        ("chars.json", b'{"name": "Olga"}', "must be a list of objects"),
    ],
)
def test_bad_file_is_refused_with_a_message(name, content, message, as_user, organizer, event):
    response = _upload(as_user(organizer), event, name, content)
    assert response.status_code in (200, 400)  # 200: the form refused it before the import
    assert message in response.text
    assert not Character.objects.filter(event=event).exists()


@pytest.mark.parametrize("content", [b"side,kind\nlight,mage\n", b"name,colour\nOlga,red\n"])
def test_a_file_in_other_columns_goes_to_the_mapping_step_first(org, event, content):
    """Issue 22: a header that is not ours (a missing "name", an unknown "colour") is matched on a page first."""
    response = _upload(org, event, "chars.csv", content)
    assert response.status_code == 302 and response["Location"].endswith("/columns/")
    page = org.get(response["Location"])
    assert page.status_code == 200 and 'id="mapping-columns"' in page.text
    assert not Character.objects.filter(event=event).exists()
    if b"name" not in content:
        refused = org.post(response["Location"], {"action": "import", "column-0": "side", "column-1": "kind"})
        assert refused.status_code == 400 and "it is required" in refused.text
        assert not Character.objects.filter(event=event).exists()


def test_lines_ended_by_a_carriage_return_alone_import(as_user, organizer, event):
    """Old spreadsheet programs end lines with a bare CR; a cell may hold one too."""
    response = _upload(as_user(organizer), event, "chars.csv", b'name,notes\rOlga,"met\rat the gate"\rIvan,\r')
    assert response.status_code == 302
    assert dict(Character.objects.filter(event=event).values_list("name", "notes")) == {
        "Olga": "met\rat the gate",
        "Ivan": "",
    }


def _rows(csv_text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(csv_text.lstrip("\ufeff"))))


def test_export_csv_contains_the_characters(as_user, organizer, event, character, rival, other_event):
    Character.objects.create(event=other_event, name="Stranger")
    character.notes = "=HYPERLINK(1)"
    character.arrived = True
    character.save()
    response = as_user(organizer).get(reverse("events:characters-export", args=[event.pk]), {"format": "csv"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment;" in response["Content-Disposition"]
    rows = _rows(response.content.decode("utf-8"))
    assert [row["name"] for row in rows] == ["Anton", "Zavulon"]
    anton = rows[0]
    assert anton["player"] == "player" and anton["side"] == "light" and anton["power_level"] == "5"
    assert anton["arrived"] == "yes" and anton["status"] == "accepted"
    assert anton["notes"] == "'=HYPERLINK(1)"  # a spreadsheet must not run it as a formula


def test_export_xlsx_contains_the_characters(as_user, organizer, event, character, rival):
    response = as_user(organizer).get(reverse("events:characters-export", args=[event.pk]), {"format": "xlsx"})
    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    values = list(sheet.values)
    assert values[0][:3] == ("name", "player", "side")
    assert [row[0] for row in values[1:]] == ["Anton", "Zavulon"]


def test_export_then_import_changes_nothing(as_user, organizer, event, character, rival):
    character.notes = "-leader of the patrol"
    character.arsenal_limit = 4
    character.save()
    client = as_user(organizer)
    exported = client.get(reverse("events:characters-export", args=[event.pk]), {"format": "csv"}).content
    before = list(Character.objects.filter(event=event).order_by("pk").values())
    response = _upload(client, event, "back.csv", exported)
    assert response.status_code == 302
    after = list(Character.objects.filter(event=event).order_by("pk").values())
    assert after == before

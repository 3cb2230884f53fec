"""The organizers' edit history in the event file (issue 20; docs/history.md "The event archive").

History rows travel in their history_id order, deleted objects' rows
included; a deleted object's id stays reserved after the import; a history row
naming an account or row that is gone (and has no history) keeps what it
recorded and names nothing; the site's upload keeps no account in the history.
The crafted files naming another event's rows are in
tests/test_event_file_foreign_rows.py.
"""

import datetime as dt
import json

import pytest
from django.contrib.auth.models import User
from django.db import connection, models

from cards.models import Card, Catalogue, PoolEntry
from duels.archive import ACCOUNTS_CREATE, ACCOUNTS_INVITE, dumps, export_event, import_event
from events.models import Character, Event, StaffRole
from tests.demo_kit import forget_event

pytestmark = pytest.mark.django_db

HistoricalCharacter = Character.history.model


@pytest.fixture
def small_event(db) -> Event:
    """An event whose characters were edited, one of them deleted (the highest id), by its organizer."""
    catalogue = Catalogue.objects.create(name="Small cards")
    card = Card.objects.create(catalogue=catalogue, name_ru="Удар", name_en="Strike", kind="attack")
    today = dt.date.today()
    event = Event.objects.create(
        name="Small", starts_on=today, ends_on=today + dt.timedelta(days=1), catalogue=catalogue
    )
    organizer = User.objects.create_user("small-org")
    StaffRole.objects.create(event=event, user=organizer, role=StaffRole.Role.ORGANIZER)
    hero = Character.objects.create(event=event, name="Hero")
    hero.name = "Hero of the night"
    hero.save()
    PoolEntry.objects.create(character=hero, card=card, copies=2)
    Character.objects.create(event=event, name="Gone").delete()
    return event


def exported(event: Event) -> dict:
    data = json.loads(dumps(export_event(event)))
    forget_event(event)
    return data


def history_of(data: dict, model: str) -> list[dict]:
    return [item for item in data["objects"] if item["model"] == model]


def as_on_a_new_installation(model: type[models.Model]) -> None:
    """The id counter of ``model`` where a new installation has it: just past its live rows."""
    table = model._meta.db_table
    highest = model._default_manager.order_by("-pk").values_list("pk", flat=True).first() or 0
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [table, max(highest, 1)])
        else:
            cursor.execute("UPDATE sqlite_sequence SET seq = %s WHERE name = %s", [highest, table])


def test_history_rows_travel_in_their_order_with_a_deleted_object_s(small_event):
    gone = HistoricalCharacter.objects.get(name="Gone", history_type="-").id
    data = exported(small_event)
    rows = history_of(data, "events.historicalcharacter")
    assert [row["pk"] for row in rows] == sorted(row["pk"] for row in rows)
    assert [(row["fields"]["name"], row["fields"]["history_type"]) for row in rows] == [
        ("Hero", "+"),
        ("Hero of the night", "~"),
        ("Gone", "+"),
        ("Gone", "-"),
    ]
    imported = import_event(data, accounts=ACCOUNTS_CREATE)
    assert not Character.objects.filter(pk=gone).exists()
    assert list(HistoricalCharacter.objects.filter(event=imported).order_by("history_id").values_list("name", "id"))[
        2:
    ] == [("Gone", gone), ("Gone", gone)]


def test_a_new_character_never_takes_the_id_of_a_deleted_one_whose_history_came(small_event):
    gone = HistoricalCharacter.objects.get(name="Gone", history_type="-").id
    data = exported(small_event)
    as_on_a_new_installation(Character)
    imported = import_event(data, accounts=ACCOUNTS_CREATE)
    newcomer = Character.objects.create(event=imported, name="Newcomer")
    assert newcomer.pk > gone
    assert [row.name for row in HistoricalCharacter.objects.filter(id=newcomer.pk)] == ["Newcomer"]


def test_the_upload_keeps_no_account_in_the_history(small_event):
    """ACCOUNTS_INVITE: who made an edit is forgotten, as for a log entry; what was edited stays."""
    HistoricalCharacter.objects.update(history_user=User.objects.get(username="small-org"))  # as if on the page
    data = exported(small_event)
    User.objects.filter(username="small-org").delete()
    assert all(row["fields"]["history_user"] == ["small-org"] for row in history_of(data, "events.historicalcharacter"))
    imported = import_event(data, accounts=ACCOUNTS_INVITE)
    rows = HistoricalCharacter.objects.filter(event=imported)
    assert rows.count() == 4 and not rows.exclude(history_user=None).exists()
    assert not User.objects.filter(username="small-org").exists()


def test_a_history_row_naming_an_account_removed_since_names_none(small_event):
    """The "+" row of a character whose player's account was removed still names that account's id."""
    anna = User.objects.create_user("anna")
    hero = Character.objects.get(event=small_event, name="Hero of the night")
    hero.player = anna
    hero.save()
    anna.delete()  # the character's player is emptied; its history row keeps anna's id
    assert HistoricalCharacter.objects.filter(id=hero.pk, player_id__isnull=False).exists()
    data = exported(small_event)
    assert all(row["fields"]["player"] is None for row in history_of(data, "events.historicalcharacter"))
    imported = import_event(data, accounts=ACCOUNTS_CREATE)
    assert HistoricalCharacter.objects.filter(event=imported).count() == len(
        history_of(data, "events.historicalcharacter")
    )

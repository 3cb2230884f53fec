"""A whole event round-trips through one file (issue 13, duels/archive.py).

The demo game, after a duel with an undo and an instant attack, is exported,
removed, and imported again: a second export equals the first one field by
field (ids, secret links, microseconds of every log entry), and every fight
replays to its stored state. A second test makes the file on the embedded
SQLite in another process and imports it here (PostgreSQL in CI).
"""

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

import demo
from cards.models import Card
from duels.archive import ACCOUNTS_CREATE, ACCOUNTS_MOVE, ArchiveError, dumps, export_event, import_event, replays
from duels.models import LogEntry, Situation
from events.creators import allow_event_creation
from events.models import Character, Event, StaffRole
from tests.demo_kit import play_the_demo, remove_everything

pytestmark = pytest.mark.django_db(transaction=False)


@pytest.fixture
def played_demo(db) -> Event:
    event = demo.load()
    play_the_demo(event)
    assert Situation.objects.filter(event=event).count() == 2
    assert LogEntry.objects.filter(situation__event=event, undone=True).exists()
    return event


def test_a_played_event_round_trips_exactly(played_demo):
    data = json.loads(dumps(export_event(played_demo, with_passwords=True)))
    microseconds = [e["fields"]["at"] for e in data["objects"] if e["model"] == "duels.logentry"]
    assert any(not at.split(".")[-1].startswith("000") for at in microseconds if "." in at)
    remove_everything(played_demo, data)
    assert not Event.objects.exists() and not Situation.objects.exists()

    event = import_event(data, accounts=ACCOUNTS_MOVE)

    again = json.loads(dumps(export_event(event, with_passwords=True)))
    assert again == data
    for situation in Situation.objects.filter(event=event):
        assert replays(situation)
    # The printed QR codes keep working, and the logins too (hashes were carried).
    anton = Character.objects.get(event=event, player__username="anton")
    assert as_anonymous_get(reverse("events:character-link", args=[anton.link_token])) == 200
    assert User.objects.get(username="anton").check_password(demo.DEMO_PASSWORD)


def as_anonymous_get(url: str) -> int:
    return Client().get(url).status_code


def test_without_passwords_the_accounts_come_without_a_usable_one(played_demo):
    data = json.loads(dumps(export_event(played_demo)))
    assert all("password" not in account for account in data["accounts"])
    remove_everything(played_demo, data)
    import_event(data, accounts=ACCOUNTS_CREATE)
    anton = User.objects.get(username="anton")
    assert not anton.has_usable_password() and not anton.is_staff and not anton.is_superuser


def test_links_are_rotated_on_request(played_demo):
    data = json.loads(dumps(export_event(played_demo)))
    before = dict(Character.objects.values_list("pk", "link_token"))
    remove_everything(played_demo, data)
    import_event(data, rotate_links=True)
    after = dict(Character.objects.values_list("pk", "link_token"))
    assert after.keys() == before.keys()
    assert all(after[pk] != before[pk] for pk in before)


def test_an_import_whose_ids_are_taken_changes_nothing(played_demo):
    data = json.loads(dumps(export_event(played_demo)))
    counts = {m: m.objects.count() for m in (Event, Character, Situation, LogEntry, Card, User, StaffRole)}
    with pytest.raises(ArchiveError, match="already has rows"):
        import_event(data)
    assert counts == {m: m.objects.count() for m in counts}


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: {"format": "something else"},
        lambda d: {**d, "version": 99},
        lambda d: {**d, "objects": "not a list"},
        lambda d: {**d, "objects": [*d["objects"], {"model": "auth.user", "pk": 1, "fields": {}}]},
        lambda d: {**d, "objects": [o for o in d["objects"] if o["model"] != "events.event"]},
        lambda d: {**d, "objects": [o for o in d["objects"] if o["model"] != "cards.card"]},
        lambda d: {
            **d,
            "objects": [
                {**o, "fields": {**o["fields"], "state": {"garbage": True}}} if o["model"] == "duels.situation" else o
                for o in d["objects"]
            ],
        },
    ],
    ids=["format", "version", "objects", "foreign model", "no event", "missing cards", "state not the replay"],
)
def test_a_damaged_file_is_refused_and_changes_nothing(played_demo, damage):
    data = json.loads(dumps(export_event(played_demo)))
    remove_everything(played_demo, data)
    counts = {m: m.objects.count() for m in (Event, Character, Situation, LogEntry, Card, User)}
    with pytest.raises(ArchiveError):
        import_event(damage(data))
    assert counts == {m: m.objects.count() for m in counts}


def test_the_commands_write_and_read_the_file(played_demo, tmp_path):
    path = tmp_path / "event.json"
    call_command("export_event", str(played_demo.pk), "-o", str(path), "--with-passwords", stderr=io.StringIO())
    data = json.loads(path.read_text(encoding="utf-8"))
    remove_everything(played_demo, data)
    call_command("import_event", str(path), "--with-passwords", stdout=io.StringIO())
    assert Event.objects.get().name == played_demo.name
    assert User.objects.get(username="anton").check_password(demo.DEMO_PASSWORD)


def test_the_command_without_with_passwords_creates_no_usable_password(played_demo, tmp_path):
    """A file with hashes, imported without --with-passwords: the accounts come, their old passwords do not."""
    path = tmp_path / "event.json"
    call_command("export_event", str(played_demo.pk), "-o", str(path), "--with-passwords", stderr=io.StringIO())
    remove_everything(played_demo, json.loads(path.read_text(encoding="utf-8")))
    call_command("import_event", str(path), stdout=io.StringIO())
    assert not User.objects.get(username="anton").has_usable_password()


def test_a_game_moves_from_the_embedded_sqlite_to_this_database(tmp_path, db):
    """The file is made by another process on a fresh SQLite database, then imported here (PostgreSQL in CI)."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'game.sqlite3'}",
        "SUMRAK_VAR_DIR": str(tmp_path / "var"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    env.pop("REDIS_URL", None)
    manage = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=settings.BASE_DIR)
    script = (
        "import demo, tests.demo_kit as t; "
        "from duels.archive import dumps, export_event; "
        "e = demo.load(); t.play_the_demo(e); "
        f"open({str(tmp_path / 'event.json')!r}, 'w', encoding='utf-8').write(dumps(export_event(e)))"
    )
    subprocess.run([*manage, "shell", "-c", script], env=env, check=True, cwd=settings.BASE_DIR)
    data = json.loads((tmp_path / "event.json").read_text(encoding="utf-8"))
    event = import_event(data, accounts=ACCOUNTS_CREATE)
    assert Situation.objects.filter(event=event).count() == 2
    assert all(replays(s) for s in Situation.objects.filter(event=event))
    assert json.loads(dumps(export_event(event))) == data


# --- the organizers' buttons ----------------------------------------------------------------------


def test_an_organizer_downloads_the_event_without_password_hashes(played_demo, client):
    client.force_login(User.objects.get(username="organizer"))
    response = client.get(reverse("duels:event-export", args=[played_demo.pk]))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(b"".join(response.streaming_content if response.streaming else [response.content]))
    assert data["format"] == "sumrak-event"
    assert all("password" not in account for account in data["accounts"])


def test_a_referee_or_a_player_cannot_download_it(played_demo, client):
    for username in ("referee", "anton"):
        client.force_login(User.objects.get(username=username))
        assert client.get(reverse("duels:event-export", args=[played_demo.pk])).status_code == 404


def test_an_allowed_account_imports_the_file_and_organizes_the_event(played_demo, client):
    data = dumps(export_event(played_demo))
    remove_everything(played_demo, json.loads(data))
    importer = User.objects.create_user("newhost", password="x-Long-pass-2027")
    allow_event_creation(importer)
    client.force_login(importer)
    upload = SimpleUploadedFile("event.json", data.encode(), content_type="application/json")
    response = client.post(reverse("duels:event-import"), {"file": upload})
    event = Event.objects.get()
    assert response.status_code == 302
    assert StaffRole.objects.filter(event=event, user=importer, role=StaffRole.Role.ORGANIZER).exists()


def test_an_import_upload_is_refused_without_the_permission(played_demo, client):
    data = dumps(export_event(played_demo))
    remove_everything(played_demo, json.loads(data))
    client.force_login(User.objects.create_user("nobody", password="x-Long-pass-2027"))
    upload = SimpleUploadedFile("event.json", data.encode(), content_type="application/json")
    assert client.post(reverse("duels:event-import"), {"file": upload}).status_code == 403
    assert not Event.objects.exists()

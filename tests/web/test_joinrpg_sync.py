"""``manage.py import_joinrpg`` against a fake JoinRPG on the loopback (issue 22; tests/web/fake_joinrpg.py).

The master's login, the project's fields with their ProgrammaticValues (or their names), the
characters changed since the last sync: imported with JoinRPG's ids kept, re-synced only
when changed, and a sync stopped by a network error resumes where it stopped.
"""

from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command

from events.imports.models import JoinRpgSync
from events.models import Character
from tests.web.fake_joinrpg import LOGIN, PASSWORD, PROJECT, T0, FakeJoinRpg, character

pytestmark = pytest.mark.django_db


@pytest.fixture
def joinrpg(monkeypatch):
    monkeypatch.setenv("JOINRPG_PASSWORD", PASSWORD)
    with FakeJoinRpg() as fake:
        yield fake


def run(fake, event, **options):
    call_command("import_joinrpg", str(PROJECT), event=event.pk, login=LOGIN, url=fake.url, **options)


def characters(event) -> dict[str, dict]:
    fields = (
        "pk",
        "external_id",
        "side",
        "power_level",
        "status",
        "invited_email",
        "groups",
        "contacts",
        "contact_email",
        "contact_vk",
        "contact_telegram",
    )
    return {c["name"]: c for c in Character.objects.filter(event=event).values("name", *fields)}


def test_the_project_s_characters_are_imported_with_their_ids_fields_and_players(joinrpg, event):
    run(joinrpg, event)
    found = characters(event)
    assert set(found) == {"Антон Городецкий", "Завулон", "Ольга"}
    anton, zavulon, olga = found["Антон Городецкий"], found["Завулон"], found["Ольга"]
    assert anton["external_id"] == "joinrpg:5678" and zavulon["external_id"] == "joinrpg:5679"
    # «Сторона» by its ProgrammaticValue, «Уровень силы» by its name and its variants' labels.
    assert (anton["side"], anton["power_level"]) == ("light", "3")
    assert (zavulon["side"], zavulon["power_level"]) == ("dark", "beyond")
    assert anton["invited_email"] == "anton@example.org" and anton["groups"] == "Ночной Дозор"
    assert anton["contacts"] == {"name": "Игрок 5678"}
    assert (anton["contact_email"], anton["contact_vk"], anton["contact_telegram"]) == (
        "anton@example.org",
        "id5678",
        "player5678",
    )
    assert olga["status"] == "accepted" and olga["invited_email"] == ""
    assert joinrpg.requests[0] == "POST /x-api/token"
    assert f"GET /x-game-api/{PROJECT}/metadata/fields" in joinrpg.requests
    sync = JoinRpgSync.objects.get(event=event, project=PROJECT)
    assert sync.pending == [] and sync.synced_until is not None


def test_a_second_run_re_syncs_only_what_changed_and_keeps_the_ids(joinrpg, event):
    run(joinrpg, event)
    before = characters(event)
    joinrpg.characters[5679] = character(
        5679, "Завулон Великий", side=2, level=7, updated=T0 + timedelta(days=400)
    )  # renamed in JoinRPG, after this sync
    joinrpg.requests.clear()
    run(joinrpg, event)
    assert joinrpg.detail_requests() == [5679]
    listing = next(r for r in joinrpg.requests if r.startswith(f"GET /x-game-api/{PROJECT}/characters?"))
    assert "modifiedSince=" in listing
    after = characters(event)
    assert set(after) == {"Антон Городецкий", "Завулон Великий", "Ольга"}
    assert after["Завулон Великий"]["pk"] == before["Завулон"]["pk"]  # the same character, renamed
    joinrpg.requests.clear()
    run(joinrpg, event)
    assert joinrpg.detail_requests() == []


def test_a_network_error_changes_nothing_and_says_so(joinrpg, event):
    joinrpg.drop_after = 0
    with pytest.raises(CommandError, match=r"could not be reached.*run the command again"):
        run(joinrpg, event)
    assert not Character.objects.filter(event=event).exists()


def test_an_unreachable_joinrpg_is_a_clear_error(event, monkeypatch):
    monkeypatch.setenv("JOINRPG_PASSWORD", PASSWORD)
    with pytest.raises(CommandError, match="could not be reached"):
        call_command("import_joinrpg", str(PROJECT), event=event.pk, login=LOGIN, url="http://127.0.0.1:9")


def test_a_wrong_password_is_refused(joinrpg, event, monkeypatch):
    monkeypatch.setenv("JOINRPG_PASSWORD", "not-the-password")
    with pytest.raises(CommandError, match="refused the login"):
        run(joinrpg, event)
    assert not Character.objects.filter(event=event).exists()


def test_a_sync_cut_half_way_resumes_with_only_what_is_left(joinrpg, event):
    joinrpg.drop_after = 2  # the third character's answer never comes
    with pytest.raises(CommandError):
        run(joinrpg, event, batch=2)
    assert set(characters(event)) == {"Антон Городецкий", "Завулон"}  # the first batch is written, whole
    sync = JoinRpgSync.objects.get(event=event)
    assert sync.pending == [5680] and sync.synced_until is None
    joinrpg.drop_after = None
    joinrpg.requests.clear()
    run(joinrpg, event, batch=2)
    assert joinrpg.detail_requests() == [5680]  # only what was left
    assert not any(r.startswith(f"GET /x-game-api/{PROJECT}/characters?") for r in joinrpg.requests)
    assert set(characters(event)) == {"Антон Городецкий", "Завулон", "Ольга"}
    sync.refresh_from_db()
    assert sync.pending == [] and sync.synced_until is not None


def test_a_character_deleted_in_joinrpg_is_kept_and_no_longer_plays(joinrpg, event):
    run(joinrpg, event)
    gone = character(5680, "Ольга", side=1, level=8, updated=T0 + timedelta(days=400), active=False)
    joinrpg.characters[5680] = gone
    run(joinrpg, event)
    assert characters(event)["Ольга"]["status"] == "rejected"


def test_an_unknown_event_is_refused(joinrpg):
    with pytest.raises(CommandError, match="no event"):
        call_command("import_joinrpg", str(PROJECT), event=987654, login=LOGIN, url=joinrpg.url)

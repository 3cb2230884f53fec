"""Imports are recorded, checked, then written in short batches, and undone if they stop (issue 27).

docs/import.md "All or nothing, in batches": a refused file writes nothing; a long file runs in
the Celery worker (here eagerly) with its progress in the database; a batch that fails half-way,
or a worker that died and whose task came back, leaves every list and character as it was.
"""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from cards.models import ArsenalCard, PoolEntry, PreparedArsenal
from cards.models_mass import Army, Warrior, WarriorType
from config.celery import app
from events.imports import runner
from events.imports.kinds import kind_of
from events.imports.models import ImportBatch, TableImport
from events.models import Character
from tests.web.arsenal_lists import lists

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager():
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = False


def characters_csv(rows: int, start: int = 0) -> bytes:
    return ("name,side\n" + "".join(f"Персонаж {n},light\n" for n in range(start, start + rows))).encode()


def start(event, kind: str, content: bytes, name: str = "file.csv") -> TableImport:
    return runner.start(event, kind, kind_of(kind).read(content, name.rsplit(".", 1)[1]))


def test_a_long_import_runs_in_the_worker_and_shows_its_progress(org, event, eager, django_capture_on_commit_callbacks):
    rows = runner.INLINE_ROWS + 50
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = org.post(
            reverse("events:characters-import", args=[event.pk]),
            {"file": SimpleUploadedFile("many.csv", characters_csv(rows))},
        )
    assert len(callbacks) == 1  # the task is sent after the upload's commit
    record = TableImport.objects.get(event=event)
    assert response.status_code == 302 and response["Location"] == reverse(
        "events:import-progress", args=[event.pk, record.pk]
    )
    assert record.status == TableImport.Status.DONE and record.created == rows
    assert Character.objects.filter(event=event).count() == rows
    assert record.batches.count() > 1  # written in batches, not one transaction
    page = org.get(response["Location"])
    assert page.status_code == 200 and 'id="import-done"' in page.text and f"Imported: {rows} new" in page.text
    poll = org.get(response["Location"], HTTP_HX_REQUEST="true")
    assert poll.text.lstrip().startswith('<section id="import-progress"') and "hx-trigger" not in poll.text


def test_a_running_import_polls_and_only_its_organizers_see_it(as_user, org, other_organizer, event):
    record = start(event, "characters", characters_csv(3))
    page = org.get(reverse("events:import-progress", args=[event.pk, record.pk]))
    assert 'hx-trigger="every 2s"' in page.text and 'id="import-bar"' in page.text
    stranger = as_user(other_organizer).get(reverse("events:import-progress", args=[event.pk, record.pk]))
    assert stranger.status_code == 404


def test_a_refused_file_writes_nothing_and_lists_its_rows(event):
    content = b"name,side\nOlga,light\nIgnat,purple\nOlga,dark\n"
    done = runner.run(start(event, "characters", content).pk)
    assert done.status == TableImport.Status.REFUSED
    assert [(row, column) for row, column, _message in done.errors] == [(3, "side"), (4, "name")]
    assert not Character.objects.filter(event=event).exists() and not done.batches.exists()


def test_a_batch_failing_half_way_undoes_every_batch_written(event, character, monkeypatch):
    """New characters are deleted and the updated one is put back, link and all."""
    before = Character.objects.filter(pk=character.pk).values().get()
    content = characters_csv(120) + f"{character.name},dark\n".encode()
    record = start(event, "characters", content)
    kind = kind_of("characters")
    real_write, calls = kind.write, []

    def write(*args, **kwargs):
        calls.append(1)
        if len(calls) == 4:
            raise OSError(28, "No space left on device")
        return real_write(*args, **kwargs)

    monkeypatch.setattr(kind, "write", write)
    monkeypatch.setattr(runner, "pause_seconds", lambda: 0)
    monkeypatch.setattr(runner, "FIRST_BATCH", 30)
    monkeypatch.setattr(runner, "next_batch", lambda rows, seconds: rows)  # every batch the first one's size
    done = runner.run(record.pk)
    assert len(calls) == 4
    assert done.status == TableImport.Status.FAILED and "No space left on device" in done.failure
    assert "undone" in done.failure and done.written == 0
    assert list(Character.objects.filter(event=event)) == [character]
    assert Character.objects.filter(pk=character.pk).values().get() == before
    assert not ImportBatch.objects.exists()


def test_a_task_delivered_again_after_its_worker_died_undoes_what_was_written(event, monkeypatch):
    record = start(event, "characters", characters_csv(60))
    monkeypatch.setattr(runner, "pause_seconds", lambda: 0)
    monkeypatch.setattr(runner, "FIRST_BATCH", 10)
    monkeypatch.setattr(runner, "next_batch", lambda rows, seconds: rows)
    kind, calls = kind_of("characters"), []
    real_write = kind.write

    class Killed(BaseException):
        """What a SIGKILL looks like from inside: nothing after it runs."""

    def write(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise Killed
        return real_write(*args, **kwargs)

    monkeypatch.setattr(kind, "write", write)
    with pytest.raises(Killed):
        runner.run(record.pk)
    assert TableImport.objects.get(pk=record.pk).status == TableImport.Status.WRITING
    assert Character.objects.filter(event=event).count() == 20  # two batches committed
    monkeypatch.setattr(kind, "write", real_write)
    again = runner.run(record.pk)  # acks_late: the broker hands the task out again
    assert again.status == TableImport.Status.FAILED and "interrupted" in again.failure
    assert not Character.objects.filter(event=event).exists()
    assert runner.run(record.pk).status == TableImport.Status.FAILED  # a third delivery changes nothing


def test_ARSENAL_a_failed_arsenal_import_puts_every_list_back(
    event, character, rival, attack_card, defence_card, monkeypatch
):
    PoolEntry.objects.create(character=character, card=defence_card, copies=2)
    ArsenalCard.objects.create(character=character, card=defence_card, copies=1)
    PreparedArsenal.objects.create(character=character, name="Ночной патруль")
    before = {c.pk: lists(c) for c in (character, rival)}
    content = (
        "character,list,card,copies\n"
        "Anton,pool,Огненный шар,2\nAnton,arsenal,Огненный шар,1\nAnton,Ночной патруль,Огненный шар,1\n"
        "Anton,Утро,Огненный шар,1\nZavulon,pool,Щит мага,1\n"
    ).encode()
    record = start(event, "arsenals", content)
    kind, calls = kind_of("arsenals"), []
    real_write = kind.write

    def write(event, table, checked, begin, stop, entry):
        calls.append(1)
        if begin >= 1:
            raise RuntimeError("the disk is full")
        return real_write(event, table, checked, begin, stop, entry)

    monkeypatch.setattr(kind, "write", write)
    monkeypatch.setattr(runner, "pause_seconds", lambda: 0)
    monkeypatch.setattr(runner, "FIRST_BATCH", 1)
    monkeypatch.setattr(runner, "next_batch", lambda rows, seconds: rows)
    done = runner.run(record.pk)
    assert done.status == TableImport.Status.FAILED and len(calls) == 2
    assert {c.pk: lists(c) for c in (character, rival)} == before
    assert not PreparedArsenal.objects.filter(name="Утро").exists()


def test_M3_armies_a_failed_warriors_import_created_are_deleted(event, monkeypatch):
    WarriorType.objects.create(event=event, name_ru="Пехота")
    content = "army,name,warrior_type\n" + "".join(f"Синие {n % 3},Воин {n},Пехота\n" for n in range(9))
    record = start(event, "warriors", content.encode())
    kind, calls = kind_of("warriors"), []
    real_write = kind.write

    def write(*args, **kwargs):
        calls.append(1)
        if len(calls) == 3:
            raise RuntimeError("stopped")
        return real_write(*args, **kwargs)

    monkeypatch.setattr(kind, "write", write)
    monkeypatch.setattr(runner, "pause_seconds", lambda: 0)
    monkeypatch.setattr(runner, "FIRST_BATCH", 3)
    monkeypatch.setattr(runner, "next_batch", lambda rows, seconds: rows)
    done = runner.run(record.pk)
    assert done.status == TableImport.Status.FAILED
    assert not Army.objects.exists() and not Warrior.objects.exists()


def test_only_the_last_imports_of_an_event_are_kept(event):
    for n in range(runner.KEEP_IMPORTS + 3):
        runner.run(start(event, "characters", characters_csv(1, start=n)).pk)
    assert TableImport.objects.filter(event=event).count() == runner.KEEP_IMPORTS + 1

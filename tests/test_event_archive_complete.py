"""The whole-event file carries every model that belongs to an event (issue 20's last item).

Measured on main: exported and imported into an empty PostgreSQL database,
condition records and saved lab runs arrived as 0 (they were missing from the
archive's list). Here:

- the models with a path to ``Event`` are found through Django's app registry
  (every foreign key and many-to-many field, either way, never through an
  account), and each must be in the archive: a new model left out fails;
- an event after fights of every kind (duels, an instant attack, a battle
  running and one ended, a mass battle), condition changes, a lab run and a
  print run is exported, everything is removed (the database is empty of
  every model), and the file is imported again: the same count of every
  model, every fight replays to its stored state, the second file is the
  first. No card, record or model is lost.
"""

import datetime as dt
import json

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.utils import timezone

import rules.mass as magic
from cards import arsenal
from cards.models import Card, PoolEntry
from cards.models_mass import Army
from cards.printing.models import PrintRun
from cards.printing.runs import printable_characters, start_run
from duels import services
from duels.archive import ACCOUNTS_MOVE, dumps, export_event, import_event
from duels.archive_rows import HistoricalPreparedArsenalCard, archived_models
from duels.models import Situation
from duels.services.conditions import change_condition
from events.handouts import set_handed
from events.imports import runner
from events.imports.kinds import kind_of
from events.imports.models import ColumnMapping, JoinRpgSync, TableImport
from events.models import Character, ConditionRecord, Event, Handout
from lab.models import LabRun
from lab.runner import execute
from rules import battle as B
from tests.demo_kit import play_the_demo, remove_everything
from tests.lab.lab_kit import queued_run
from tests.services.battle_kit import battle_cards, begin, party, passes
from tests.services.kit import nonce
from tests.services.mass_kit import act, start

pytestmark = pytest.mark.django_db

ACCOUNTS = get_user_model()


def models_of_an_event() -> set[type[models.Model]]:
    """Every model joined to ``Event`` by a chain of foreign keys or many-to-many fields (any direction).

    Accounts are a crossing no path goes through: a user belongs to no event
    (the file carries the ones its rows name, by user name).
    """
    edges: dict[type[models.Model], set[type[models.Model]]] = {}
    for model in apps.get_models():
        for field in [*model._meta.concrete_fields, *model._meta.many_to_many]:
            target = field.related_model
            if not field.is_relation or target is None or ACCOUNTS in (model, target):
                continue
            edges.setdefault(model, set()).add(target)
            edges.setdefault(target, set()).add(model)
    found: set[type[models.Model]] = {Event}
    todo: list[type[models.Model]] = [Event]
    while todo:
        for neighbour in edges.get(todo.pop(), set()) - found:
            found.add(neighbour)
            todo.append(neighbour)
    return found


def test_every_model_with_a_path_to_an_event_is_in_the_archive():
    wanted = models_of_an_event()
    missing = sorted(model._meta.label for model in wanted - set(archived_models()))
    assert not missing, f"models of an event missing from duels/archive_rows.py: {missing}"
    assert {ConditionRecord, LabRun, PrintRun, Situation, Army} <= wanted  # the walk itself finds them


def test_the_walk_would_find_a_new_model():
    """The check is no rubber stamp: a model joined to an event only through another one is found."""

    class Note(models.Model):
        record = models.ForeignKey(ConditionRecord, on_delete=models.CASCADE)

        class Meta:
            app_label = "events"

        def __str__(self) -> str:
            return str(self.pk)

    try:
        assert Note in models_of_an_event() and Note not in archived_models()
    finally:
        apps.all_models["events"].pop("note", None)
        apps.clear_cache()


def count_everything() -> dict[str, int]:
    return {model._meta.label: model._default_manager.count() for model in [*models_of_an_event(), ACCOUNTS]}


def played_everything(event: Event) -> None:
    """Fights of every kind, condition changes, a lab run and a print run, through the real services."""
    referee = ACCOUNTS.objects.get(username="referee")
    organizer = ACCOUNTS.objects.get(username="organizer")
    play_the_demo(event)  # a duel with an undo, and an instant attack
    assert event.catalogue is not None
    cards = battle_cards(event.catalogue)
    running = begin(event, party(event, cards=cards), referee)
    services.perform(
        running.pk, passes(services.state_of(running)), user=referee, seen_version=running.version, nonce=nonce()
    )
    ended = begin(event, party(event, cards=cards, first=4, count=3), referee)
    ended.refresh_from_db()
    services.perform(ended.pk, B.EndBattle(reason="dusk"), user=referee, seen_version=ended.version, nonce=nonce())
    # S2: a battle over leaves its situation open until the quiet gap has passed.
    services.refresh(ended, now=timezone.now() + dt.timedelta(seconds=event.situation_gap_s + 1))
    light, dark = Army.objects.filter(event=event).order_by("name")
    mass = start(event, referee, light, dark)
    act(mass, magic.RollInitiative(source=magic.SERVER), referee)
    idle = Character.objects.filter(event=event, situations__isnull=True).order_by("pk")
    change_condition(idle[0], add="lightly_wounded", reason="a fall from the stairs", user=referee)
    change_condition(idle[0], clear="lightly_wounded", reason="the healer's spell", user=organizer)
    execute(queued_run(event, duels=20).pk)
    set_handed(idle[0], Handout.Item.SHEET, True, organizer)
    deleted_history(event, idle[1])
    table = kind_of("characters").read("name,side\nНовенький,light\n".encode(), "csv")
    record = runner.run(runner.start(event, "characters", table, user=organizer, file_name="new.csv").pk)
    assert record.status == TableImport.Status.DONE and record.batches.exists()
    ColumnMapping.objects.create(event=event, kind="characters", signature="ab" * 20, mapping={"name": 0})
    JoinRpgSync.objects.create(event=event, project=77, synced_until=timezone.now(), pending=[5, 6])
    run = start_run(event, organizer, printable_characters(event)[:3], with_sheets=True, with_cards=True)
    # As the worker leaves a finished print (cards/printing/runs.py): its PDF is a file of this machine.
    PrintRun.objects.filter(pk=run.pk).update(
        status=PrintRun.Status.DONE,
        file_name=f"print-{run.pk}.pdf",
        parts=[{"kind": "sheets", "ids": run.character_ids, "weight": 3}],
        parts_done=1,
        done=3,
        total=3,
        pages=3,
        finished_at=timezone.now(),
    )


def deleted_history(event: Event, character: Character) -> None:
    """Edits whose objects are gone since: a prepared arsenal and a card deleted, a character too.

    Their history rows stay (docs/history.md) and travel with the event; the
    prepared arsenal's cards name it, known only by its history.
    """
    pool = [entry.card_id for entry in PoolEntry.objects.filter(character=character)]
    prepared, _created = arsenal.save_prepared(character, "for the night", pool[:2])
    prepared_id = prepared.pk
    arsenal.delete_prepared(prepared)
    arsenal.build_arsenal(character, pool[:1])  # the current arsenal's history is written by the builder
    assert event.catalogue is not None
    card = Card.objects.create(catalogue=event.catalogue, name_ru="Пробная", name_en="Trial", kind="defence")
    card.delete()
    gone = Character.objects.create(event=event, name="Ушедший")
    gone.delete()
    assert HistoricalPreparedArsenalCard.objects.filter(arsenal_id=prepared_id, history_type="-").exists()


def test_an_event_with_everything_round_trips_into_an_empty_database(demo_event, settings):
    settings.SUMRAK_LAB_PROCESSES = 1
    played_everything(demo_event)
    kinds = set(Situation.objects.filter(event=demo_event).values_list("kind", flat=True))
    assert kinds == {Situation.Kind.DUEL, Situation.Kind.BATTLE, Situation.Kind.MASS_BATTLE}
    assert Situation.objects.filter(event=demo_event, kind=Situation.Kind.BATTLE, ended=True).exists()
    assert ConditionRecord.objects.count() >= 2 and LabRun.objects.filter(status=LabRun.Status.DONE).exists()
    before = count_everything()
    empty = [m._meta.label for m in archived_models() if not before[m._meta.label]]
    assert not empty, empty  # something of every model
    data = json.loads(dumps(export_event(demo_event, with_passwords=True)))

    remove_everything(demo_event, data)
    assert not any(count_everything().values()), count_everything()  # an empty database

    imported = import_event(data, accounts=ACCOUNTS_MOVE)

    assert count_everything() == before
    for situation in Situation.objects.filter(event=imported):
        assert services.replayed(situation) == services.state_of(situation), situation
    assert json.loads(dumps(export_event(imported, with_passwords=True))) == data
    # The print run's settings came, its PDF (a file of the old machine) did not.
    run = PrintRun.objects.get(event=imported)
    assert run.character_ids and run.file_name == "" and run.with_cards


def test_a_print_run_s_file_name_never_comes_from_the_file(demo_event):
    """A crafted file naming a file of this machine for the download gets no file name at all."""
    organizer = ACCOUNTS.objects.get(username="organizer")
    start_run(demo_event, organizer, printable_characters(demo_event)[:1], with_sheets=True, with_cards=False)
    data = json.loads(dumps(export_event(demo_event, with_passwords=True)))
    for item in data["objects"]:
        if item["model"] == "cards.printrun":
            item["fields"].update(status="done", file_name="../secret_key")
    remove_everything(demo_event, data)
    imported = import_event(data, accounts=ACCOUNTS_MOVE)
    run = PrintRun.objects.get(event=imported)
    assert run.file_name == "" and run.status == PrintRun.Status.DONE


def test_a_run_that_had_not_finished_arrives_finished_with_a_note(demo_event):
    """No worker waits for it here: a queued print or lab run comes as failed, saying to start it again."""
    organizer = ACCOUNTS.objects.get(username="organizer")
    start_run(demo_event, organizer, printable_characters(demo_event)[:1], with_sheets=True, with_cards=False)
    queued_run(demo_event, duels=20)
    data = json.loads(dumps(export_event(demo_event, with_passwords=True)))
    remove_everything(demo_event, data)
    imported = import_event(data, accounts=ACCOUNTS_MOVE)
    for run in [*PrintRun.objects.filter(event=imported), *LabRun.objects.filter(event=imported)]:
        assert run.status == "failed" and "start it again" in run.error  # type: ignore[attr-defined]

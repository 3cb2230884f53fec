"""An event file creates its own event and never touches another (issue 27, duels/archive.py).

A crafted file uploaded by an account allowed to create events tries each kind
of foreign reference: a staff role, a log entry, a character, a pool entry, a
catalogue card, a fight's participant, a fight whose state names another
event's characters or warriors, a warrior, an arsenal to restore. Each one is
refused with a message, nothing is created, and the other event (the played
demo, with a running duel and a mass battle) is byte-for-byte what it was. On
the web path accounts are invited, never created, whatever hash the file
carries.
"""

import copy
import datetime as dt
import json
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

import demo
import rules.mass as magic
from cards.models import Card, Catalogue, PoolEntry
from cards.models_mass import Army
from duels import services
from duels.archive import dumps, export_event
from duels.mass.start import start_mass_battle
from duels.models import Situation
from events.creators import allow_event_creation
from events.models import Character, Event, StaffRole
from tests.demo_kit import forget_event, play_the_demo

pytestmark = pytest.mark.django_db

FRESH = 10**7  # a pk no test database reaches
KNOWN_PASSWORD = "a-Known-pass-2027"


@pytest.fixture
def victim(db) -> Event:
    """The other event: the played demo with a running duel and a running mass battle."""
    event = demo.load()
    play_the_demo(event)
    referee = User.objects.get(username="referee")
    light, dark = Army.objects.filter(event=event).order_by("name")
    mass = start_mass_battle(event, light, dark, user=referee, nonce=uuid.uuid4().hex).situation
    services.perform(
        mass.pk,
        magic.RollInitiative(source=magic.SERVER),
        user=referee,
        seen_version=mass.version,
        nonce=uuid.uuid4().hex,
    )
    assert Situation.objects.filter(event=event, ended=False).count() >= 2
    return event


@pytest.fixture
def mallory(db) -> User:
    user = User.objects.create_user("mallory", password="mallory-Long-pass-2027")
    allow_event_creation(user)
    return user


@pytest.fixture
def own_file(victim, mallory) -> dict[str, Any]:
    """Mallory's own small event, exported and removed: a valid file whose ids are all free."""
    catalogue = Catalogue.objects.create(name="Mallory's cards")
    card = Card.objects.create(catalogue=catalogue, name_ru="Удар", name_en="Strike", kind="attack")
    today = dt.date.today()
    event = Event.objects.create(
        name="Mallory's game", starts_on=today, ends_on=today + dt.timedelta(days=1), catalogue=catalogue
    )
    StaffRole.objects.create(event=event, user=mallory, role=StaffRole.Role.ORGANIZER)
    hero = Character.objects.create(event=event, name="Hero")
    PoolEntry.objects.create(character=hero, card=card, copies=1)
    data = json.loads(dumps(export_event(event)))
    forget_event(event)
    return data


def snapshot(event: Event) -> str:
    """The other event as its file holds it (hashes too), and every account: compared byte for byte."""
    # Every column but the last login (the importer's own login moves it).
    columns = [f.name for f in User._meta.concrete_fields if f.name != "last_login"]
    accounts = list(User.objects.order_by("pk").values(*columns))
    permissions = list(User.user_permissions.through.objects.order_by("pk").values())
    return dumps(export_event(event, with_passwords=True)) + repr(accounts) + repr(permissions)


def upload(user: User, data: dict[str, Any], *, follow: bool = False) -> Any:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    file = SimpleUploadedFile("event.json", dumps(data).encode(), content_type="application/json")
    return client.post(reverse("duels:event-import"), {"file": file}, follow=follow)


def own(data: dict[str, Any], model: str) -> dict[str, Any]:
    return next(o for o in data["objects"] if o["model"] == model)


def add(data: dict[str, Any], model: str, fields: dict[str, Any], pk: int = FRESH) -> dict[str, Any]:
    data["objects"].append({"model": model, "pk": pk, "fields": fields})
    return data


def organizer_of_the_other_event(data, victim):
    data["accounts"].append({"username": "mallory", "first_name": "", "last_name": "", "is_active": True})
    return add(data, "events.staffrole", {"event": victim.pk, "user": ["mallory"], "role": "organizer"})


def command_into_their_running_fight(data, victim):
    running = Situation.objects.filter(event=victim, kind=Situation.Kind.DUEL, ended=False).first()
    assert running is not None
    last = running.log.order_by("-seq").first()
    assert last is not None
    return add(
        data,
        "duels.logentry",
        {
            "situation": running.pk,
            "seq": last.seq + 1,
            "kind": "expire",
            "command": None,
            "actor": None,
            "at": "2027-01-10T12:00:00.000001+00:00",
            "draw": None,
            "nonce": "",
            "undone": False,
            "reason": "",
            "events": [],
        },
    )


def character_into_their_event(data, victim):
    fields = copy.deepcopy(own(data, "events.character")["fields"])
    fields.update(event=victim.pk, name="Spy", link_token="spy-" + uuid.uuid4().hex)
    return add(data, "events.character", fields)


def pool_for_their_character(data, victim):
    theirs = Character.objects.filter(event=victim).first()
    assert theirs is not None
    return add(data, "cards.poolentry", {"character": theirs.pk, "card": own(data, "cards.card")["pk"], "copies": 3})


def card_into_their_catalogue(data, victim):
    fields = copy.deepcopy(own(data, "cards.card")["fields"])
    fields.update(catalogue=victim.catalogue_id, name_ru="Чужая", name_en="Planted")
    return add(data, "cards.card", fields)


def our_event_on_their_catalogue(data, victim):
    own(data, "events.event")["fields"]["catalogue"] = victim.catalogue_id
    return data


def their_character_in_our_fight(data, victim):
    """An empty duel of ours (its opening is its state: it replays) listing their character as a participant."""
    theirs = Character.objects.filter(event=victim).first()
    assert theirs is not None
    opening = own_situation(victim, Situation.Kind.DUEL)["fields"]["opening"]
    fields = {
        "event": own(data, "events.event")["pk"],
        "kind": "duel",
        "opening": opening,
        "state": opening,
        "version": 0,
        "ended": False,
        "ended_at": None,
        "next_deadline": None,
        "participants": [theirs.pk],
        "created_at": "2027-01-10T12:00:00.000001+00:00",
        "updated_at": "2027-01-10T12:00:00.000001+00:00",
    }
    return add(data, "duels.situation", fields)


def own_situation(victim: Event, kind: str) -> dict[str, Any]:
    """One of the other event's fights as its file holds it (its state names that event's rows)."""
    theirs = json.loads(dumps(export_event(victim)))["objects"]
    situation = Situation.objects.filter(event=victim, kind=kind).order_by("pk").first()
    assert situation is not None
    return next(o for o in theirs if o["model"] == "duels.situation" and o["pk"] == situation.pk)


def add_fight(data, fight, victim, *, with_log: bool):
    """``fight`` re-homed in our event with a fresh id; its log too (replays exactly, names their rows)."""
    fight = copy.deepcopy(fight)
    their_pk = fight["pk"]
    fight["pk"] = FRESH
    fight["fields"]["event"] = own(data, "events.event")["pk"]
    data["objects"].append(fight)
    theirs = json.loads(dumps(export_event(victim)))["objects"]
    entries = [o for o in theirs if o["model"] == "duels.logentry" and o["fields"]["situation"] == their_pk]
    for n, entry in enumerate(entries if with_log else []):
        entry = copy.deepcopy(entry)
        entry["pk"] = FRESH + 1 + n
        entry["fields"].update(situation=FRESH, nonce="", actor=None)
        data["objects"].append(entry)
    return data


def a_fight_whose_state_names_their_characters(data, victim):
    fight = own_situation(victim, Situation.Kind.DUEL)
    fight["fields"]["participants"] = []
    return add_fight(data, fight, victim, with_log=True)


def a_mass_battle_over_their_warriors(data, victim):
    fight = own_situation(victim, Situation.Kind.MASS_BATTLE)
    fight["fields"]["participants"] = []
    return add_fight(data, fight, victim, with_log=True)


def a_warrior_of_theirs_in_our_army(data, victim):
    theirs = Character.objects.filter(event=victim).first()
    assert theirs is not None
    event_pk = own(data, "events.event")["pk"]
    kind = {"name_ru": "Копейщик", "name_en": "Spearman", "event": event_pk, "protections": "", "description": ""}
    add(data, "cards.warriortype", kind, pk=FRESH + 2)
    add(
        data,
        "cards.army",
        {
            "event": event_pk,
            "name": "Ours",
            "commander": None,
            "commander_name": "",
            "link_token": "a-" + uuid.uuid4().hex,
        },
    )
    return add(
        data,
        "cards.warrior",
        {"army": FRESH, "name": "Turncoat", "warrior_type": FRESH + 2, "character": theirs.pk, "state": "field"},
        pk=FRESH + 1,
    )


def an_arsenal_to_restore_from_their_cards(data, victim):
    their_card = Card.objects.filter(catalogue_id=victim.catalogue_id).first()
    assert their_card is not None
    own(data, "events.character")["fields"]["restorable_arsenal"] = [their_card.pk]
    return data


def their_card_as_our_focus(data, victim):
    their_card = Card.objects.filter(catalogue_id=victim.catalogue_id, kind="defence").first()
    assert their_card is not None
    own(data, "events.character")["fields"]["focus_card"] = their_card.pk
    return data


def a_condition_record_for_their_character(data, victim):
    theirs = Character.objects.filter(event=victim).first()
    assert theirs is not None
    fields = {"character": theirs.pk, "at": "2027-01-10T12:00:00+00:00", "actor": None, "old": "fit"}
    return add(data, "events.conditionrecord", {**fields, "new": "paralysed", "reason": "x", "situation_id": None})


def a_condition_record_naming_their_fight(data, victim):
    their_fight = Situation.objects.filter(event=victim).first()
    assert their_fight is not None
    fields = {"character": own(data, "events.character")["pk"], "at": "2027-01-10T12:00:00+00:00", "actor": None}
    fields.update(old="fit", new="paralysed", reason="x", situation_id=their_fight.pk)
    return add(data, "events.conditionrecord", fields)


def a_print_run_of_their_characters(data, victim):
    """Printed, it would show another event's unplayed hands (D4) to the uploader."""
    theirs = list(Character.objects.filter(event=victim).values_list("pk", flat=True)[:3])
    fields = {"event": own(data, "events.event")["pk"], "requested_by": None, "character_ids": theirs}
    fields.update(created_at="2027-01-10T12:00:00+00:00", status="queued", language="en")
    return add(data, "cards.printrun", fields)


def a_lab_run_in_their_event(data, victim):
    fields = {"event": victim.pk, "created_by": None, "created_at": "2027-01-10T12:00:00+00:00"}
    return add(data, "lab.labrun", {**fields, "label": "planted", "status": "done"})


def an_id_of_theirs(data, victim):
    theirs = Character.objects.filter(event=victim).first()
    assert theirs is not None
    own(data, "events.character")["pk"] = theirs.pk
    for pool in (o for o in data["objects"] if o["model"] == "cards.poolentry"):
        pool["fields"]["character"] = theirs.pk
    return data


def _history_row(data: dict[str, Any], model: str, **fields: Any) -> dict[str, Any]:
    """A copy of the file's own history row of ``model`` under a fresh history id, with ``fields`` changed."""
    row = copy.deepcopy(own(data, model))
    return add(data, model, {**row["fields"], **fields})


def a_history_row_recording_their_character_as_deleted(data, victim):
    """On their character's history page it would show invented edits, and offer their revert."""
    theirs = Character.objects.filter(event=victim).first()
    assert theirs is not None
    return _history_row(data, "events.historicalcharacter", id=theirs.pk, history_type="-")


def a_history_row_in_their_event(data, victim):
    return _history_row(data, "events.historicalcharacter", id=FRESH + 5, event=victim.pk)


def a_pool_history_row_of_their_character(data, victim):
    theirs = Character.objects.filter(event=victim).first()
    assert theirs is not None
    return _history_row(data, "cards.historicalpoolentry", id=FRESH + 5, character=theirs.pk)


def a_card_history_row_in_their_catalogue(data, victim):
    return _history_row(data, "cards.historicalcard", id=FRESH + 5, catalogue=victim.catalogue_id)


def a_history_row_by_an_account_not_in_the_file(data, victim):
    return _history_row(data, "events.historicalcharacter", history_user=["organizer"])


# Each crafted file, and what the refusal names (the reason, not a side effect of the crafting).
CRAFTED: dict[str, tuple[Callable[[dict[str, Any], Event], dict[str, Any]], str]] = {
    "organizer of another event": (organizer_of_the_other_event, "staff roles: event"),
    "a command appended to another event's running fight": (command_into_their_running_fight, "log entries: situation"),
    "a character added to another event": (character_into_their_event, "characters: event"),
    "a pool added to another event's character": (pool_for_their_character, "card pool: character"),
    "a card added to another event's catalogue": (card_into_their_catalogue, "cards: catalogue"),
    "our event on another event's catalogue": (our_event_on_their_catalogue, "events: card catalogue"),
    "another event's character in our fight": (their_character_in_our_fight, "combat situations: participants"),
    "a fight whose state names another event's characters": (
        a_fight_whose_state_names_their_characters,
        "combat situations: characters",
    ),
    "a mass battle over another event's warriors": (a_mass_battle_over_their_warriors, "combat situations: warriors"),
    "another event's character as our warrior": (a_warrior_of_theirs_in_our_army, "warriors: character"),
    "an arsenal to restore from another catalogue": (
        an_arsenal_to_restore_from_their_cards,
        "characters: original arsenal (to restore)",
    ),
    "another catalogue's card as our focus": (their_card_as_our_focus, "characters: focused defence card"),
    "a condition record for another event's character": (
        a_condition_record_for_their_character,
        "condition records: character",
    ),
    "a condition record naming another event's fight": (
        a_condition_record_naming_their_fight,
        "condition records: combat situation",
    ),
    "a print run of another event's characters": (a_print_run_of_their_characters, "print runs: characters"),
    "a lab run in another event": (a_lab_run_in_their_event, "lab runs: event"),
    "an id another event has": (an_id_of_theirs, "already has rows"),
    "a history row recording another event's character as deleted": (
        a_history_row_recording_their_character_as_deleted,
        "historical characters: character",
    ),
    "a history row in another event": (a_history_row_in_their_event, "historical characters: event"),
    "a pool history row of another event's character": (
        a_pool_history_row_of_their_character,
        "historical card pool: character",
    ),
    "a card history row in another catalogue": (a_card_history_row_in_their_catalogue, "historical cards: catalogue"),
    "a history row by an account the file does not hold": (
        a_history_row_by_an_account_not_in_the_file,
        "historical characters: history user",
    ),
}


@pytest.mark.parametrize(("craft", "reason"), CRAFTED.values(), ids=CRAFTED.keys())
def test_a_crafted_file_is_refused_and_the_other_event_is_unchanged(victim, mallory, own_file, craft, reason):
    before = snapshot(victim)
    events = Event.objects.count()
    response = upload(mallory, craft(copy.deepcopy(own_file), victim))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="import-error"' in page
    said = page[page.find('id="import-error"') :].split("</div>")[0]
    assert reason in said, said
    assert Event.objects.count() == events
    assert snapshot(victim) == before
    # Mallory is nobody in the other event.
    client = Client()
    client.force_login(mallory)
    assert client.get(reverse("events:organizer-home", args=[victim.pk])).status_code == 404


def test_the_uncrafted_file_is_imported(victim, mallory, own_file):
    """The control: the same file without a foreign row goes in (an army of its own too), the other is unchanged."""
    before = snapshot(victim)
    data = a_warrior_of_theirs_in_our_army(copy.deepcopy(own_file), victim)
    own(data, "cards.warrior")["fields"]["character"] = own(data, "events.character")["pk"]
    response = upload(mallory, data)
    assert response.status_code == 302, response.content.decode()[response.content.decode().find("import-error") :][
        :400
    ]
    assert snapshot(victim) == before
    imported = Event.objects.get(name="Mallory's game")
    assert StaffRole.objects.filter(event=imported, user=mallory, role=StaffRole.Role.ORGANIZER).exists()


def test_the_web_import_creates_no_account_whatever_hash_the_file_carries(victim, mallory, own_file):
    data = copy.deepcopy(own_file)
    data["accounts"].append(
        {
            "username": "sleeper",
            "first_name": "",
            "last_name": "",
            "is_active": True,
            "password": make_password(KNOWN_PASSWORD),
        }
    )
    own(data, "events.character")["fields"]["player"] = ["sleeper"]
    before = snapshot(victim)
    assert upload(mallory, data).status_code == 302
    assert not User.objects.filter(username="sleeper").exists()
    client = Client()
    client.post("/accounts/login/", {"username": "sleeper", "password": KNOWN_PASSWORD})
    assert "_auth_user_id" not in client.session
    # The player is invited by name: whoever signs up as "sleeper" may accept or decline.
    hero = Character.objects.get(event__name="Mallory's game", name="Hero")
    assert hero.player is None and hero.invited_username == "sleeper"
    assert snapshot(victim) == before


def test_the_web_import_gives_an_existing_account_nothing(victim, mallory, own_file):
    """The file names the other event's organizer as player, commander and referee: only invitations follow."""
    data = copy.deepcopy(own_file)
    event_pk = own(data, "events.event")["pk"]
    data["accounts"].append({"username": "organizer", "first_name": "", "last_name": "", "is_active": True})
    own(data, "events.character")["fields"]["player"] = ["organizer"]
    add(data, "events.staffrole", {"event": event_pk, "user": ["organizer"], "role": "referee"})
    add(
        data,
        "cards.army",
        {
            "event": event_pk,
            "name": "Ours",
            "commander": ["organizer"],
            "commander_name": "",
            "link_token": "b-" + uuid.uuid4().hex,
        },
    )
    before = snapshot(victim)
    response = upload(mallory, data, follow=True)
    assert response.redirect_chain and response.redirect_chain[-1][1] == 302
    imported = Event.objects.get(name="Mallory's game")
    organizer = User.objects.get(username="organizer")
    assert not StaffRole.objects.filter(event=imported, user=organizer).exists()
    assert not Character.objects.filter(event=imported, player=organizer).exists()
    assert Character.objects.get(event=imported, name="Hero").invited_username == "organizer"
    army = Army.objects.get(event=imported, name="Ours")
    assert army.commander is None and army.commander_name == "organizer"
    assert snapshot(victim) == before
    # The importer is told whose roles were left out, to give them again on the staff page.
    said = " ".join(str(m) for m in response.context["messages"])
    assert "organizer (referee)" in said


def test_a_crafted_import_journal_never_travels(victim, mallory, own_file):
    """A table import's undo journal names rows by model and id: a file's would delete another event's rows.

    It is this database's own (duels/archive_rows.py ``_RUNTIME``): it arrives empty, the import
    it belonged to arrives failed, and taking it back touches nothing of the other event.
    """
    from events.imports import journal
    from events.imports.models import ImportBatch, TableImport

    theirs = Character.objects.filter(event=victim).first()
    assert theirs is not None
    before = snapshot(victim)
    data = copy.deepcopy(own_file)
    fields = {"event": own(data, "events.event")["pk"], "kind": "characters", "requested_by": None}
    fields |= {"created_at": "2027-01-10T12:00:00+00:00", "updated_at": "2027-01-10T12:00:00+00:00"}
    fields |= {"status": "writing", "source": {}, "mapping": {}}
    add(data, "events.tableimport", fields)
    entry = {"created": [["events.character", theirs.pk]], "rows": [], "cleared": [], "fields": []}
    add(data, "events.importbatch", {"table_import": FRESH, "number": 0, "entry": entry}, pk=FRESH + 1)
    response = upload(mallory, data)
    page = response.content.decode()
    assert response.status_code == 302, page[page.find("import-error") :][:400]
    record = TableImport.objects.get(pk=FRESH)
    assert record.status == TableImport.Status.FAILED and ImportBatch.objects.get(pk=FRESH + 1).entry == {}
    journal.undo_import(record.pk)
    assert Character.objects.filter(pk=theirs.pk).exists() and snapshot(victim) == before

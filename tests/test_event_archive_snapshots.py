"""The event file carries the state snapshots its fights name (issue 24, duels/archive.py).

A state names its counter rules and card faces by content hash
(rules/snapshots.py); the file holds each reference with its data, so it reads
on an installation that has no snapshot row, and an import writes the rows it
needs. A file never makes a fight read a snapshot it does not hold, and an
event file written before snapshots (rules and faces inline) still imports.
"""

from __future__ import annotations

import copy
import json

import pytest

import demo
from duels import services
from duels.archive import ACCOUNTS_MOVE, ArchiveError, dumps, export_event, import_event, replays
from duels.models import Situation, StateSnapshot
from events.models import Event
from rules import snapshots
from tests.demo_kit import play_the_demo, remove_everything

pytestmark = pytest.mark.django_db(transaction=False)


@pytest.fixture
def played_demo(db) -> Event:
    event = demo.load()
    play_the_demo(event)
    return event


def _situations(data: dict) -> list[dict]:
    return [item for item in data["objects"] if item["model"] == "duels.situation"]


def _stored(event: Event) -> dict[int, tuple]:
    return {s.pk: (s.opening, s.state) for s in Situation.objects.filter(event=event)}


def test_the_file_carries_every_snapshot_and_an_import_writes_the_rows_it_needs(played_demo):
    before = _stored(played_demo)
    decoded = {s.pk: services.state_of(s) for s in Situation.objects.filter(event=played_demo)}
    data = json.loads(dumps(export_event(played_demo, with_passwords=True)))
    for item in _situations(data):
        for name in ("opening", "state"):
            value = item["fields"][name]
            assert snapshots.refs(value) and snapshots.carried(value).keys() == snapshots.refs(value)
    remove_everything(played_demo, data)
    StateSnapshot.objects.all().delete()  # a new installation: no snapshot rows
    snapshots.forget()  # and a process that knows none

    event = import_event(data, accounts=ACCOUNTS_MOVE)

    assert _stored(event) == before  # the rows as they were: bare references
    snapshots.forget()
    for situation in Situation.objects.filter(event=event):
        assert services.state_of(situation) == decoded[situation.pk]
        assert replays(situation)
    assert json.loads(dumps(export_event(event, with_passwords=True))) == data


def test_an_import_where_the_snapshots_exist_shares_them(played_demo):
    data = json.loads(dumps(export_event(played_demo, with_passwords=True)))
    rows = StateSnapshot.objects.count()
    remove_everything(played_demo, data)
    assert StateSnapshot.objects.count() == rows  # an event's deletion keeps the shared rows
    event = import_event(data, accounts=ACCOUNTS_MOVE)
    assert StateSnapshot.objects.count() == rows
    assert all(replays(s) for s in Situation.objects.filter(event=event))


def _legacy(stored: dict) -> dict:
    """A duel's state as it was stored before snapshots: the rules and every card's face inline."""
    out = dict(stored)
    out["counters"] = snapshots.data(stored["counters"])
    faces = snapshots.data(out.pop("faces"))
    out["cards"] = {uid: faces[n] for uid, n in stored["cards"].items()}
    return out


def test_an_event_file_written_before_snapshots_imports_and_replays(played_demo):
    decoded = {s.pk: services.state_of(s) for s in Situation.objects.filter(event=played_demo)}
    data = json.loads(dumps(export_event(played_demo, with_passwords=True)))
    old = copy.deepcopy(data)
    for item in _situations(old):
        for name in ("opening", "state"):
            item["fields"][name] = _legacy(item["fields"][name])
    assert "snapshot" not in json.dumps(_situations(old))
    remove_everything(played_demo, data)
    StateSnapshot.objects.all().delete()
    snapshots.forget()

    event = import_event(old, accounts=ACCOUNTS_MOVE)

    for situation in Situation.objects.filter(event=event):
        assert replays(situation)
        assert services.state_of(situation) == decoded[situation.pk]


@pytest.mark.parametrize("damage", ["bare reference", "data of another key"])
def test_a_file_cannot_make_a_fight_read_a_snapshot_it_does_not_hold(played_demo, damage):
    data = json.loads(dumps(export_event(played_demo, with_passwords=True)))
    item = _situations(data)[0]
    counters = item["fields"]["state"]["counters"]
    if damage == "bare reference":
        # Another event's snapshot, named by its key alone: it would read that event's rules.
        item["fields"]["state"]["counters"] = {"snapshot": counters["snapshot"]}
    else:
        counters["data"] = counters["data"][1:]
    remove_everything(played_demo, data)
    with pytest.raises(ArchiveError, match="damaged"):
        import_event(data, accounts=ACCOUNTS_MOVE)
    assert not Event.objects.exists() and not Situation.objects.exists()

"""An event file written before issue 24 - every finished step inline in its fights' states - still imports.

Since issue 24 a duel's stored state keeps its newest steps and a battle's its
newest records (duels/services/record.py). A file written before holds the
whole record in each state: it imports, each fight replays to what its state
reads as (``archive.replays``), and the record page shows every step from the
imported log; a file written now round-trips byte for byte.
"""

from __future__ import annotations

import copy
import json

import pytest
from django.urls import reverse

from bench import kinds
from bench.fights import extend
from duels import services
from duels.archive import ACCOUNTS_MOVE, dumps, export_event, import_event, replays
from duels.models import Situation
from duels.services.kinds import kind_of
from events.models import Event
from rules import snapshots
from tests.demo_kit import remove_everything
from tests.services.battle_kit import begin
from tests.web.hot_row_kit import whole

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_fights(event, fight, people, referee) -> Event:
    extend(fight, 300, actor=referee)
    event.every_round_a_bout = True
    event.save(update_fields=["every_round_a_bout"])
    battle = begin(event, people, referee)
    memo = None
    for _chunk in range(4):
        _state, memo = kinds.extend(battle, "battle", 60, memo)
    return event


def _records(state: dict) -> int:
    if "duels" in state:
        return sum(len(d["steps_done"]) for d in state["duels"])
    return len(state["records"])


def test_an_event_file_with_every_step_inline_imports_and_shows_every_step(client, long_fights):
    wholes = {s.pk: kind_of(s).to_dict(whole(s)) for s in Situation.objects.filter(event=long_fights)}
    decoded = {s.pk: services.state_of(s) for s in Situation.objects.filter(event=long_fights)}
    data = json.loads(dumps(export_event(long_fights, with_passwords=True)))
    old = copy.deepcopy(data)
    for item in old["objects"]:
        if item["model"] == "duels.situation":  # the state as it was written before issue 24
            item["fields"]["state"] = snapshots.inlined(wholes[item["pk"]])
    assert all(50 < _records(wholes[pk]) <= 100 for pk in wholes)  # two record pages each
    remove_everything(long_fights, data)

    event = import_event(old, accounts=ACCOUNTS_MOVE)

    for situation in Situation.objects.filter(event=event):
        assert replays(situation)
        assert services.state_of(situation) == decoded[situation.pk]
        html = client.get(reverse("duels:record", args=[situation.pk]), {"page": 2}).content.decode()
        shown = html.count("<tr>\n        <td>") + html.count("<tr><td>")
        assert shown == _records(wholes[situation.pk]) - 50  # the second page: the oldest steps

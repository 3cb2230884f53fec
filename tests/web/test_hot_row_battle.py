"""A battle's stored state keeps its newest records; the pages show what they showed (issue 24).

The battle's row keeps ``RECORDS_KEPT`` resolved answers, their count and the
windows the clock closed (D8); the record page and the export rebuild every
record from the log. The "before" is the row as it was stored before: every
record inline (``to_dict`` of a replay with ``whole_record``), read as it was
read then (nothing dropped).
"""

from __future__ import annotations

import json

import pytest

from bench import kinds
from duels import services
from duels.archive import replays
from duels.battle.presenters import LIVE_RECORDS, present_battle
from duels.models import Situation
from duels.services.export import export_situation
from duels.services.kinds import kind_of
from duels.web.viewers import SPECTATOR_VIEW
from rules import battle as B
from rules import snapshots
from rules.battle import state as battle_state
from tests.services.battle_kit import begin
from tests.web.hot_row_kit import pages, whole

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_battle(event, people, referee):
    """A bench battle (bench/kinds.py: area attacks, reactions, round breaks) of ~240 entries."""
    event.every_round_a_bout = True
    event.save(update_fields=["every_round_a_bout"])
    battle = begin(event, people, referee)
    memo = None
    for _chunk in range(4):
        _state, memo = kinds.extend(battle, "battle", 60, memo)
    battle.refresh_from_db()
    return battle


def _pages(client, referee_client, situation: Situation) -> dict[str, str]:
    return pages(client, referee_client, situation, "duels:battle")


def test_the_row_keeps_the_newest_records_and_counts_them_all(long_battle):
    every = kind_of(long_battle).to_dict(whole(long_battle))
    stored = long_battle.state
    assert len(every["records"]) > 50, "the battle fills more than one record page"
    assert stored["records"] == every["records"][-B.RECORDS_KEPT :]
    assert stored["records_total"] == len(every["records"])
    assert stored["timed_out"] == [[r["frame"], r["defender"]] for r in every["records"] if r["timed_out"]]
    # The live pages show no record the row does not keep.
    assert LIVE_RECORDS <= B.RECORDS_KEPT
    assert len(present_battle(services.state_of(long_battle), SPECTATOR_VIEW).records) == LIVE_RECORDS
    assert kind_of(long_battle).to_dict(services.replayed(long_battle)) == stored


def test_the_pages_show_what_they_showed_when_the_row_held_every_record(
    client, as_user, referee, long_battle, monkeypatch
):
    after = _pages(client, as_user(referee), long_battle)
    legacy = kind_of(long_battle).to_dict(whole(long_battle))
    assert "records_total" not in json.dumps(legacy)
    Situation.objects.filter(pk=long_battle.pk).update(state=legacy)
    long_battle.refresh_from_db()
    with monkeypatch.context() as before_issue_24:
        before_issue_24.setattr(battle_state, "RECORDS_KEPT", 10**9)
        before = _pages(client, as_user(referee), long_battle)
    assert after == before
    assert _pages(client, as_user(referee), long_battle) == after
    total = len(legacy["records"])
    assert 50 < total <= 100
    rows = after["record"].count("<tr><td>") + after["record page 2"].count("<tr><td>")
    assert rows == total


def test_the_export_writes_every_record_as_it_did_before(long_battle):
    legacy = kind_of(long_battle).to_dict(whole(long_battle))
    assert export_situation(long_battle)["state"] == snapshots.inlined(legacy)


def test_an_old_row_with_every_record_loads_and_replays(long_battle):
    legacy = kind_of(long_battle).to_dict(whole(long_battle))
    Situation.objects.filter(pk=long_battle.pk).update(state=legacy)
    long_battle.refresh_from_db()
    assert replays(long_battle)
    state = services.state_of(long_battle)
    assert len(state.records) == B.RECORDS_KEPT and state.records_total == len(legacy["records"])
    assert state == services.replayed(long_battle)

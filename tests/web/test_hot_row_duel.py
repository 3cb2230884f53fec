"""A duel's stored state keeps its newest finished steps; the pages show what they showed (issue 24).

The row a step rewrites keeps each duel's newest ``RECORDS_KEPT`` records and
their count; the record page and the post-game export rebuild every step from
the log (``duels/services/record.py``). Before issue 24 the row held every
step: that row is what ``to_dict`` of a replay with ``whole_record`` writes
(``to_dict(replay) == stored`` held byte for byte), so it is the "before" here,
both as an old stored state that must still load and as what the pages showed.
"""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from duels import services
from duels.archive import replays
from duels.duel.presenters import LIVE_RECENT
from duels.models import Situation
from duels.services.export import export_situation
from duels.services.kinds import kind_of
from rules import duel as engine
from rules import snapshots
from rules.duel import state as duel_state
from tests.services.kit import nonce
from tests.web.hot_row_kit import pages, whole

pytestmark = pytest.mark.django_db


def _steps(state: dict) -> int:
    return sum(len(d["steps_done"]) for d in state["duels"])


def _pages(client, referee_client, situation: Situation) -> dict[str, str]:
    return pages(client, referee_client, situation, "duels:situation")


def test_the_row_keeps_the_newest_steps_and_counts_them_all(long_fight):
    every_step = kind_of(long_fight).to_dict(whole(long_fight))
    total = _steps(every_step)
    assert total > engine.RECORDS_KEPT
    assert engine.RECORDS_KEPT >= LIVE_RECENT  # the live pages show no step the row does not keep
    for kept, every in zip(long_fight.state["duels"], every_step["duels"], strict=True):
        assert kept["steps_done"] == every["steps_done"][-engine.RECORDS_KEPT :]
        assert kept.get("steps_total", len(kept["steps_done"])) == len(every["steps_done"])
    assert services.replayed(long_fight).duels == services.state_of(long_fight).duels


def test_the_pages_show_what_they_showed_when_the_row_held_every_step(
    client, as_user, referee, long_fight, monkeypatch
):
    """The pages of the new row, and of the old row (every step inline) read as before (nothing dropped)."""
    after = _pages(client, as_user(referee), long_fight)
    legacy = kind_of(long_fight).to_dict(whole(long_fight))
    assert "steps_total" not in json.dumps(legacy) and _steps(legacy) > engine.RECORDS_KEPT
    Situation.objects.filter(pk=long_fight.pk).update(state=legacy)
    long_fight.refresh_from_db()
    # The old row read as it was read then: every step kept in the state the pages present.
    with monkeypatch.context() as before_issue_24:
        before_issue_24.setattr(duel_state, "RECORDS_KEPT", 10**9)
        before = _pages(client, as_user(referee), long_fight)
    assert after == before
    # And the old row read now, as a new one: the same again.
    assert _pages(client, as_user(referee), long_fight) == after
    # The record page lists every step, newest first, across its pages.
    total = _steps(legacy)
    lines = sum(after[p].count("<tr>\n        <td>") for p in ("record", "record page 2"))
    assert 50 < total <= 100 and lines == total
    assert total > 50, "the fight fills more than one record page"


def test_the_record_page_is_the_whole_replay_and_reads_the_log_once(client, long_fight):
    url = reverse("duels:record", args=[long_fight.pk])
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    log_reads = [q for q in ctx.captured_queries if "duels_logentry" in q["sql"]]
    assert len(log_reads) == 1  # the whole log of its own fight, once


def test_the_export_writes_every_step_as_it_did_before(long_fight):
    legacy = kind_of(long_fight).to_dict(whole(long_fight))
    exported = export_situation(long_fight)["state"]
    assert exported == snapshots.inlined(legacy)
    Situation.objects.filter(pk=long_fight.pk).update(state=legacy)
    long_fight.refresh_from_db()
    assert export_situation(long_fight)["state"] == snapshots.inlined(legacy)


def test_an_old_row_with_every_step_loads_replays_and_goes_on(referee, long_fight):
    legacy = kind_of(long_fight).to_dict(whole(long_fight))
    Situation.objects.filter(pk=long_fight.pk).update(state=legacy)
    long_fight.refresh_from_db()
    assert replays(long_fight)  # the event file's check: compared as the old row reads
    state = services.state_of(long_fight)
    assert all(len(d.steps_done) <= engine.RECORDS_KEPT for d in state.duels)
    assert [d.steps_total for d in state.duels] == [len(d["steps_done"]) for d in legacy["duels"]]
    # Its next step writes the new form: the newest steps and the count.
    duel = next(d for d in state.duels if d.is_open)
    services.perform(
        long_fight.pk,
        engine.EndDuel(duel.number, "they parted"),
        user=referee,
        seen_version=long_fight.version,
        nonce=nonce(),
    )
    long_fight.refresh_from_db()
    assert all(len(d["steps_done"]) <= engine.RECORDS_KEPT for d in long_fight.state["duels"])
    assert kind_of(long_fight).to_dict(services.replayed(long_fight)) == long_fight.state


def test_a_log_that_does_not_lead_to_the_row_shows_the_rows_newest_steps(client, long_fight):
    """A damaged log never puts another past on the record page: the row's newest steps are shown."""
    entry = long_fight.log.order_by("-seq").filter(command__type="confirm_result").first()
    assert entry is not None
    entry.undone = True
    entry.save(update_fields=["undone"])
    html = client.get(reverse("duels:record", args=[long_fight.pk])).content.decode()
    assert html.count("<tr>\n        <td>") == sum(len(d["steps_done"]) for d in long_fight.state["duels"])

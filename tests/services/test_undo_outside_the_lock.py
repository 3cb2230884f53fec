"""Undo replays the log before it takes the fight's lock (issue 8, DESIGN.md §4).

The plan made without the lock is used only if the fight is exactly as it was
when the plan was made; otherwise the undo is worked out again under the lock.
"""

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bench.fights import extend
from duels import services
from duels.duel.start import declare_aggression
from duels.models import Situation
from duels.services import commands
from rules import duel as engine
from tests.services.kit import act, assert_replays, kinds, nonce

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 5, 20, 0, tzinfo=dt.UTC)


@pytest.fixture
def long_fight(armed, referee):
    """A fight with a 300-entry log (the conftest's ``fight`` has none)."""
    anton, zavulon = armed
    with time_machine.travel(T0, tick=False):
        situation = declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    extend(situation, 300, actor=referee, start=T0 + dt.timedelta(seconds=1))
    return situation


def _undo(situation, referee):
    situation.refresh_from_db()
    return services.undo_last(
        situation.pk, user=referee, reason="wrong tap", seen_version=situation.version, nonce=nonce()
    )


def test_a_long_undo_reads_and_replays_the_log_before_the_lock(long_fight, referee):
    with time_machine.travel(T0 + dt.timedelta(seconds=3), tick=False), CaptureQueriesContext(connection) as ctx:
        _undo(long_fight, referee)
    sql = [q["sql"] for q in ctx.captured_queries]
    whole_log = [
        i for i, q in enumerate(sql) if 'FROM "duels_logentry"' in q and "LIMIT" not in q and q.startswith("SELECT")
    ]
    locked = next(i for i, q in enumerate(sql) if q.startswith("SAVEPOINT"))
    # The whole log is read once, and before the transaction that holds the lock.
    assert len(whole_log) == 1 and whole_log[0] < locked, "\n".join(sql)
    assert kinds(long_fight)[-1] == "undo"
    assert_replays(long_fight)


def test_a_plan_made_before_the_fight_moved_on_is_not_used(long_fight, referee, monkeypatch):
    """Here a deadline: the plan saw the open answer window, the lock sees it closed (D8) and logged."""
    long_fight.refresh_from_db()
    state = services.state_of(long_fight)
    while state.duels[-1].phase != engine.AWAIT_ATTACK:
        state = extend(long_fight, 1, actor=referee, start=T0 + dt.timedelta(seconds=4))
    duel = state.duels[-1]
    shown_at = T0 + dt.timedelta(seconds=5)
    with time_machine.travel(shown_at, tick=False):
        attack = engine.Attack(duel.number, duel.attacker, engine.attack_cards(state, duel.attacker)[0])
        act(long_fight, attack, referee)
        stale = commands._plan_undo(long_fight.pk)
    monkeypatch.setattr(commands, "_plan_undo", lambda situation_id: stale)
    with time_machine.travel(shown_at + dt.timedelta(seconds=30), tick=False):
        _undo(long_fight, referee)
    # The window's expiry is a fact kept in the log, and undone with the attack it followed.
    assert kinds(long_fight)[-3:] == ["~attack", "~expire", "undo"]
    assert_replays(long_fight)
    long_fight.refresh_from_db()
    assert services.state_of(long_fight).duels[-1].phase == engine.AWAIT_ATTACK
    assert stale is not None and Situation.objects.get(pk=long_fight.pk).version == stale.version + 2

"""The beat sweeper stays bounded: a batch at a time, most overdue first, a broken row skipped (D8, S2)."""

import datetime as dt
import logging

import pytest

from duels import services
from duels.duel.start import declare_aggression
from duels.models import Situation
from events.models import Character
from tests.services.kit import arm, nonce, state

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)


@pytest.fixture
def three_shown(event, referee, spark, clock) -> list[Situation]:
    """Three separate duels, each with a Spark shown one second after the previous one (D8 windows of 15 s)."""
    shown = []
    for n in range(3):
        a = Character.objects.create(event=event, name=f"A{n}")
        b = Character.objects.create(event=event, name=f"B{n}")
        arm(a, spark)
        shown.append(declare_aggression(event, a, b, spark.pk, user=referee, nonce=nonce()).situation)
        clock.shift(dt.timedelta(seconds=1))
    return shown


def timed_out(situation: Situation) -> bool:
    steps = state(situation).duels[0].steps_done
    return bool(steps) and steps[-1].timed_out


def test_D8_the_sweeper_takes_one_batch_at_a_time_most_overdue_first(three_shown, clock):
    clock.shift(dt.timedelta(seconds=20))  # all three answer windows are over
    assert services.sweep(limit=2) == 2
    assert [timed_out(s) for s in three_shown] == [True, True, False]
    assert services.sweep(limit=2) == 1
    assert all(timed_out(s) for s in three_shown)
    assert services.sweep(limit=2) == 0


def test_D8_one_broken_situation_does_not_keep_the_others_from_their_deadlines(three_shown, clock, caplog):
    broken = three_shown[0]  # the most overdue: first in every batch
    Situation.objects.filter(pk=broken.pk).update(state={"damaged": True})
    clock.shift(dt.timedelta(seconds=20))
    with caplog.at_level(logging.ERROR, logger="duels.services.commands"):
        assert services.sweep() == 2
    assert timed_out(three_shown[1]) and timed_out(three_shown[2])
    assert f"situation {broken.pk}" in caplog.text
    assert Situation.objects.get(pk=broken.pk).state == {"damaged": True}

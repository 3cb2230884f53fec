"""A battle's answer windows go through the shared timer path: scheduled after commit, applied by the
sweeper and by the Celery task without anyone looking (D8), and by the S2 gap."""

import datetime as dt

import pytest
import time_machine

from duels import services
from duels.models import Situation
from duels.services.timers import expire_situation
from rules import battle as B
from tests.services.battle_kit import battle_state, begin, buid, party
from tests.services.kit import nonce

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)


@pytest.fixture
def scheduled(monkeypatch):
    sent = []
    monkeypatch.setattr("duels.services.store.schedule_expiry", lambda sid, deadline: sent.append((sid, deadline)))
    return sent


@pytest.fixture
def area_attack(event, referee, scheduled):
    with time_machine.travel(T0, tick=False):
        people = party(event)
        situation = begin(event, people, referee)
        anna, _, vera, gleb = people
        situation.refresh_from_db()
        services.perform(
            situation.pk,
            B.Act(actor=anna.pk, act=B.ATTACK, cards=(buid(situation, anna, "Nova"),), targets=(vera.pk, gleb.pk)),
            user=referee,
            seen_version=situation.version,
            nonce=nonce(),
        )
    return situation, people


def test_D8_an_area_attacks_windows_are_scheduled_and_swept(area_attack, scheduled):
    situation, (_, _, vera, gleb) = area_attack
    situation.refresh_from_db()
    deadline = T0 + dt.timedelta(seconds=15)
    assert situation.next_deadline == deadline and (situation.pk, deadline) in scheduled
    with time_machine.travel(deadline + dt.timedelta(seconds=1), tick=False):
        assert services.sweep() == 1
    st = battle_state(situation)
    assert [(r.defender, r.timed_out) for r in st.records] == [(vera.pk, True), (gleb.pk, True)]
    # The gap clock (S2) is the next deadline now.
    situation.refresh_from_db()
    assert situation.next_deadline == deadline + dt.timedelta(seconds=180)


def test_D8_S2_the_task_applies_the_deadline_then_the_gap_ends_the_battle(area_attack):
    situation, people = area_attack
    with time_machine.travel(T0 + dt.timedelta(seconds=16), tick=False):
        expire_situation(situation.pk)
    assert len(battle_state(situation).records) == 2
    with time_machine.travel(T0 + dt.timedelta(seconds=16 + 181), tick=False):
        expire_situation(situation.pk)
    situation.refresh_from_db()
    assert situation.ended and battle_state(situation).result == "situation_ended"
    assert Situation.objects.get(pk=situation.pk).participants.count() == len(people)

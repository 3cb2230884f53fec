"""The end of a situation is often applied by a page load (S2): the write-back reads the joins, not the whole log."""

import datetime as dt
from typing import Any

import pytest

from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from tests.services.kit import nonce

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)


def _pad(situation: Situation, extra: int) -> None:
    """A long fight: many entries after the joins (the cached state is what reads use)."""
    last = situation.log.latest("seq")
    LogEntry.objects.bulk_create(
        LogEntry(situation=situation, seq=last.seq + 1 + i, kind="command", command={"type": "set_focus"}, at=last.at)
        for i in range(extra)
    )


def test_S2_ending_a_long_situation_on_read_loads_its_joins_not_its_whole_log(
    armed, referee, attack_card, defence_card, monkeypatch, time_machine
):
    anton, zavulon = armed
    time_machine.move_to(T0, tick=False)
    situation = declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    _pad(situation, 300)
    loaded: list[int] = []
    from_db = LogEntry.from_db  # bound to LogEntry, the only class loaded through it here

    def counting(cls: type[LogEntry], /, *args: Any, **kwargs: Any) -> LogEntry:
        loaded.append(1)
        return from_db(*args, **kwargs)

    # Still a classmethod: Django's queries look at from_db.__func__.
    monkeypatch.setattr(LogEntry, "from_db", classmethod(counting))
    time_machine.move_to(T0 + dt.timedelta(seconds=anton.event.situation_gap_s + 1), tick=False)
    services.refresh(situation)
    assert Situation.objects.get(pk=situation.pk).ended
    assert len(loaded) == 2  # the two joins
    # S2: never having composed an arsenal, Anton restores to what he joined with.
    anton.refresh_from_db()
    assert anton.restorable_arsenal == sorted([attack_card.pk, attack_card.pk, defence_card.pk])

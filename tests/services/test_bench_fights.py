"""The benchmark's long fights (bench/fights.py) stay fights a referee could run.

The benchmark and the flatness tests measure fights of 10 to 2,000 entries
played by the engine. Extended again after a round break, they took back
everything a fighter had ever held - earlier rounds' discards and set-aside
hands - as one arsenal: hands of 160 cards (D3 takes an arsenal within the
limit), fragments and states far larger than a real fight's.
"""

import datetime as dt

import pytest
import time_machine

from bench.fights import extend
from duels.duel.start import declare_aggression
from tests.services.kit import assert_replays, nonce

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 5, 20, 0, tzinfo=dt.UTC)


def test_D3_a_fight_extended_across_round_breaks_keeps_the_arsenal_it_came_in_with(armed, referee):
    anton, zavulon = armed
    came_in_with = {anton.pk: 3, zavulon.pk: 2}  # conftest's armed: 2 x Fireball + Shield; Spark + Shield
    with time_machine.travel(T0, tick=False):
        situation = declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    rounds_seen = set()
    for chunk in range(6):  # extended again and again, as the benchmark builds its 500-entry fights
        state = extend(situation, 7, actor=referee)  # each chunk goes on from the log's last entry
        situation.refresh_from_db()
        rounds_seen.add(state.duels[-1].round)
        for cid, fighter in state.fighters.items():
            # Earlier rounds' discards stay in the state; the hand is at most this round's arsenal.
            assert len(fighter.hand) <= came_in_with[cid], (chunk, cid, fighter.hand)
            if fighter.composed is not None:  # an arsenal taken at a round break: the same cards again
                assert len(fighter.composed) == came_in_with[cid]
    assert len(rounds_seen) > 2  # the chunks crossed several round breaks
    assert_replays(situation)

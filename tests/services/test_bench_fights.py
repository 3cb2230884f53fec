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


def test_a_bench_duels_prepared_steps_are_each_accepted_through_the_form(as_user, event, referee):
    """bench/game.py's duel of 500 entries (played on past a round's end) and the 60 steps the load
    sends (step_post): each, posted to the fight form in order, is taken and moves the version by one."""
    from django.urls import reverse

    from bench import game
    from cards.faces import counter_rule_of, face_of
    from cards.models import Card, CounterRule
    from duels.models import Situation
    from duels.services.kinds import KINDS

    catalogue, attacks, defences = game._catalogue()
    event.catalogue = catalogue
    event.save(update_fields=["catalogue"])
    a, b = game._people(event, attacks, defences, count=2)
    faces = {card.pk: face_of(card) for card in Card.objects.filter(catalogue=catalogue)}
    counters = [counter_rule_of(r) for r in CounterRule.objects.filter(defence_card__catalogue=catalogue)]
    a, b = (type(a).objects.prefetch_related("arsenal").get(pk=p.pk) for p in (a, b))
    fight = game._fight(event, KINDS["duel"], a, b, faces, counters, 500)
    assert len(fight["steps"]) >= game.MIN_AHEAD
    situation = Situation.objects.get(pk=fight["id"])
    client = as_user(referee)
    for fields in fight["steps"]:
        before = situation.version
        response = client.post(
            reverse("duels:act", args=[situation.pk]),
            {**fields, "version": before, "nonce": nonce()},
            headers={"HX-Request": "true"},
        )
        assert response.status_code == 200, (fields, response.content[:300])
        situation.refresh_from_db()
        assert situation.version == before + 1, fields
    assert_replays(situation)

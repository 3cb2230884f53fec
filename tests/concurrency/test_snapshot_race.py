"""Two fights open at once in two events with the same rules: both open, one snapshot row (issue 24).

Each opening writes the snapshot its state names if it is missing
(``INSERT ... ON CONFLICT DO NOTHING``); the second writer waits for the
first's commit and then does nothing. Each round uses a catalogue nobody
used before, so both openings find the row missing.
"""

import datetime as dt

import pytest

from cards.models import Card, Catalogue, CounterRule
from duels import services
from duels.duel.start import declare_aggression
from duels.models import Situation, StateSnapshot
from events.models import Character, Event
from rules import snapshots
from tests.concurrency.race_kit import race
from tests.services.kit import arm, nonce

pytestmark = pytest.mark.concurrency

TRIALS = 10


def test_two_openings_with_the_same_new_snapshots_both_open(referee):
    today = dt.date.today()
    for n in range(TRIALS):
        catalogue = Catalogue.objects.create(name=f"Race {n}")
        fireball = Card.objects.create(catalogue=catalogue, name_ru="Шар", name_en="Ball", kind="attack", tags="fire")
        shield = Card.objects.create(catalogue=catalogue, name_ru="Щит", name_en="Shield", kind="defence")
        CounterRule.objects.create(defence_card=shield, attack_tag="fire", outcome="parried")
        pairs = []
        for side in ("a", "b"):
            event = Event.objects.create(
                name=f"Race {n}{side}", starts_on=today, ends_on=today + dt.timedelta(days=1), catalogue=catalogue
            )
            anton = Character.objects.create(event=event, name="Anton")
            zavulon = Character.objects.create(event=event, name="Zavulon")
            arm(anton, fireball)
            arm(zavulon, shield)
            pairs.append((event, anton, zavulon))
        snapshots.forget()

        def open_fight(event, anton, zavulon, card=fireball.pk):
            return declare_aggression(event, anton, zavulon, card, user=referee, nonce=nonce())

        results = race(*(lambda p=p: open_fight(*p) for p in pairs))
        assert all(isinstance(r, services.Performed) for r in results), results
        states = [Situation.objects.get(pk=r.situation.pk).state for r in results]
        assert states[0]["counters"] == states[1]["counters"] and states[0]["faces"] == states[1]["faces"]
        keys = snapshots.refs(states[0])
        assert StateSnapshot.objects.filter(key__in=keys).count() == len(keys) == 2

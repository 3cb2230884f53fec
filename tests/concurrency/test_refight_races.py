"""[S2, IA6] Two referees start new fights in one battle's gap at once: one situation takes it on, no card lost.

Both starts take the event's lock in turn: the first closes the battle's
situation and opens a duel that holds all of its people; the second finds its
two there, in no duel, and opens a second duel in that same situation.
"""

from collections import Counter

import pytest

from cards.models import ArsenalCard
from duels import services
from duels.duel.start import declare_aggression
from duels.models import Situation
from rules import battle as B
from tests.concurrency.race_kit import race
from tests.services.battle_kit import battle_state, begin, party
from tests.services.kit import act, nonce

pytestmark = pytest.mark.concurrency
TRIALS = 5


def _cards(people) -> Counter:
    rows = ArsenalCard.objects.filter(character__in=people).values_list("character_id", "card_id", "copies")
    return Counter({(cid, card): copies for cid, card, copies in rows})


def test_S2_two_aggressions_at_once_in_a_battles_gap_share_one_situation_and_lose_no_card(event, referee):
    for n in range(TRIALS):
        people = party(event, first=n * 4)
        anna, boris, vera, gleb = people
        before = _cards(people)
        battle = begin(event, people, referee)
        act(battle, B.EndBattle(reason="dusk"), referee)
        assert battle_state(battle).ended

        def one(a=anna, b=vera):
            return declare_aggression(event, a, b, None, user=referee, nonce=nonce())

        def two(a=boris, b=gleb):
            return declare_aggression(event, a, b, None, user=referee, nonce=nonce())

        results = race(one, two)
        assert all(isinstance(r, services.Performed) for r in results), results
        assert results[0].situation.pk == results[1].situation.pk  # the one situation that took it on
        situation = Situation.objects.get(pk=results[0].situation.pk)
        assert sorted(sorted((d.a, d.b)) for d in services.state_of(situation).duels) == sorted(
            [sorted((anna.pk, vera.pk)), sorted((boris.pk, gleb.pk))]
        )
        battle.refresh_from_db()
        assert battle.ended and battle_state(battle).closed
        # Nothing was played: the hands written back are the hands they came with.
        assert _cards(people) == before

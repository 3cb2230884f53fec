"""Two tablets, one battle: the shared lock, version and nonce decide (DESIGN.md §4), on PostgreSQL."""

import pytest

from duels import services
from duels.models import LogEntry, Situation
from rules import battle as B
from tests.concurrency.race_kit import race
from tests.services.battle_kit import battle_state, begin, buid, party, passes, top
from tests.services.kit import nonce

pytestmark = pytest.mark.concurrency
TRIALS = 10


def test_R2_two_opportunity_attacks_by_one_combatant_at_once_one_wins(event, referee):
    """Two referees record Vera's opportunity attack with different cards, both from the same page."""
    for n in range(TRIALS):
        people = party(event, first=n * 4)
        anna, _boris, vera, _gleb = people
        situation = begin(event, people, referee, declarer=anna)
        for _ in range(4):  # everybody passes: round 2, reactions apply (R0)
            st = battle_state(situation)
            for command in (passes(st), B.NextTurn()):
                situation.refresh_from_db()
                services.perform(situation.pk, command, user=referee, seen_version=situation.version, nonce=nonce())
        # D11: the bout goes on, so round 2 has begun at once (no StartRound).
        assert battle_state(situation).round == 2
        services.perform(
            situation.pk,
            B.Act(
                actor=anna.pk,
                act=B.ATTACK,
                cards=(buid(situation, anna, "Bolt"),),
                targets=(vera.pk,),
                engaged=(vera.pk,),
            ),
            user=referee,
            seen_version=Situation.objects.get(pk=situation.pk).version,
            nonce=nonce(),
        )
        frame = top(situation).number
        version = Situation.objects.get(pk=situation.pk).version
        cards = (buid(situation, vera, "Snap"), buid(situation, vera, "Blade"))

        def opportunity(card: str, situation=situation, version=version, frame=frame, reactor=vera.pk):
            command = B.Opportunity(reactor=reactor, frame=frame, card=card)
            return services.perform(situation.pk, command, user=referee, seen_version=version, nonce=nonce())

        results = race(lambda: opportunity(cards[0]), lambda: opportunity(cards[1]))  # noqa: B023
        won = [r for r in results if isinstance(r, services.Performed)]
        stale = [r for r in results if isinstance(r, services.StaleVersion)]
        assert (len(won), len(stale)) == (1, 1), results
        assert LogEntry.objects.filter(situation=situation, command__type="opportunity").count() == 1
        fresh = Situation.objects.get(pk=situation.pk)
        assert B.to_dict(services.replayed(fresh)) == fresh.state

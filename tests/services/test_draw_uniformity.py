"""IA3: the blind draw is uniform - measured through the product's own service, thousands of times.

The trials run the fight service's own transition (``Transition.command``,
what ``start_instant_attack`` calls after joining the fighters): the
situation kind draws with the real random source (``secrets``), the engine
takes the card, and the log entry records the draw. Each trial is then taken
back (``Transition.restore``, the same path a refused start takes), so every
trial starts from the same victim holding the same five cards; the last one
is saved and read back from the database to show that what is counted is
what the log stores. A chi-square test over the recorded cards must accept
the real source and reject a biased one.

(A whole ``start_instant_attack`` per trial takes ~15 ms of CPU; thousands of
them would not fit the suite's time. The start service's own draw and
recording are checked in test_start.py.)
"""

from __future__ import annotations

import secrets
from collections import Counter

import pytest
from django.utils import timezone

from cards.models import Card
from duels.duel.kind import KIND
from duels.duel.start import _open, _setup, _uid
from duels.models import LogEntry
from duels.services.store import Transition
from rules import duel as engine
from tests.services.kit import arm

pytestmark = pytest.mark.django_db

# chi-square critical value for p = 0.001 with 4 degrees of freedom (five cards):
# a fair source fails this test once in a thousand runs.
CHI2_999_DF4 = 18.467
TRIALS = 4_000


@pytest.fixture
def five_card_victim(armed, catalogue):
    """Zavulon holds five different defence cards, so the draw chooses among five."""
    anton, zavulon = armed
    cards = [
        Card.objects.create(catalogue=catalogue, name_ru=f"Щит {i}", name_en=f"Ward {i}", kind="defence")
        for i in range(5)
    ]
    zavulon.arsenal.all().delete()
    arm(zavulon, *cards)
    return anton, zavulon, {card.pk for card in cards}


def recorded_draws(anton, zavulon, attack_card, referee, trials: int) -> Counter[int]:
    """The card each instant attack drew, as its log entry records it; only the last trial is saved."""
    kind = KIND
    now = timezone.now()
    tx = Transition(_open(anton.event, now), now)
    for character in (anton, zavulon):
        tx.command(engine.Join(_setup(character)), actor=referee)
    command = engine.InstantAttack(anton.pk, zavulon.pk, _uid(kind, tx.state, anton, attack_card.pk), True, True)
    counts: Counter[int] = Counter()
    for trial in range(trials):
        mark = tx.checkpoint()
        tx.command(command, actor=referee)
        entry = tx.entries[-1]
        drawn = next(e for e in entry.events if e["type"] == "card_drawn")
        # The index in the log and the card it names agree: replay draws the same card.
        assert entry.draw == drawn["draw"] is not None
        assert tx.state.cards[tx.state.duels[0].step.answer_card].card_id == drawn["card_id"]
        counts[drawn["card_id"]] += 1
        if trial < trials - 1:
            tx.restore(mark)
    tx.save()
    stored = LogEntry.objects.get(command__type="instant_attack")
    assert (stored.draw, stored.events) == (entry.draw, entry.events)
    return counts


def chi_square(counts: Counter[int], cells: set[int]) -> float:
    total = sum(counts.values())
    expected = total / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def test_IA3_the_service_draws_each_of_five_cards_equally_often(five_card_victim, attack_card, referee):
    anton, zavulon, cards = five_card_victim
    counts = recorded_draws(anton, zavulon, attack_card, referee, TRIALS)
    assert set(counts) == cards and sum(counts.values()) == TRIALS
    assert chi_square(counts, cards) < CHI2_999_DF4, counts


def test_IA3_the_chi_square_check_rejects_a_biased_draw(five_card_victim, attack_card, referee, monkeypatch):
    """The same measurement with a source that favours the last card (2 in 6 instead of 1 in 5) fails."""
    anton, zavulon, cards = five_card_victim
    fair = secrets.randbelow
    monkeypatch.setattr("secrets.randbelow", lambda n: min(fair(n + 1), n - 1))
    counts = recorded_draws(anton, zavulon, attack_card, referee, TRIALS // 5)
    assert chi_square(counts, cards) > CHI2_999_DF4, counts

"""IA3: the blind draw is uniform - measured through the product's own service, thousands of times.

The trials run the fight service's own transition (``Transition.command``,
what ``start_instant_attack`` calls after joining the fighters): the
situation kind draws with the real random source (``secrets``), the engine
takes the card, and the log entry records the draw. Each trial is then taken
back (``Transition.restore``, the same path a refused start takes), so every
trial starts from the same victim holding the same five cards; the last one
is saved and read back from the database to show that what is counted is
what the log stores. A chi-square test over the recorded cards must accept
the service's mapping and reject a biased one.

No test here may fail at random (issue 23): the mapping from draw to card is
measured with a seeded source (tests/services/chance_kit.py), the same numbers
every run; the real source, ``secrets``, is measured on its own through the
kind's own draw, with 50 times the trials, at p = 10⁻⁶.

(A whole ``start_instant_attack`` per trial takes ~15 ms of CPU; thousands of
them would not fit the suite's time. The start service's own draw and
recording are checked in test_start.py.)
"""

from __future__ import annotations

import secrets
from collections import Counter
from typing import Any

import pytest
from django.utils import timezone

from cards.models import Card
from duels.duel.kind import KIND
from duels.duel.start import _open, _setup, _uid
from duels.models import LogEntry
from duels.services.store import Transition
from rules import duel as engine
from tests.services.chance_kit import P_MAPPING, P_REAL, chi2_critical, chi_square, seeded_chance
from tests.services.kit import arm

pytestmark = pytest.mark.django_db

# Five cards: 4 degrees of freedom.
MAPPING_LIMIT = chi2_critical(4, P_MAPPING)  # 18.467
REAL_LIMIT = chi2_critical(4, P_REAL)  # 33.377: a fair source fails one run in a million
TRIALS = 4_000
REAL_TRIALS = 200_000


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


def _attack(anton, zavulon, attack_card, referee) -> tuple[Transition, Any, Any]:
    kind = KIND
    now = timezone.now()
    tx = Transition(_open(anton.event, now), now)
    for character in (anton, zavulon):
        tx.command(engine.Join(_setup(character)), actor=referee)
    command = engine.InstantAttack(anton.pk, zavulon.pk, _uid(kind, tx.state, anton, attack_card.pk), True, True)
    return tx, kind, command


def recorded_draws(anton, zavulon, attack_card, referee, trials: int) -> Counter[int]:
    """The card each instant attack drew, as its log entry records it; only the last trial is saved."""
    tx, _, command = _attack(anton, zavulon, attack_card, referee)
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


def test_IA3_the_service_maps_draws_to_each_of_five_cards_equally_often(
    five_card_victim, attack_card, referee, monkeypatch
):
    seeded_chance(monkeypatch)
    anton, zavulon, cards = five_card_victim
    counts = recorded_draws(anton, zavulon, attack_card, referee, TRIALS)
    assert set(counts) == cards and sum(counts.values()) == TRIALS
    assert chi_square(counts, cards) < MAPPING_LIMIT, counts


def test_IA3_the_chi_square_check_rejects_a_biased_draw(five_card_victim, attack_card, referee, monkeypatch):
    """The same measurement with a source that favours the last card (2 in 6 instead of 1 in 5) fails."""
    anton, zavulon, cards = five_card_victim
    source = seeded_chance(monkeypatch)
    monkeypatch.setattr("secrets.randbelow", lambda n: min(source.randrange(n + 1), n - 1))
    counts = recorded_draws(anton, zavulon, attack_card, referee, TRIALS // 5)
    assert chi_square(counts, cards) > MAPPING_LIMIT, counts


def test_IA3_the_real_source_draws_uniformly(five_card_victim, attack_card, referee):
    """``secrets`` itself, through the kind's own draw (no seed): 200,000 draws at p = 10⁻⁶."""
    assert secrets.randbelow.__module__ == "secrets"  # the real one (SystemRandom's), not a test's stand-in
    anton, zavulon, cards = five_card_victim
    tx, kind, command = _attack(anton, zavulon, attack_card, referee)
    hand = [tx.state.cards[uid].card_id for uid in tx.state.fighters[zavulon.pk].hand]
    assert set(hand) == cards
    counts = Counter(hand[kind.draw_for(tx.state, command)] for _ in range(REAL_TRIALS))
    assert chi_square(counts, cards) < REAL_LIMIT, counts

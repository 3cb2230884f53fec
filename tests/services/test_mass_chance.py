"""The server's chance is fair, measured through the real services (M1, M4, M8).

Chi-square goodness of fit against the uniform distribution. The critical
values are for p = 0.001, so a fair source fails one run in a thousand; a
biased one (a die that never shows 6, a shuffle that keeps the catalogue
order) fails every time at these sample sizes.
"""

import itertools
from collections import Counter

import pytest

import rules.mass as magic
from cards.models_mass import MagicCard
from duels.models import LogEntry
from tests.services.mass_kit import act, armies, events, start, undo

pytestmark = pytest.mark.django_db

CHI2_P001 = {5: 20.515, 23: 49.728}  # degrees of freedom -> critical value at p = 0.001


def chi_square(counts: Counter, categories: list, total: int) -> float:
    expected = total / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)


def test_M8_server_dice_are_uniform(event, referee):
    MagicCard.objects.create(catalogue=event.catalogue, name_ru="Огонь", deck=2, magic_type="fire")
    red, blue = armies(event)
    battle = start(event, referee, red, blue)
    faces: Counter = Counter()
    rolls = 150
    for _ in range(rolls):
        done = act(battle, magic.RollInitiative(source=magic.SERVER), referee)
        rolled = events(done)[0]
        faces.update([rolled["a"], rolled["b"]])
        if magic.from_dict(_state(battle)).stage != magic.INITIATIVE:
            undo(battle, referee, "measuring the dice")
    assert sum(faces.values()) == 2 * rolls
    assert chi_square(faces, [1, 2, 3, 4, 5, 6], 2 * rolls) < CHI2_P001[5], faces
    logged = LogEntry.objects.filter(situation=battle, command__type="roll_initiative")
    assert logged.count() == rolls and all((e.command or {})["source"] == "server" for e in logged)


def _state(battle):
    battle.refresh_from_db()
    return battle.state


def test_M1_the_server_shuffle_gives_every_deck_order_equally_often(event, referee):
    for n in range(4):
        MagicCard.objects.create(catalogue=event.catalogue, name_ru=f"Карта {n}", deck=4, magic_type="earth")
    red, blue = armies(event)
    orders: Counter = Counter()
    battles = 240
    for _ in range(battles):
        battle = start(event, referee, red, blue)
        shuffle = LogEntry.objects.get(situation=battle, command__type="shuffle_decks")
        orders[tuple(dict((deck, tuple(o)) for deck, o in (shuffle.command or {})["order"])[4])] += 1
    permutations = list(itertools.permutations(sorted(next(iter(orders)))))
    assert len(permutations) == 24 and set(orders) <= set(permutations)
    assert chi_square(orders, permutations, battles) < CHI2_P001[23], orders

"""The server's chance is fair, measured through the real services (M1, M4, M8).

Chi-square goodness of fit against the uniform distribution. No test here may
fail at random (issue 23): the services' mapping from the source to the dice
and deck orders they log is measured with a seeded source
(tests/services/chance_kit.py), the same numbers every run, at p = 0.001; a
biased mapping (a die that never shows 6, a shuffle that keeps the catalogue
order) fails every time. The real source is measured on its own, through the
same functions the services call, with far more trials at p = 10⁻⁶.
"""

import itertools
from collections import Counter

import pytest

import rules.mass as magic
from cards.models_mass import MagicCard
from duels.mass.kind import roll_die, shuffled
from duels.models import LogEntry, Situation
from tests.services.chance_kit import P_MAPPING, P_REAL, chi2_critical, seeded_chance
from tests.services.mass_kit import act, armies, events, start, undo

pytestmark = pytest.mark.django_db

CHI2_P001 = {df: chi2_critical(df, P_MAPPING) for df in (5, 23)}  # 20.515, 49.728
CHI2_REAL = {df: chi2_critical(df, P_REAL) for df in (5, 23)}  # 35.888, 70.550


def chi_square(counts: Counter, categories: list, total: int) -> float:
    expected = total / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)


def test_M8_server_dice_are_uniform(event, referee, monkeypatch):
    seeded_chance(monkeypatch)
    # Measured by undoing each decided roll: M4 would give the undone dice again, so it is off here
    # (tests/services/test_mass_battle.py checks it).
    monkeypatch.setattr("duels.mass.kind.undone_roll", lambda *args: None)
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


def test_M1_the_server_shuffle_gives_every_deck_order_equally_often(event, referee, monkeypatch):
    seeded_chance(monkeypatch)
    for n in range(4):
        MagicCard.objects.create(catalogue=event.catalogue, name_ru=f"Карта {n}", deck=4, magic_type="earth")
    red, blue = armies(event)
    orders: Counter = Counter()
    battles = 240
    for _ in range(battles):
        Situation.objects.filter(kind="mass_battle").update(ended=True)  # the armies are free again (issue 20)
        battle = start(event, referee, red, blue)
        shuffle = LogEntry.objects.get(situation=battle, command__type="shuffle_decks")
        orders[tuple(dict((deck, tuple(o)) for deck, o in (shuffle.command or {})["order"])[4])] += 1
    permutations = list(itertools.permutations(sorted(next(iter(orders)))))
    assert len(permutations) == 24 and set(orders) <= set(permutations)
    assert chi_square(orders, permutations, battles) < CHI2_P001[23], orders


def test_M8_a_die_that_never_shows_six_is_caught(event, referee, monkeypatch):
    """The seeded measurement is no rubber stamp: a mapping that loses a face fails it."""
    source = seeded_chance(monkeypatch)
    monkeypatch.setattr("secrets.randbelow", lambda n: source.randrange(n - 1))
    MagicCard.objects.create(catalogue=event.catalogue, name_ru="Огонь", deck=2, magic_type="fire")
    red, blue = armies(event)
    battle = start(event, referee, red, blue)
    faces: Counter = Counter()
    for _ in range(150):
        rolled = events(act(battle, magic.RollInitiative(source=magic.SERVER), referee))[0]
        faces.update([rolled["a"], rolled["b"]])
        if magic.from_dict(_state(battle)).stage != magic.INITIATIVE:
            undo(battle, referee, "measuring the dice")
    assert chi_square(faces, [1, 2, 3, 4, 5, 6], 300) > CHI2_P001[5], faces


def test_M8_the_real_dice_are_uniform():
    """``secrets`` itself through the services' own die (no seed): 300,000 rolls at p = 10⁻⁶."""
    rolls = 300_000
    faces = Counter(roll_die() for _ in range(rolls))
    assert chi_square(faces, [1, 2, 3, 4, 5, 6], rolls) < CHI2_REAL[5], faces


def test_M1_the_real_shuffle_is_uniform():
    """The operating system's source through the services' own shuffle (no seed): 100,000 shuffles at p = 10⁻⁶."""
    shuffles = 100_000
    orders = Counter(shuffled(["w", "x", "y", "z"]) for _ in range(shuffles))
    permutations = list(itertools.permutations(["w", "x", "y", "z"]))
    assert set(orders) == set(permutations)
    assert chi_square(orders, permutations, shuffles) < CHI2_REAL[23], orders

"""The statistical tests' own arithmetic (tests/services/chance_kit.py) against the textbook chi-square table."""

import math
import random

import pytest

from tests.services.chance_kit import SEED, chi2_critical, chi2_survival


@pytest.mark.parametrize(
    ("df", "p", "table"),
    [(4, 1e-3, 18.467), (5, 1e-3, 20.515), (23, 1e-3, 49.728), (1, 0.05, 3.841), (10, 0.01, 23.209)],
)
def test_critical_values_match_the_table(df, p, table):
    assert chi2_critical(df, p) == pytest.approx(table, abs=1e-3)


def test_the_p_one_in_a_million_values():
    """Four degrees of freedom have a closed form: P(X > x) = e^(-x/2) (1 + x/2)."""
    x = chi2_critical(4, 1e-6)
    assert math.exp(-x / 2) * (1 + x / 2) == pytest.approx(1e-6, rel=1e-9)
    assert chi2_survival(x, 4) == pytest.approx(1e-6, rel=1e-9)
    assert x == pytest.approx(33.377, abs=1e-3)


def test_the_seeded_source_is_the_same_every_run():
    assert [random.Random(SEED).randrange(5) for _ in range(3)] == [random.Random(SEED).randrange(5)] * 3
    first, second = random.Random(SEED), random.Random(SEED)
    assert [first.randrange(6) for _ in range(50)] == [second.randrange(6) for _ in range(50)]

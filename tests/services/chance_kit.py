"""What the statistical tests share: a seeded source in place of ``secrets``, and chi-square critical values.

Two kinds of statistical test, so that none fails at random (issue 23, "deterministic CI"):

- **the mapping** from a draw, a roll or a shuffle to what the fight records
  (the card drawn, the die's face, the deck order) is measured with a seeded
  source (``seeded_chance``): the same numbers every run, so the test passes
  or fails by the code alone, and a biased mapping fails every time;
- **the real source** (``secrets``, the operating system's) is measured on its
  own with many more trials at p = 10⁻⁶: a fair source fails one run in a
  million.

scipy is not a dependency of the project, so the critical values are computed
here from the chi-square survival function (exact for even degrees of freedom,
a converging series of the regularized incomplete gamma function for odd ones)
and checked against the textbook table in test_chance_kit.py.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Iterable, Mapping
from typing import Any

import pytest

SEED = 20_27  # any fixed number: what matters is that it is fixed


def chi_square(counts: Mapping[Any, int], cells: Iterable[Hashable]) -> float:
    cells = list(cells)
    total = sum(counts[c] for c in cells)
    expected = total / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def chi2_survival(x: float, df: int) -> float:
    """P(X > x) for a chi-square variable with ``df`` degrees of freedom."""
    if x <= 0:
        return 1.0
    a, half = df / 2, x / 2
    # The regularized lower incomplete gamma P(a, x/2) by its series (converges for every x).
    term = 1.0 / a
    total = term
    n = 1
    while term > total * 1e-17:
        term *= half / (a + n)
        total += term
        n += 1
    lower = math.exp(a * math.log(half) - half - math.lgamma(a)) * total
    return max(0.0, 1.0 - lower)


def chi2_critical(df: int, p: float) -> float:
    """The x with P(X > x) = p, by bisection on the survival function."""
    low, high = 0.0, 10.0 * df + 200.0
    for _ in range(200):
        middle = (low + high) / 2
        if chi2_survival(middle, df) > p:
            low = middle
        else:
            high = middle
    return (low + high) / 2


# The test thresholds. P_MAPPING for the seeded measurements (a fixed outcome: the level only
# says how far from uniform a mapping may look before it counts as broken); P_REAL for the real
# source, so that a fair source fails one run in a million.
P_MAPPING = 1e-3
P_REAL = 1e-6


def seeded_chance(monkeypatch: pytest.MonkeyPatch) -> random.Random:
    """``secrets.randbelow`` and the mass battle's shuffler replaced by one seeded generator (for this test)."""
    source = random.Random(SEED)
    monkeypatch.setattr("secrets.randbelow", source.randrange)
    monkeypatch.setattr("duels.mass.kind._random", source)
    return source

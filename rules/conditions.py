"""A character's condition and how card effects change it (CR1, D11).

Reading (documented in docs/duel-rules.md): effects do not stack. A light wound
on a lightly wounded fighter leaves them lightly wounded; the worse of the
current condition and the new effect holds. The severity order is the order in
which the seeds list the conditions.
"""

from __future__ import annotations

from typing import Final

FIT: Final = "fit"
LIGHTLY_WOUNDED: Final = "lightly_wounded"
HEAVILY_WOUNDED: Final = "heavily_wounded"
PARALYSED: Final = "paralysed"
SUBDUED: Final = "subdued"
HELPLESS: Final = "helpless"
DEAD: Final = "dead"

# The effect "none" of CR1: the card does nothing to the condition.
NO_EFFECT: Final = ""

SEVERITY: Final[tuple[str, ...]] = (FIT, LIGHTLY_WOUNDED, HEAVILY_WOUNDED, PARALYSED, SUBDUED, HELPLESS, DEAD)
_RANK: Final[dict[str, int]] = {c: i for i, c in enumerate(SEVERITY)}

# D11: a fighter in any of these can no longer fight.
OUT_OF_FIGHT: Final[frozenset[str]] = frozenset({HEAVILY_WOUNDED, PARALYSED, SUBDUED, HELPLESS, DEAD})


def is_condition(value: str) -> bool:
    return value in _RANK


def is_effect(value: str) -> bool:
    """A catalogue effect is a condition or NO_EFFECT (CR1)."""
    return value == NO_EFFECT or value in _RANK


def _rank(condition: str) -> int:
    try:
        return _RANK[condition]
    except KeyError:
        raise ValueError(f"unknown condition {condition!r}") from None


def worse(a: str, b: str) -> str:
    """The more severe of two conditions."""
    return a if _rank(a) >= _rank(b) else b


def apply_effect(current: str, effect: str) -> str:
    """The condition after an effect lands (CR1): the worse one holds."""
    if effect == NO_EFFECT:
        _rank(current)
        return current
    return worse(current, effect)


def can_fight(condition: str) -> bool:
    """D11: heavily wounded, paralysed, subdued, helpless and dead are out."""
    _rank(condition)
    return condition not in OUT_OF_FIGHT

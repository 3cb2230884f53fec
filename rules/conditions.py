"""A character's condition and how card effects change it (CR1, D11).

Reading (documented in docs/duel-rules.md): conditions accumulate. A
character's condition is a SET of conditions - a paralysed fighter who is then
heavily wounded is both - and "can fight" (D11) follows from the set. Two
readings keep the set sensible: wounds are one scale (a heavy wound replaces a
light one, a light wound on a heavily wounded fighter changes nothing), and
death ends every other condition.

The set is written as one string, the conditions joined by ``+`` in the order
the seeds list them (``"heavily_wounded+paralysed"``), and ``"fit"`` for the
empty set. Every single condition is thus also a valid set, so the values of
logs and databases written before conditions accumulated read unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from typing import Final

from rules.errors import INPUT, RuleError, gettext_noop

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
# The conditions a set can hold ("fit" is the empty set), in the seeds' order.
CONDITIONS: Final[tuple[str, ...]] = SEVERITY[1:]
_RANK: Final[dict[str, int]] = {c: i for i, c in enumerate(SEVERITY)}
SEPARATOR: Final = "+"
# The longest set written out: what a database column must hold.
MAX_LENGTH: Final = len(SEPARATOR.join(CONDITIONS))

# D11: a fighter in any of these can no longer fight.
OUT_OF_FIGHT: Final[frozenset[str]] = frozenset({HEAVILY_WOUNDED, PARALYSED, SUBDUED, HELPLESS, DEAD})
WOUNDS: Final[tuple[str, ...]] = (LIGHTLY_WOUNDED, HEAVILY_WOUNDED)


def parts(condition: str) -> tuple[str, ...]:
    """The conditions of a written set, in the seeds' order (empty when fit); ValueError if malformed."""
    if condition == FIT:
        return ()
    found = condition.split(SEPARATOR)
    if any(part not in CONDITIONS for part in found) or len(set(found)) != len(found):
        raise ValueError(f"unknown condition {condition!r}")
    return tuple(sorted(found, key=_RANK.__getitem__))


def written(conditions: Iterable[str]) -> str:
    """The written form of a set of conditions, applying the two readings (wounds, death)."""
    found = set(conditions) - {FIT}
    unknown = found - set(CONDITIONS)
    if unknown:
        raise ValueError(f"unknown condition {sorted(unknown)!r}")
    if DEAD in found:
        return DEAD
    if HEAVILY_WOUNDED in found:
        found.discard(LIGHTLY_WOUNDED)
    return SEPARATOR.join(sorted(found, key=_RANK.__getitem__)) or FIT


def _all_sets() -> tuple[str, ...]:
    found = {written(combo) for size in range(len(CONDITIONS) + 1) for combo in combinations(CONDITIONS, size)}
    return tuple(sorted(found, key=lambda w: (len(parts(w)), [_RANK[p] for p in parts(w)])))


# Every set a character can be in, written out: the values a database column may hold.
CONDITION_SETS: Final[tuple[str, ...]] = _all_sets()


def is_condition(value: str) -> bool:
    """A well-formed written set (each single condition and "fit" included)."""
    try:
        return written(parts(value)) == value
    except ValueError:
        return False


def is_effect(value: str) -> bool:
    """A catalogue effect is one condition or NO_EFFECT (CR1)."""
    return value == NO_EFFECT or value in _RANK


def apply_effect(current: str, effect: str) -> str:
    """The condition after an effect lands (CR1 reading): the effect joins the set."""
    if effect == NO_EFFECT:
        parts(current)
        return current
    if effect not in _RANK:
        raise ValueError(f"unknown condition {effect!r}")
    return written((*parts(current), effect))


def without(current: str, condition: str) -> str:
    """The set with one condition cleared (healing, the end of a paralysis)."""
    return written(c for c in parts(current) if c != condition)


def can_fight(condition: str) -> bool:
    """D11: heavily wounded, paralysed, subdued, helpless and dead are out - any one of them."""
    return not OUT_OF_FIGHT.intersection(parts(condition))


def changed_condition(current: str, name: str, *, add: str = "", clear: str = "", reason: str = "") -> str:
    """The condition after the referee adds one (a blow) or clears one (a healing); refused without a reason.

    The one check for a change inside a fight of any kind and outside one (the services).
    """
    if not reason.strip():
        raise RuleError("CR1", gettext_noop("Say why the condition changes."))
    if bool(add) == bool(clear):
        raise RuleError(INPUT, gettext_noop("Give one condition to add or one to clear."))
    changed = add or clear
    if changed not in CONDITIONS:
        raise RuleError(INPUT, gettext_noop("Unknown condition %(condition)s."), condition=changed)
    if clear and clear not in parts(current):
        raise RuleError("CR1", gettext_noop("%(name)s is not %(condition)s."), name=name, condition=clear)
    return apply_effect(current, add) if add else without(current, clear)

"""“Did you mean …?” for an unknown card or character name in an import (issue 22).

A kind names the columns that look up a name (``ImportKind.lookups``: the arsenal file's
``character`` and ``card``, a counter rule's cards, a warrior's type and character) and the
names they may take. After a refused check, each error in such a column gets the closest
known name (rapidfuzz's WRatio on the one name folding, helpers/names.py), if one is close
enough; the page offers it with a tick box and nothing changes unless the organizer ticks
it (events/views_import.py ``correct``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rapidfuzz import fuzz, process

from helpers.names import name_key

CUTOFF = 75.0


class Names:
    """Known names, folded once, for many questions."""

    def __init__(self, names: Iterable[str]) -> None:
        self.by_key: dict[str, str] = {}
        for name in names:
            if name:
                self.by_key.setdefault(name_key(name), name)
        self.keys = list(self.by_key)

    def closest(self, name: str) -> str | None:
        """The known name closest to ``name``; the one it folds to if it is a lookalike spelling of it."""
        key = name_key(name)
        if not key or not self.keys:
            return None
        if key in self.by_key:
            return self.by_key[key] if self.by_key[key] != name.strip() else None
        found = process.extractOne(key, self.keys, scorer=fuzz.WRatio, score_cutoff=CUTOFF)
        return self.by_key[found[0]] if found else None


def with_suggestions(
    errors: Sequence[tuple[Any, ...]], cells: dict[tuple[int, str], Any], lookups: dict[str, Iterable[str]]
) -> list[list[Any]]:
    """The errors as lists, each in a lookup column given the closest known name as a fourth item."""
    known = {column: Names(names) for column, names in lookups.items()}
    out: list[list[Any]] = []
    for row, column, message, *_rest in errors:
        entry: list[Any] = [row, column, message]
        if row is not None and column in known:
            value = cells.get((row, column))
            if value not in (None, ""):
                closest = known[column].closest(str(value))
                if closest is not None:
                    entry.append(closest)
        out.append(entry)
    return out

"""A copy of an engine state that no change can reach the original through; the immutable parts are shared.

Every kind's ``apply`` and ``expire`` must leave their input untouched (refuse
whole, apply whole). A deep copy of the whole state did that at the price of
every card face, counter rule and finished record being copied for every
command, which made replays quadratic (issue 24). ``clone`` copies only what a
handler can change - lists, dicts, sets and mutable dataclasses (fighters,
combatants, frames, warriors, the open step) - and shares everything
immutable: frozen dataclasses (card faces, counter rules, settings, step
records), strings, numbers, datetimes, tuples. It walks the dataclasses' own
fields, so a field added later is cloned too; a type it does not know is deep
copied, never shared.

Each type's way of being copied is decided once per process (``_HOW``) and a
shared value is never passed to a function: a step clones its state once
and a replay once per command, so this walk was ~8 % of a step's CPU while it
asked every value's type the same questions again (issue 24).

A mapping of immutable values that changes only rarely during a fight (the
cards' faces by uid, hundreds in a battle) is a ``Shared``: it refuses every
change in place, so clones share it, and the rare change makes a new one
(``with_items``).

What it relies on: a frozen dataclass or a tuple of the engine holds no list,
dict or set (the kinds' frozen types hold scalars, tuples and other frozen
dataclasses), a set holds hashable, hence immutable, values, and a mutable
dataclass keeps its fields in ``__dict__`` (no ``__slots__``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from rules.cards import CounterTable

_Copy = Callable[[Any], Any]


class Shared[K, V](dict[K, V]):
    """A dict never changed in place: clones share it, and a change is a new one (``with_items``).

    Its values must be immutable (frozen dataclasses). ``note`` is free for a
    reader to keep what it derived of the mapping (``rules.snapshots`` keeps
    the snapshot it was read from): it stays true, since the mapping never
    changes.
    """

    __slots__ = ("note",)
    note: Any

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("a Shared mapping is never changed in place: make a new one with with_items")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def with_items(self, items: Mapping[K, V]) -> Shared[K, V]:
        """This mapping with ``items`` added (or replaced): a new one, this one unchanged."""
        new: Shared[K, V] = Shared(self)
        dict.update(new, items)
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        return (Shared, (dict(self),))

    def __copy__(self) -> Shared[K, V]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared[K, V]:
        return self


def _list(value: list[Any]) -> list[Any]:
    out = []
    for v in value:
        how = _HOW.get(type(v), _decide)
        if how is _decide:
            how = _decide(type(v))
        out.append(v if how is None else how(v))
    return out


def _dict(value: dict[Any, Any]) -> dict[Any, Any]:
    out = {}
    for k, v in value.items():
        how = _HOW.get(type(v), _decide)
        if how is _decide:
            how = _decide(type(v))
        out[k] = v if how is None else how(v)
    return out


def _set(value: set[Any]) -> set[Any]:
    return set(value)  # sets hold hashable, hence immutable, values here


def _dataclass(value: Any) -> Any:
    new = object.__new__(type(value))
    new.__dict__ = _dict(value.__dict__)
    return new


def _unknown(value: Any) -> Any:
    # Something this module does not know: never share what might change.
    return copy.deepcopy(value)


# How a value of each type is copied; None: shared as it is (immutable).
_HOW: dict[type, _Copy | None] = {
    **dict.fromkeys((str, int, float, bool, type(None), datetime, tuple, CounterTable, Shared)),
    list: _list,
    dict: _dict,
    set: _set,
}


def _decide(t: type) -> _Copy | None:
    """How values of ``t`` are copied, decided once; also the lookup's marker of a type not decided yet."""
    params = getattr(t, "__dataclass_params__", None)
    if params is not None and params.frozen:
        how: _Copy | None = None
    elif params is not None and hasattr(t, "__dict__") and not hasattr(t, "__slots__"):
        how = _dataclass
    else:
        how = _unknown
    _HOW[t] = how
    return how


def clone[T](state: T) -> T:
    """A copy of ``state`` that no change to it can reach ``state`` through; immutable parts are shared."""
    how = _HOW.get(type(state), _decide)
    if how is _decide:
        how = _decide(type(state))
    return state if how is None else how(state)

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

What it relies on: a frozen dataclass or a tuple of the engine holds no list,
dict or set (the kinds' frozen types hold scalars, tuples and other frozen
dataclasses), and a set holds hashable, hence immutable, values.
"""

from __future__ import annotations

import copy
from datetime import datetime
from typing import Any, Final

from rules.cards import CounterTable

_SHARED: Final[frozenset[type]] = frozenset({str, int, float, bool, type(None), datetime, tuple, CounterTable})
_frozen: dict[type, bool] = {}


def _is_frozen(t: type) -> bool:
    found = _frozen.get(t)
    if found is None:
        params = getattr(t, "__dataclass_params__", None)
        found = _frozen[t] = bool(params is not None and params.frozen)
    return found


def _clone(value: Any) -> Any:
    t = type(value)
    if t in _SHARED:
        return value
    if t is list:
        return [_clone(v) for v in value]
    if t is dict:
        return {k: _clone(v) for k, v in value.items()}
    if t is set:
        return set(value)  # sets hold hashable, hence immutable, values here
    if _is_frozen(t):
        return value
    if hasattr(t, "__dataclass_fields__"):
        new = copy.copy(value)
        fields_ = new.__dict__
        for name, v in fields_.items():
            if type(v) not in _SHARED:
                fields_[name] = _clone(v)
        return new
    # Something this module does not know: never share what might change.
    return copy.deepcopy(value)


def clone[T](state: T) -> T:
    """A copy of ``state`` that no change to it can reach ``state`` through; immutable parts are shared."""
    result: T = _clone(state)
    return result

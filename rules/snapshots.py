"""Static parts of a fight's state, stored once by their content and referred to by its hash (issue 24).

A state holds data no step changes: the counter rules as they were when the
situation opened (CR2, ~41 KB of a duel's 48 KB) and the card faces its uids
name. ``to_dict`` writes such a part as a reference, ``{"snapshot": key}``,
where ``key`` is the SHA-256 of the part's canonical JSON; the part itself is
stored once, by whoever first writes a state naming it (``duels`` keeps it in
its ``StateSnapshot`` table). A step that changes no static part writes the
same reference again and nothing else.

The engine stays pure: the kinds' ``to_dict`` register a part's data here
(``put``), the kinds' ``from_dict`` ask for it (``data``), and what this
process does not know yet comes from the resolver the persistence layer
registered (``set_resolver``; one read per snapshot per process). Decoded
values are kept per snapshot too (``decoded``), so every state naming the
same snapshot shares its immutable rules and faces.

Three forms of a part read alike: a bare reference (the database's rows), a
reference with its data (``{"snapshot": key, "data": ...}``, what the event
file and the post-game export hold, ``inlined``), and the inline data of a
state written before references existed (each kind reads those itself).

Content addressing makes every snapshot shareable: two fights (two events,
two installations) with the same rules name the same row, and a row never
changes, so nothing can be cross-linked wrongly; ``key_of`` is checked
whenever data arrives with its key.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Any, Final

from rules.clone import Shared

REF: Final = "snapshot"
DATA: Final = "data"

# Raw snapshot data this process knows, by key (put by a to_dict or read through the resolver).
_MAX = 256
_DATA: OrderedDict[str, Any] = OrderedDict()
# Decoded values, by (what, key): a kind's rules, faces and indexes of one snapshot.
_DECODED: OrderedDict[tuple[str, str], Any] = OrderedDict()
_lock = threading.Lock()

Resolver = Callable[[Collection[str]], Mapping[str, Any]]
_resolver: Resolver | None = None


class UnknownSnapshot(LookupError):
    """A state names a snapshot that is neither known here nor found by the resolver."""


def set_resolver(resolver: Resolver | None) -> None:
    """How this process reads the snapshots it does not know (keys -> data); None: none (tests, tools)."""
    global _resolver
    _resolver = resolver


def forget() -> None:
    """Drop everything this process knows (tests check what a first read costs)."""
    with _lock:
        _DATA.clear()
        _DECODED.clear()
        _BY_IDS.clear()


def canonical(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def key_of(data: Any) -> str:
    """The snapshot's key: SHA-256 of its canonical JSON, in hex."""
    return hashlib.sha256(canonical(data)).hexdigest()


def _remember(key: str, data: Any) -> None:
    with _lock:
        _DATA[key] = data
        _DATA.move_to_end(key)
        while len(_DATA) > _MAX:
            _DATA.popitem(last=False)


def _touch(key: str) -> None:
    """Keep a snapshot in use at the fresh end: only ones nobody uses any more are dropped."""
    if key in _DATA:
        with _lock:
            if key in _DATA:
                _DATA.move_to_end(key)


def put(data: Any) -> str:
    """Register ``data`` (plain JSON) as a snapshot; its key."""
    key = key_of(data)
    _remember(key, data)
    return key


def ref(key: str) -> dict[str, str]:
    return {REF: key}


def is_ref(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get(REF), str) and set(value) <= {REF, DATA}


def refs(state: Any) -> set[str]:
    """The snapshots a stored state (or opening) names: references sit at its top level."""
    if not isinstance(state, dict):
        return set()
    return {value[REF] for value in state.values() if is_ref(value)}


def known(key: str) -> Any | None:
    """The data of ``key`` if this process has it (never asks the resolver)."""
    return _DATA.get(key)


def fetch(keys: Iterable[str]) -> dict[str, Any]:
    """The data of every key: from this process, else one call of the resolver for all the missing ones."""
    wanted = list(dict.fromkeys(keys))
    found = {key: _DATA[key] for key in wanted if key in _DATA}
    missing = [key for key in wanted if key not in found]
    if missing:
        read = dict(_resolver(missing)) if _resolver is not None else {}
        for key in missing:
            if key not in read:
                raise UnknownSnapshot(f"state snapshot {key} is unknown")
            _remember(key, read[key])
            found[key] = read[key]
    return found


def prefetch(state: Mapping[str, Any]) -> None:
    """Read every snapshot ``state`` names that this process lacks, in one call (a from_dict's first step)."""
    missing = [
        value[REF] for value in state.values() if is_ref(value) and DATA not in value and value[REF] not in _DATA
    ]
    if missing:
        fetch(missing)


def data(value: Mapping[str, Any]) -> Any:
    """The data a reference names; a reference that carries its data is checked against its key."""
    key = value[REF]
    if DATA in value:
        carried = value[DATA]
        if key_of(carried) != key:
            raise UnknownSnapshot(f"state snapshot {key} carries data of another key")
        _remember(key, carried)
        return carried
    return fetch([key])[key]


def decoded[T](what: str, value: Mapping[str, Any], build: Callable[[Any], T]) -> T:
    """``build(data)`` of the snapshot ``value`` names, built once per process and shared."""
    key = value[REF]
    slot = (what, key)
    found = _DECODED.get(slot)
    if found is not None:
        _touch(key)
        with _lock:
            if slot in _DECODED:
                _DECODED.move_to_end(slot)
    else:
        found = build(data(value))
        with _lock:
            _DECODED[slot] = found
            while len(_DECODED) > _MAX:
                _DECODED.popitem(last=False)
    return found


def inlined(state: Any) -> Any:
    """``state`` with every reference carrying its data: readable where no snapshot row is (a file)."""
    if not isinstance(state, dict):
        return state
    named = [value[REF] for value in state.values() if is_ref(value) and DATA not in value]
    if not named:
        return state
    found = fetch(named)
    return {
        name: ({REF: value[REF], DATA: found[value[REF]]} if is_ref(value) and DATA not in value else value)
        for name, value in state.items()
    }


def carried(state: Any) -> dict[str, Any]:
    """The data the references of ``state`` carry, by key, each checked against its key."""
    found: dict[str, Any] = {}
    if isinstance(state, dict):
        for value in state.values():
            if is_ref(value) and DATA in value:
                if key_of(value[DATA]) != value[REF]:
                    raise UnknownSnapshot(f"state snapshot {value[REF]} carries data of another key")
                found[value[REF]] = value[DATA]
    return found


def bare(state: Any) -> Any:
    """``state`` with its references only (the data they carried goes to the snapshot rows)."""
    if not isinstance(state, dict):
        return state
    return {name: (ref(value[REF]) if is_ref(value) else value) for name, value in state.items()}


# --- writing a part as a reference ---------------------------------------------------------------
#
# A step writes the state again, and with it its static parts' references. The
# key of a part is found by the identity of its (immutable) values: the values
# decoded from one snapshot are shared objects, so the part of a state loaded
# from it is recognised at the cost of a tuple of ids. The entry keeps its
# values alive, so an id in it can never name another object.

_BY_IDS: dict[tuple[str, Any], tuple[tuple[Any, ...], Any]] = {}


def _memo(slot: tuple[str, Any], values: tuple[Any, ...], found: Any) -> None:
    with _lock:
        if len(_BY_IDS) >= 4 * _MAX:
            _BY_IDS.clear()
        _BY_IDS[slot] = (values, found)


def list_ref[T](what: str, values: Sequence[T], encode: Callable[[T], Any]) -> dict[str, str]:
    """A part that is a list of immutable values, in its order (the counter rules), as a reference."""
    if isinstance(values, tuple):
        # The tuple list_from decoded, shared by every state read from it: known by itself.
        hit = _BY_IDS.get((what, id(values)))
        if hit is not None and hit[0] is values and _DATA.get(hit[1]) is not None:
            _touch(hit[1])
            return ref(hit[1])
    slot = (what, tuple(map(id, values)))
    hit = _BY_IDS.get(slot)
    if hit is not None and _DATA.get(hit[1]) is not None:
        _touch(hit[1])
        return ref(hit[1])
    key = put([encode(v) for v in values])
    _memo(slot, tuple(values), key)
    return ref(key)


def list_from[T](what: str, value: Mapping[str, Any], decode: Callable[[Any], T]) -> tuple[T, ...]:
    """The values of a list part, decoded once per snapshot and shared (their ids then name it)."""

    def build(raw: Any) -> tuple[T, ...]:
        return tuple(decode(item) for item in raw)

    values = decoded(what, value, build)
    known = _BY_IDS.get((what, id(values)))
    if known is None or known[0] is not values:
        # Once per decoded tuple: its identity (list_ref's quick way) and its values' ids.
        _memo((what, id(values)), values, value[REF])
        _memo((what, tuple(map(id, values))), values, value[REF])
    return values


def faces_ref[T](
    what: str, cards: Mapping[str, T], encode: Callable[[T], Any]
) -> tuple[dict[str, str], dict[str, int]]:
    """The distinct faces of ``cards`` (uid -> immutable face) as a reference, and each uid's index in it.

    The snapshot is the faces' canonical JSON, distinct and sorted: it depends
    only on which faces the cards have now, never on how the fight got there,
    so a replay names the same snapshot as the live fight.
    """
    noted = getattr(cards, "note", None)
    if noted is not None and noted[0] == what and _DATA.get(noted[1]) is not None:
        # Cards read from a snapshot and never changed since (a Shared mapping): its reference is known.
        _touch(noted[1])
        return ref(noted[1]), dict(noted[2])
    objects = {id(face): face for face in cards.values()}
    slot = (what, frozenset(objects))
    hit = _BY_IDS.get(slot)
    if hit is None or _DATA.get(hit[1][0]) is None:
        by_text: dict[bytes, list[int]] = {}
        raw: dict[bytes, Any] = {}
        for ident, face in objects.items():
            item = encode(face)
            text = canonical(item)
            by_text.setdefault(text, []).append(ident)
            raw[text] = item
        order = sorted(by_text)
        key = put([raw[text] for text in order])
        index = {ident: n for n, text in enumerate(order) for ident in by_text[text]}
        hit = (tuple(objects.values()), (key, index))
        _memo(slot, hit[0], hit[1])
    key, index = hit[1]
    _touch(key)
    return ref(key), {uid: index[id(face)] for uid, face in cards.items()}


def faces_from[T](
    what: str, value: Mapping[str, Any], indices: Mapping[str, int], decode: Callable[[Any], T]
) -> Shared[str, T]:
    """The cards (uid -> face) a faces reference and the uids' indices name."""

    def build(raw: Any) -> tuple[T, ...]:
        faces = tuple(decode(item) for item in raw)
        objects = {id(face): face for face in faces}
        if len(objects) == len(faces):
            _memo((what, frozenset(objects)), faces, (value[REF], {id(face): n for n, face in enumerate(faces)}))
        return faces

    faces = decoded(what, value, build)
    cards: Shared[str, T] = Shared({uid: faces[n] for uid, n in indices.items()})
    # What faces_ref will be asked of these cards while they are unchanged (a Shared is never changed).
    cards.note = (what, value[REF], dict(indices))
    return cards

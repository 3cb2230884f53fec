"""rules/clone.py's type dispatch: what is shared, what is copied, decided once per type (issue 24)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from rules.clone import clone


@dataclass(frozen=True)
class Face:
    name: str
    tags: tuple[str, ...] = ()


@dataclass
class Open:
    hand: list[str] = field(default_factory=list)
    faces: dict[str, Face] = field(default_factory=dict)
    seen: set[str] = field(default_factory=set)
    inner: Open | None = None


@dataclass(slots=True)
class Slotted:
    hand: list[str]


class Unknown:
    def __init__(self) -> None:
        self.cards = ["a"]


def test_mutable_parts_are_copied_and_immutable_ones_shared():
    face = Face("Fireball", ("fire",))
    at = datetime(2026, 12, 5, tzinfo=UTC)
    state: dict[str, Any] = {"open": Open(["a"], {"a": face}, {"x"}, Open(["b"])), "at": at, "list": [[1], (2, 3)]}
    copy = clone(state)
    assert copy == state
    assert copy["open"].faces["a"] is face and copy["at"] is at and copy["list"][1] is state["list"][1]
    copy["open"].hand.append("c")
    copy["open"].faces["b"] = face
    copy["open"].seen.add("y")
    copy["open"].inner.hand.clear()
    copy["list"][0].append(9)
    assert state == {"open": Open(["a"], {"a": face}, {"x"}, Open(["b"])), "at": at, "list": [[1], (2, 3)]}
    assert type(copy["open"]) is Open


def test_a_type_the_module_does_not_know_is_deep_copied_never_shared():
    for value in (Unknown(), Slotted(["a"])):
        copy = clone([value])[0]
        assert copy is not value
        copy.cards.append("b") if isinstance(copy, Unknown) else copy.hand.append("b")
        assert (value.cards if isinstance(value, Unknown) else value.hand) == ["a"]


def test_the_state_itself_may_be_any_type():
    assert clone("a") == "a"
    state = Open(["a"])
    assert clone(state) == state and clone(state) is not state

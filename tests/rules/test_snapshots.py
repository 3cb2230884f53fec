"""The engine's state snapshots, without a database (rules/snapshots.py, issue 24)."""

from __future__ import annotations

import datetime as dt

import pytest

from rules import snapshots
from rules.cards import CardFace, CounterRule, face_to_dict
from rules.clone import Shared
from rules.duel import state as engine

T0 = dt.datetime(2026, 12, 5, 20, 0, tzinfo=dt.UTC)
BALL = CardFace(1, "Ball", "attack", "heavily_wounded", tags=("fire",))
SHIELD = CardFace(2, "Shield", "defence")


@pytest.fixture(autouse=True)
def no_database(monkeypatch):
    """A process that knows no snapshot and has nowhere to read one."""
    snapshots.forget()
    monkeypatch.setattr(snapshots, "_resolver", None)


def _situation(cards: dict[str, CardFace]) -> engine.Situation:
    rules = (CounterRule(2, None, "fire", "parried"), CounterRule(2, 1, None, "softened"))
    return engine.Situation(settings=engine.Settings(), counters=rules, opened_at=T0, cards=Shared(cards))


def test_a_key_is_the_content_whatever_the_order_of_its_keys():
    assert snapshots.key_of({"a": 1, "b": [1, 2]}) == snapshots.key_of({"b": [1, 2], "a": 1})
    assert snapshots.key_of([1, 2]) != snapshots.key_of([2, 1])


def test_CR2_a_state_round_trips_and_names_its_rules_and_faces():
    s = _situation({"1:1:1": BALL, "2:2:1": SHIELD, "2:1:1": BALL})
    d = engine.to_dict(s)
    assert snapshots.refs(d) == {d["counters"]["snapshot"], d["faces"]["snapshot"]}
    assert d["cards"] == {"1:1:1": 0, "2:2:1": 1, "2:1:1": 0}  # the faces once each
    assert engine.from_dict(d) == s


def test_the_faces_snapshot_depends_on_which_faces_there_are_not_on_the_order_of_the_cards():
    one = engine.to_dict(_situation({"a": BALL, "b": SHIELD}))
    two = engine.to_dict(
        _situation({"b": SHIELD, "a": CardFace(1, "Ball", "attack", "heavily_wounded", tags=("fire",))})
    )
    assert one["faces"] == two["faces"]
    three = engine.to_dict(_situation({"a": BALL}))
    assert three["faces"] != one["faces"]


def test_an_unknown_snapshot_is_refused_and_one_carried_with_its_data_reads():
    d = engine.to_dict(_situation({"a": BALL}))
    carried = snapshots.inlined(d)
    snapshots.forget()
    with pytest.raises(snapshots.UnknownSnapshot):
        engine.from_dict(d)
    assert engine.from_dict(carried) == _situation({"a": BALL})
    wrong = {**carried, "faces": {**carried["faces"], "data": [face_to_dict(SHIELD)]}}
    snapshots.forget()
    with pytest.raises(snapshots.UnknownSnapshot):
        engine.from_dict(wrong)


def test_a_state_written_before_snapshots_reads_as_it_was():
    s = _situation({"a": BALL, "b": SHIELD})
    d = engine.to_dict(s)
    old = {
        **d,
        "counters": snapshots.data(d["counters"]),
        "cards": {"a": face_to_dict(BALL), "b": face_to_dict(SHIELD)},
    }
    del old["faces"]
    snapshots.forget()
    assert engine.from_dict(old) == s
    assert engine.to_dict(engine.from_dict(old)) == d

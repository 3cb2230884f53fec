"""Edges of the magic phase that a sampled mutation run found untested (issue 25, docs/testing.md)."""

from __future__ import annotations

import pytest

import rules.mass as magic
from rules.errors import RuleError
from tests.rules.mass.kit import edge_battle, edge_ready, edge_run


@pytest.mark.parametrize("dice", [None, (), (4,), (4, 5, 6)])
def test_M4_an_initiative_roll_is_one_die_for_each_side(dice):
    state = edge_battle()
    before = magic.to_dict(state)
    with pytest.raises(RuleError) as caught:
        magic.apply(state, magic.RollInitiative(magic.REFEREE, dice))
    assert caught.value.rule_id == "M4" and "one die" in caught.value.message
    assert magic.to_dict(state) == before


@pytest.mark.parametrize(
    ("points", "use"),
    [
        (1, magic.DIES),
        (2, magic.DRAW),
        (3, magic.RETURNS),
        (4, magic.MAY_DRAW),
        (5, magic.MAY_DRAW),
        (6, magic.MAY_DRAW),
    ],
)
def test_M5_what_each_number_of_magic_points_does(points, use):
    """The pages ask the engine (``points_use``); every die face has its one answer."""
    assert magic.points_use(points) == use


def test_M6_a_card_carried_out_by_an_unknown_side_is_refused_as_such():
    state = edge_run(edge_ready(edge_battle(), 2, 1), magic.UsePoints("a"))
    assert state.pending is not None
    with pytest.raises(RuleError) as caught:
        magic.apply(state, magic.CarryOut("c", targets=()))
    assert caught.value.rule_id == "INPUT" and caught.value.message == "Unknown side."


def test_M5_a_side_uses_its_magic_points_once_a_cycle():
    state = edge_run(edge_ready(edge_battle(), 5, 1), magic.UsePoints("a", take=False))  # 5: a draw declined
    with pytest.raises(RuleError) as caught:
        magic.apply(state, magic.UsePoints("a", take=False))
    assert caught.value.rule_id == "M5" and "already used" in caught.value.message


def test_M5_a_warrior_moved_by_magic_points_is_announced_with_where_from_and_where_to():
    """The log's line comes from this event: with 1 point side a's wounded archer dies (from the hospital)."""
    state = edge_ready(edge_battle(), 1, 2)
    events = [e.to_dict() for e in magic.apply(state, magic.UsePoints("a", warrior="1"))[1]]
    moved = [e for e in events if e["type"] == "mass_warrior_moved"]
    assert moved == [
        {"type": "mass_warrior_moved", "warrior": "1", "side": "a", "old": "hospital", "new": "dead", "by": "points"}
    ]


def test_every_mass_command_s_dict_is_plain_json_data():
    """The log stores ``command_to_dict`` as JSON: what it gives must equal what JSON gives back."""
    import json

    for command in (
        magic.RollInitiative(magic.REFEREE, (4, 5)),
        magic.CarryOut("a", targets=("3", "4")),
        magic.ShuffleDecks(order=None),
    ):
        data = magic.command_to_dict(command)
        assert json.loads(json.dumps(data)) == data
        assert magic.command_from_dict(data) == command

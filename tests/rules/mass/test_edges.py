"""Edges of the magic phase that a sampled mutation run found untested (issue 25, docs/testing.md)."""

from __future__ import annotations

import pytest

import rules.mass as magic
from rules.errors import RuleError
from tests.rules.mass.kit import edge_battle


@pytest.mark.parametrize("dice", [None, (), (4,), (4, 5, 6)])
def test_M4_an_initiative_roll_is_one_die_for_each_side(dice):
    state = edge_battle()
    before = magic.to_dict(state)
    with pytest.raises(RuleError) as caught:
        magic.apply(state, magic.RollInitiative(magic.REFEREE, dice))
    assert caught.value.rule_id == "M4" and "one die" in caught.value.message
    assert magic.to_dict(state) == before

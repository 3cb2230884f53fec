"""The magic phase of a mass battle in the pure engine (rules/magic): M1-M7.

These tests feed the deck order and the dice in directly, as the services do
after choosing them. That the server itself rolls and shuffles, and logs both
(M8), is checked through the services in tests/services/test_mass_battle.py
and test_mass_chance.py, not here.
"""

import pytest

import rules.mass as magic
from rules.errors import RuleError

CARDS = [
    magic.MagicFace("20.1", 20, 2, "fire"),
    magic.MagicFace("21.1", 21, 2, "wind", negative=False, keepable=True),
    magic.MagicFace("40.1", 40, 4, "earth"),
    magic.MagicFace("50.1", 50, 5, "universal", negative=False, keepable=True),
    magic.MagicFace("60.1", 60, 6, "water"),
    magic.MagicFace("61.1", 61, 6, "fire", negative=False),
]
ORDER = ((2, ("21.1", "20.1")), (4, ("40.1",)), (5, ("50.1",)), (6, ("60.1", "61.1")))
WARRIORS = [
    magic.Warrior("1", "a", "archer", protections=("fire",), place="hospital"),
    magic.Warrior("2", "a", "knight", protections=("fire",)),
    magic.Warrior("3", "b", "pikeman"),
]


def battle(cards=CARDS, order=ORDER):
    state = magic.open_battle(magic.MagicSettings(), cards, WARRIORS, [magic.Side("a", "Red"), magic.Side("b", "Blue")])
    state, _ = magic.apply(state, magic.ShuffleDecks(order=order))
    return state


def run(state, *commands):
    for command in commands:
        state, _ = magic.apply(state, command)
    return state


def ready(a, b, starter="a"):
    state = run(battle(), magic.RollInitiative("referee", (a, b)))
    return run(state, magic.ChooseStarter(state.winner, starts=state.winner == starter))


def refused(rule_id, state, command):
    with pytest.raises(RuleError) as caught:
        magic.apply(state, command)
    assert caught.value.rule_id == rule_id


def test_M1_each_deck_holds_exactly_its_own_cards_in_the_order_given():
    state = battle()
    assert state.decks == {2: ["21.1", "20.1"], 4: ["40.1"], 5: ["50.1"], 6: ["60.1", "61.1"]}
    fresh = magic.open_battle(magic.MagicSettings(), CARDS, WARRIORS, [magic.Side("a", "R"), magic.Side("b", "B")])
    refused("M1", fresh, magic.ShuffleDecks(order=((2, ("20.1",)), *ORDER[1:])))
    refused("M1", fresh, magic.ShuffleDecks(order=((2, ("20.1", "21.1", "40.1")), *ORDER[1:])))
    refused("M1", fresh, magic.UsePoints("a"))  # nothing before the shuffle
    refused("M1", state, magic.ShuffleDecks(order=ORDER))  # only once
    with pytest.raises(RuleError):
        magic.MagicFace("x", 1, 3, "fire")


def test_M2_five_types_of_magic():
    for kind in magic.MAGIC_TYPES:
        assert magic.MagicFace("x", 1, 2, kind).magic_type == kind
    with pytest.raises(RuleError) as caught:
        magic.MagicFace("x", 1, 2, "shadow")
    assert caught.value.rule_id == "M2"


def test_M3_protection_blocks_negative_cards_of_the_listed_types_only():
    warrior = magic.Warrior("9", "a", "sylph", protections=("wind", "fire"))
    assert warrior.protected_from(magic.MagicFace("x", 1, 2, "fire"))
    assert warrior.protected_from(magic.MagicFace("x", 1, 2, "wind"))
    assert not warrior.protected_from(magic.MagicFace("x", 1, 2, "earth"))
    assert not warrior.protected_from(magic.MagicFace("x", 1, 2, "fire", negative=False))


def test_M4_higher_roll_wins_a_tie_rolls_again_and_the_winner_chooses():
    state = run(battle(), magic.RollInitiative("referee", (3, 3)))
    assert state.winner is None and state.stage == magic.INITIATIVE
    state = run(state, magic.RollInitiative("referee", (1, 4)))
    assert state.winner == "b" and [(r.a, r.b) for r in state.rolls] == [(3, 3), (1, 4)]
    refused("M4", state, magic.ChooseStarter("a", True))
    state = run(state, magic.ChooseStarter("b", starts=False))
    assert state.order == ["a", "b"] and state.whose_turn() == "a"


def test_M5_points_one_and_three_act_on_the_chosen_wounded_warrior():
    state = ready(1, 3, starter="a")
    refused("M5", state, magic.UsePoints("a", warrior="2"))  # the knight is not wounded
    state = run(state, magic.UsePoints("a", warrior="1"))
    assert state.warriors["1"].place == "dead"


def test_M5_two_draws_a_keepable_card_that_the_side_keeps():
    state = run(ready(2, 1), magic.UsePoints("a"), magic.KeepCard("a"))
    assert state.kept_uids("a") == ["21.1"] and state.decks[2] == ["20.1"] and not state.effects


def test_M5_only_a_keepable_card_in_a_keepable_deck_may_be_kept():
    with pytest.raises(RuleError) as caught:
        magic.open_battle(
            magic.MagicSettings(keepable_decks=(2, 5)),
            [magic.MagicFace("1.1", 1, 4, "water", keepable=True)],
            [],
            [magic.Side("a", "R"), magic.Side("b", "B")],
        )
    assert caught.value.rule_id == "M5"
    state = run(ready(4, 1), magic.UsePoints("a"))
    refused("M5", state, magic.KeepCard("a"))


def test_M6_M7_a_carried_out_card_acts_one_cycle_and_goes_to_the_bottom():
    state = run(ready(6, 2), magic.UsePoints("a"), magic.CarryOut("a", target_side="b"))
    assert state.decks[6] == ["61.1", "60.1"]
    assert [(e.card_id, e.ends_cycle, e.affected) for e in state.effects] == [(60, 2, ["3"])]
    state = run(
        state, magic.EndTurn("a"), magic.UsePoints("b"), magic.CarryOut("b"), magic.EndTurn("b"), magic.NextCycle()
    )
    assert state.cycle == 2 and state.effects == []


def test_M5_the_turn_needs_the_points_used_and_no_card_pending():
    state = ready(6, 2)
    refused("M5", state, magic.EndTurn("a"))
    state = run(state, magic.UsePoints("a"))
    refused("M5", state, magic.EndTurn("a"))
    refused("M5", state, magic.UsePoints("a"))
    refused("M4", run(state, magic.CarryOut("a"), magic.EndTurn("a")), magic.NextCycle())


def test_state_round_trips_through_json():
    state = run(ready(2, 1), magic.UsePoints("a"), magic.KeepCard("a"))
    assert magic.from_dict(magic.to_dict(state)) == state

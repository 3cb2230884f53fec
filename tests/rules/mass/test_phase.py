"""The magic phase of a mass battle in the pure engine (rules/mass): M1-M7.

These tests feed the deck order and the dice in directly, as the services do
after choosing them. That the server itself rolls and shuffles, and logs both
(M8), is checked through the services in tests/services/test_mass_battle.py
and test_mass_chance.py, not here.
"""

import pytest

import rules.mass as magic
from rules import snapshots
from rules.errors import RuleError
from tests.rules.mass.kit import (
    EDGE_CARDS,
    EDGE_ORDER,
    EDGE_SIDES,
    edge_battle,
    edge_events,
    edge_ready,
    edge_refused,
    edge_run,
    edge_warriors,
)

CARDS = [
    magic.MagicFace("20.1", 20, 2, "fire"),
    magic.MagicFace("21.1", 21, 2, "wind", keepable=True),
    magic.MagicFace("40.1", 40, 4, "earth"),
    magic.MagicFace("50.1", 50, 5, "universal", keepable=True),
    magic.MagicFace("60.1", 60, 6, "water"),
    magic.MagicFace("61.1", 61, 6, "fire"),
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


def test_M3_protection_covers_every_card_of_the_listed_types_only():
    warrior = magic.Warrior("9", "a", "sylph", protections=("wind", "fire"))
    assert warrior.protected_from(magic.MagicFace("x", 1, 2, "fire"))
    assert warrior.protected_from(magic.MagicFace("x", 1, 2, "wind", keepable=True))  # a helpful card too
    assert not warrior.protected_from(magic.MagicFace("x", 1, 2, "earth"))
    # The organizer's exception, named for what it decides.
    assert not warrior.protected_from(magic.MagicFace("x", 1, 2, "fire", acts_on_protected=True))


def test_M3_a_battle_stored_before_the_rename_replays_as_it_was_played():
    """[M3] A stored card saying ``negative: false`` acted on protected warriors: it still does."""
    data = magic.to_dict(battle())
    # Stored before the rename, hence before snapshots too: the cards inline (rules/snapshots.py).
    data["cards"] = [dict(card) for card in snapshots.data(data["cards"])]
    for card in data["cards"]:
        card["negative"] = not card.pop("acts_on_protected")
    data["cards"][0]["negative"] = False
    back = magic.from_dict(data)
    uid = data["cards"][0]["uid"]
    assert back.cards[uid].acts_on_protected is True
    assert sum(face.acts_on_protected for face in back.cards.values()) == 1
    assert snapshots.data(magic.to_dict(back)["cards"])[0]["acts_on_protected"] is True


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


def test_M1_each_deck_is_shuffled_into_the_order_given_and_a_card_from_another_deck_is_refused():
    fresh = magic.open_battle(magic.MagicSettings(), EDGE_CARDS, edge_warriors(), EDGE_SIDES)
    edge_refused(
        "M1", fresh, magic.ShuffleDecks(order=((2, ("21.1", "20.1")), (4, ("50.1",)), (5, ("40.1",)), EDGE_ORDER[3]))
    )
    edge_refused("M1", fresh, magic.ShuffleDecks(order=None))
    state = edge_battle(order=((2, ("20.1", "21.1")), *EDGE_ORDER[1:]))
    assert state.decks[2] == ["20.1", "21.1"]  # the order is the server's input, top first


def test_M3_a_card_of_a_protected_type_moves_only_the_unprotected_unless_it_acts_on_protected_too():
    state = edge_ready(edge_battle(), 6, 1)
    state = edge_run(state, magic.UsePoints("a"))  # Flame (negative fire) on top of deck 6
    done = edge_events(state, magic.CarryOut("a", target_side="b", move_to="hospital"))
    state = edge_run(state, magic.CarryOut("a", target_side="b", move_to="hospital"))
    assert state.warriors["3"].place == "hospital" and state.warriors["4"].place == "field"
    carried = next(e for e in done if e["type"] == "mass_card_carried_out")
    assert carried["affected"] == ["3"] and carried["unaffected"] == ["4"]
    state = edge_run(
        state, magic.EndTurn("a"), magic.UsePoints("b", warrior="5"), magic.EndTurn("b"), magic.NextCycle()
    )
    state = edge_ready(state, 6, 1)
    state = edge_run(state, magic.UsePoints("a"))  # the fire card that acts on protected warriors too
    assert state.pending is not None and state.pending.uid == "61.1"
    state = edge_run(state, magic.CarryOut("a", targets=("2",), move_to="hospital"))
    assert state.warriors["2"].place == "hospital"  # the organizer's exception (M3)


def test_M4_the_tie_is_rolled_again_and_the_points_are_the_second_roll_and_the_loser_cannot_choose():
    state = edge_run(edge_battle(), magic.RollInitiative("referee", (5, 5)))
    edge_refused("M4", state, magic.ChooseStarter("a", starts=True))
    edge_refused("M4", state, magic.UsePoints("a"))
    state = edge_run(state, magic.RollInitiative("referee", (2, 4)))
    assert state.points == {"a": 2, "b": 4} and state.winner == "b"
    edge_refused("M4", state, magic.RollInitiative("referee", (6, 1)))  # decided: no more rolls this cycle
    edge_refused("M4", state, magic.ChooseStarter("a", starts=True))
    state = edge_run(state, magic.ChooseStarter("b", starts=False))  # the winner makes the other start
    assert state.whose_turn() == "a"


def test_M5_a_three_with_an_empty_hospital_does_nothing_and_a_warrior_of_the_other_side_is_refused():
    state = edge_ready(edge_battle(), 3, 1)
    edge_refused("M5", state, magic.UsePoints("a", warrior="5"))  # not a's own wounded
    state = edge_run(state, magic.UsePoints("a", warrior="1"))
    assert state.warriors["1"].place == "field"
    state = edge_run(state, magic.EndTurn("a"))
    # b rolled 1 and chooses which of its two wounded dies.
    state = edge_run(state, magic.UsePoints("b", warrior="6"))
    assert state.warriors["6"].place == "dead" and state.warriors["5"].place == "hospital"
    state = edge_run(state, magic.EndTurn("b"), magic.NextCycle())
    state = edge_ready(state, 3, 2)
    assert state.hospital("a") == []
    done = edge_events(state, magic.UsePoints("a"))
    assert {"type": "mass_nothing_happens", "side": "a", "points": 3, "why": "empty_hospital"} in done


def test_M5_a_two_is_mandatory_even_when_the_side_declines():
    state = edge_ready(edge_battle(), 2, 1)
    state = edge_run(state, magic.UsePoints("a", take=False))
    assert state.pending is not None and state.pending.uid == "21.1"


@pytest.mark.parametrize("points", [4, 5, 6])
def test_M5_four_five_and_six_may_be_declined_and_nothing_moves(points):
    state = edge_ready(edge_battle(), points, 1)
    decks = {d: list(cards) for d, cards in state.decks.items()}
    state = edge_run(state, magic.UsePoints("a", take=False))
    assert state.pending is None and state.decks == decks and state.effects == []
    state = edge_run(state, magic.EndTurn("a"))
    assert state.whose_turn() == "b"


def test_M5_a_keepable_card_of_deck_5_is_kept_only_when_the_event_lists_deck_5():
    state = edge_run(edge_ready(edge_battle(), 5, 1), magic.UsePoints("a"))
    state = edge_run(state, magic.KeepCard("a"))
    assert state.kept_uids("a") == ["50.1"] and state.decks[5] == []
    with pytest.raises(RuleError) as caught:
        magic.open_battle(magic.MagicSettings(keepable_decks=(2,)), EDGE_CARDS, edge_warriors(), EDGE_SIDES)
    assert caught.value.rule_id == "M5"


def test_M5_a_draw_from_a_deck_emptied_by_a_kept_card_does_nothing_and_the_phase_goes_on():
    state = edge_run(edge_ready(edge_battle(), 5, 1), magic.UsePoints("a"), magic.KeepCard("a"), magic.EndTurn("a"))
    state = edge_run(state, magic.UsePoints("b", warrior="5"), magic.EndTurn("b"), magic.NextCycle())
    state = edge_ready(state, 1, 5, starter="b")
    done = edge_events(state, magic.UsePoints("b", take=True))
    assert {"type": "mass_nothing_happens", "side": "b", "points": 5, "why": "empty_deck"} in done
    state = edge_run(state, magic.UsePoints("b", take=True), magic.EndTurn("b"))
    assert state.whose_turn() == "a"


def test_M5_M7_a_kept_card_is_used_in_a_later_cycle_in_its_own_turn_once_and_then_to_its_deck_bottom():
    state = edge_run(edge_ready(edge_battle(), 2, 1), magic.UsePoints("a"), magic.KeepCard("a"))
    edge_refused("M5", state, magic.UseKept("a", "21.1"))  # the cycle it was drawn in
    state = edge_run(state, magic.EndTurn("a"), magic.UsePoints("b", warrior="5"), magic.EndTurn("b"))
    edge_refused("M5", state, magic.UseKept("a", "21.1"))  # the phase is over: nobody's turn
    state = edge_run(state, magic.NextCycle())
    edge_refused("M5", state, magic.UseKept("a", "21.1"))  # before the initiative: no turn yet
    state = edge_ready(state, 2, 4, starter="b")
    edge_refused("M5", state, magic.UseKept("a", "21.1"))  # b's turn
    state = edge_run(state, magic.UsePoints("b", take=False), magic.EndTurn("b"))
    # a's own turn, after its points: a kept card is used in addition to them.
    state = edge_run(state, magic.UsePoints("a"), magic.CarryOut("a"))  # the fire card of deck 2
    state = edge_run(state, magic.UseKept("a", "21.1"))
    edge_refused("M5", state, magic.KeepCard("a"))  # a kept card, once used, is carried out
    state = edge_run(state, magic.CarryOut("a", target_side="a"))
    assert state.kept_uids("a") == [] and state.decks[2][-1] == "21.1"
    assert [(e.card_id, e.cycle, e.ends_cycle) for e in state.effects][-1] == (21, 2, 3)
    edge_refused("M5", state, magic.UseKept("a", "21.1"))  # used once


def test_M5_a_kept_card_is_used_in_a_later_cycles_other_phases_as_the_keepers_own_action():
    """[M5] «в любом другом ходе, во время своих действий»: in cycle 2's battle (after the magic phase), the referee
    records it as the keeper's action; still never in the cycle it was drawn, nor in the other side's magic turn."""
    state = edge_run(edge_ready(edge_battle(), 2, 1), magic.UsePoints("a"), magic.KeepCard("a"))
    state = edge_run(state, magic.EndTurn("a"), magic.UsePoints("b", warrior="5"), magic.EndTurn("b"))
    assert state.stage == magic.OVER and not magic.kept_usable(state, "a", "21.1")  # drawn in this cycle
    state = edge_run(state, magic.NextCycle())
    assert not magic.kept_usable(state, "a", "21.1")  # the initiative is being decided: nobody's action yet
    state = edge_run(state, magic.RollInitiative("referee", (1, 4)))
    assert state.stage == magic.CHOOSE and not magic.kept_usable(state, "a", "21.1")
    state = edge_run(state, magic.ChooseStarter("b", starts=True))
    edge_refused("M5", state, magic.UseKept("a", "21.1"))  # the other side's magic-phase turn
    state = edge_run(state, magic.UsePoints("b", take=False), magic.EndTurn("b"))
    state = edge_run(state, magic.UsePoints("a", warrior="1"), magic.EndTurn("a"))
    assert state.stage == magic.OVER and state.cycle == 2
    assert magic.kept_usable(state, "a", "21.1") and not magic.kept_usable(state, "b", "21.1")
    state = edge_run(state, magic.UseKept("a", "21.1"))
    edge_refused("M5", state, magic.NextCycle())  # carry it out first
    edge_refused("M5", state, magic.MoveWarrior("3", "hospital"))
    state = edge_run(state, magic.CarryOut("a", target_side="a"))
    assert state.kept_uids("a") == [] and state.decks[2][-1] == "21.1"  # M7
    assert [(e.card_id, e.cycle, e.ends_cycle) for e in state.effects][-1] == (21, 2, 3)
    assert magic.uids_everywhere(state) and sorted(magic.uids_everywhere(state)) == sorted(state.cards)


def test_M6_an_effect_from_a_kept_card_lasts_from_its_own_cycle_to_the_next():
    state = edge_run(edge_ready(edge_battle(), 2, 1), magic.UsePoints("a"), magic.KeepCard("a"), magic.EndTurn("a"))
    state = edge_run(state, magic.UsePoints("b", warrior="5"), magic.EndTurn("b"), magic.NextCycle())
    state = edge_ready(state, 4, 1)
    state = edge_run(state, magic.UseKept("a", "21.1"), magic.CarryOut("a", target_side="a"))
    assert [(e.cycle, e.ends_cycle) for e in state.effects] == [(2, 3)]
    state = edge_run(state, magic.UsePoints("a", take=False), magic.EndTurn("a"))
    state = edge_run(state, magic.UsePoints("b", warrior="6"), magic.EndTurn("b"))
    assert len(state.effects) == 1  # through the rest of cycle 2
    state = edge_run(state, magic.NextCycle())
    assert state.effects == []


@pytest.mark.parametrize("dice", [(0, 3), (3, 7), (True, 2), (-1, 4)])
def test_M8_an_entered_die_outside_one_to_six_is_refused_with_the_value_named(dice):
    error = edge_refused("M8", edge_battle(), magic.RollInitiative("referee", dice))
    assert "1 to 6" in error.text()


def test_M8_a_roll_keeps_its_source_in_the_state_and_the_event():
    state = edge_battle()
    done = edge_events(state, magic.RollInitiative("server", (4, 2)))
    state = edge_run(state, magic.RollInitiative("server", (4, 2)))
    assert state.rolls[-1].source == "server" and done[0]["source"] == "server"
    assert magic.from_dict(magic.to_dict(state)) == state


def test_M4_M5_casualties_are_recorded_only_between_magic_phases():
    """A warrior moved mid-phase would change what the other side's 1 or 3 can do (docs/mass-battle-rules.md)."""
    state = edge_battle()
    before = edge_run(state, magic.MoveWarrior("3", "hospital"))  # before the initiative roll
    assert before.warriors["3"].place == "hospital"
    choosing = edge_run(state, magic.RollInitiative("referee", (5, 2)))
    edge_refused("M4", choosing, magic.MoveWarrior("3", "hospital"))
    turns = edge_ready(state, 3, 1)
    err = edge_refused("M4", turns, magic.MoveWarrior("3", "hospital"))
    assert "between magic phases" in str(err.message)
    assert turns.warriors["3"].place == "field"  # a refusal changes nothing
    turns = edge_run(turns, magic.UsePoints("a", warrior="1"), magic.EndTurn("a"))  # 3: back from hospital
    edge_refused("M4", turns, magic.MoveWarrior("6", "field"))  # between the two turns too
    over = edge_run(turns, magic.UsePoints("b", warrior="5"), magic.EndTurn("b"))  # 1: dies in hospital
    assert over.stage == magic.OVER
    assert edge_run(over, magic.MoveWarrior("3", "dead")).warriors["3"].place == "dead"

"""The magic phase of a mass battle: rules M1-M8."""

import pytest

from rules.errors import RuleError
from rules.magic_phase import (
    MagicCard,
    PlayerSide,
    affects,
    choose_starter,
    next_cycle,
    roll_initiative,
    setup,
    use_kept_card,
    use_points,
)

CARDS = [
    MagicCard(20, 2, "fire"),
    MagicCard(21, 2, "wind", keepable=True),
    MagicCard(40, 4, "earth"),
    MagicCard(41, 4, "water", keepable=True),  # deck 4 cards are never kept (M5 reading)
    MagicCard(50, 5, "universal", keepable=True),
    MagicCard(60, 6, "water"),
    MagicCard(61, 6, "fire", negative=False),
]
ORDER = {2: [21, 20], 4: [41, 40], 5: [50], 6: [60, 61]}


def phase(hospital_red=("archer",), hospital_blue=()):
    return setup(
        CARDS,
        ORDER,
        [PlayerSide("red", hospital=list(hospital_red)), PlayerSide("blue", hospital=list(hospital_blue))],
    )


def ready(red: int, blue: int, starter: str = "red", **kwargs):
    state, _ = roll_initiative(phase(**kwargs), {"red": red, "blue": blue}, "server")
    winner = state.initiative_winner
    assert winner is not None  # red and blue never roll the same here
    return choose_starter(state, winner, starts=winner == starter)


def refused(rule_id, fn, *args, **kwargs):
    with pytest.raises(RuleError) as caught:
        fn(*args, **kwargs)
    assert caught.value.rule_id == rule_id


def test_M1_four_decks_by_the_number_on_the_back_each_in_its_shuffled_order():
    state = phase()
    assert set(state.decks) == {2, 4, 5, 6}
    assert state.decks[2] == [21, 20]
    refused("M1", setup, CARDS, {**ORDER, 2: [20]}, [PlayerSide("red"), PlayerSide("blue")])
    refused("M1", setup, CARDS, {**ORDER, 2: [20, 21, 40]}, [PlayerSide("red"), PlayerSide("blue")])
    refused("M1", MagicCard, 1, 3, "fire")


def test_M2_five_types_of_magic():
    for kind in ("universal", "wind", "earth", "water", "fire"):
        assert MagicCard(1, 2, kind).magic_type == kind
    refused("M2", MagicCard, 1, 2, "shadow")


def test_M3_protection_blocks_negative_spells_of_the_listed_types_only():
    protected = frozenset({"wind", "fire"})
    assert not affects(MagicCard(1, 2, "fire"), protected)
    assert not affects(MagicCard(2, 2, "wind"), protected)
    assert affects(MagicCard(3, 2, "universal"), protected)
    assert affects(MagicCard(4, 2, "earth"), protected)
    assert affects(MagicCard(5, 2, "fire", negative=False), protected)


def test_M4_higher_roll_wins_and_chooses_who_starts():
    state, _events = roll_initiative(phase(), {"red": 5, "blue": 2}, "server")
    assert state.initiative_winner == "red"
    refused("M4", choose_starter, state, "blue", True)
    state = choose_starter(state, "red", starts=False)
    assert state.order == ["blue", "red"]
    refused("M4", use_points, state, "red")  # blue must act first


def test_M4_a_tie_is_rolled_again():
    state, events = roll_initiative(phase(), {"red": 3, "blue": 3}, "server")
    assert state.initiative_winner is None and events[-1]["type"] == "initiative_tied"
    state, _ = roll_initiative(state, {"red": 1, "blue": 4}, "server")
    assert state.initiative_winner == "blue"
    assert [r.value for r in state.rolls] == [3, 3, 1, 4]


def test_M5_one_point_kills_a_wounded_warrior_of_the_players_choice():
    state = ready(1, 6, starter="red", hospital_red=("archer", "knight"))
    refused("M5", use_points, state, "red", warrior="nobody")
    state, _ = use_points(state, "red", warrior="knight")
    assert state.players["red"].dead == ["knight"] and state.players["red"].hospital == ["archer"]


def test_M5_one_or_three_points_with_an_empty_hospital_do_nothing():
    state = ready(3, 1, starter="red", hospital_red=())
    state, events = use_points(state, "red")
    assert events[-1]["type"] == "nothing_happens"


def test_M5_three_points_return_a_wounded_warrior_to_the_field():
    state = ready(3, 1, starter="red")
    state, _ = use_points(state, "red", warrior="archer")
    assert state.players["red"].field_ == ["archer"] and not state.players["red"].hospital


def test_M5_two_points_draw_from_deck_2_and_keep_a_see_fit_card():
    state = ready(2, 1, starter="red")
    state, _events = use_points(state, "red")
    assert state.players["red"].kept == [21]  # "use when you see fit"
    assert state.decks[2] == [20]
    assert not state.effects


def test_M5_four_five_six_points_may_decline_the_card():
    state = ready(6, 4, starter="red")
    state, events = use_points(state, "red", take_card=False)
    assert events[-1]["type"] == "card_declined" and state.decks[6] == [60, 61]
    state, _ = use_points(state, "blue")  # blue takes the deck-4 card and must carry it out
    assert [e.card_id for e in state.effects] == [41]
    assert state.players["blue"].kept == []  # deck 4 cards are never kept


def test_M5_five_points_keep_a_see_fit_card_for_a_later_turn():
    state = ready(5, 2, starter="red")
    state, _ = use_points(state, "red")
    assert state.players["red"].kept == [50]
    state, _ = use_kept_card(state, "red", 50)
    assert state.players["red"].kept == [] and [e.card_id for e in state.effects] == [50]
    refused("M5", use_kept_card, state, "red", 50)


def test_M6_an_effect_lasts_one_game_cycle():
    state = ready(6, 2, starter="red")
    state, _ = use_points(state, "red")
    assert [e.card_id for e in state.effects] == [60]
    state = next_cycle(state)
    assert state.effects == []


def test_M7_a_used_card_goes_to_the_bottom_of_its_own_deck():
    state = ready(6, 2, starter="red")
    state, _ = use_points(state, "red")
    assert state.decks[6] == [61, 60]


def test_M8_dice_are_rolled_by_the_server_or_entered_by_the_referee_and_logged():
    state, _ = roll_initiative(phase(), {"red": 4, "blue": 2}, "referee")
    assert state.rolls[0].source == "referee"
    refused("M8", roll_initiative, phase(), {"red": 7, "blue": 2}, "server")
    refused("M8", roll_initiative, phase(), {"red": 3, "blue": 2}, "guess")

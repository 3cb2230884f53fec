"""Every input of the magic phase is checked: refused with the engine's RuleError, nothing changed (issue 25).

A warrior on an unknown side or in an unknown place, a card or warrior listed
twice, sides that are not the two, a card kept from a deck that keeps none,
an unknown command, warrior, side or place: each is a refusal with its rule
id, never accepted.
"""

from __future__ import annotations

import dataclasses

import pytest

import rules.mass as magic
from rules.errors import INPUT, RuleError
from tests.rules.mass.kit import EDGE_CARDS, EDGE_SIDES, edge_battle, edge_warriors


def refused(rule_id: str, fn, *args) -> RuleError:
    with pytest.raises(RuleError) as caught:
        fn(*args)
    assert caught.value.rule_id == rule_id, caught.value
    return caught.value


def opened(warriors=None, cards=None, sides=None, settings=None) -> magic.MassBattle:
    return magic.open_battle(
        settings or magic.MagicSettings(),
        EDGE_CARDS if cards is None else cards,
        edge_warriors() if warriors is None else warriors,
        EDGE_SIDES if sides is None else sides,
    )


def test_the_real_opening_is_accepted():
    state = opened()
    assert set(state.warriors) == {w.wid for w in edge_warriors()} and set(state.sides) == {"a", "b"}


@pytest.mark.parametrize("change", [{"side": "c"}, {"side": ""}, {"place": "tavern"}, {"place": ""}])
def test_a_warrior_on_an_unknown_side_or_in_an_unknown_place_is_refused(change):
    warriors = edge_warriors()
    warriors[2] = dataclasses.replace(warriors[2], **change)
    refused(INPUT, opened, warriors)


@pytest.mark.parametrize("place", magic.WARRIOR_PLACES)
def test_a_warrior_in_any_known_place_on_either_side_is_accepted(place):
    warriors = [dataclasses.replace(w, place=place) for w in edge_warriors()]
    assert all(w.place == place for w in opened(warriors).warriors.values())


def test_a_card_or_a_warrior_listed_twice_is_refused():
    warriors = edge_warriors()
    refused(INPUT, opened, [*warriors, dataclasses.replace(warriors[0], name="twin")])
    refused(INPUT, opened, None, [*EDGE_CARDS, EDGE_CARDS[0]])


@pytest.mark.parametrize(
    "sides",
    [[EDGE_SIDES[0]], [EDGE_SIDES[1], EDGE_SIDES[0]], [*EDGE_SIDES, magic.Side("c", "Green")], []],
)
def test_M4_a_mass_battle_has_exactly_its_two_sides_in_order(sides):
    refused(INPUT, opened, None, None, sides)


def test_M5_a_card_to_keep_belongs_to_a_deck_that_keeps_cards():
    keep_six = magic.MagicFace("69.1", 69, 6, "fire", keepable=True)
    refused("M5", opened, None, [*EDGE_CARDS, keep_six])
    settings = magic.MagicSettings(keepable_decks=(2, 5, 6))
    assert "69.1" in opened(None, [*EDGE_CARDS, keep_six], None, settings).cards


def test_M1_M2_a_card_of_an_unknown_deck_or_type_and_a_setting_of_an_unknown_deck_are_refused():
    refused("M1", magic.MagicFace, "x", 1, 3, "fire")
    refused("M2", magic.MagicFace, "x", 1, 2, "lava")
    refused("M1", magic.MagicSettings, (2, 3))


def test_an_unknown_command_side_warrior_or_place_is_refused_and_changes_nothing():
    state = edge_battle()
    before = magic.to_dict(state)
    refused(INPUT, magic.apply, state, object())
    refused(INPUT, magic.apply, state, magic.MoveWarrior("nobody", magic.FIELD))
    refused(INPUT, magic.apply, state, magic.MoveWarrior("3", "tavern"))
    assert magic.to_dict(state) == before

"""[M1, M7] Printed magic decks: the referee records each card drawn from the real deck; the engine tracks the deck.

The real decks are shuffled by hand, so at the start the engine knows only which cards
each deck holds (its "shuffled part", any order). A card drawn must come from there;
a card used goes under its deck (M7) in the order used, a kept card leaves the deck.
Once the shuffled part is drawn out, the next card is the top of the known part.
"""

import pytest

import rules.mass as magic
from rules.errors import INPUT, RuleError
from tests.rules.mass.kit import EDGE_CARDS, EDGE_SIDES, edge_warriors

PRINTED = magic.MagicSettings(printed_decks=True)


def printed_battle():
    state = magic.open_battle(PRINTED, EDGE_CARDS, edge_warriors(), EDGE_SIDES)
    order = tuple((deck, tuple(uids)) for deck, uids in magic.deck_contents(state).items())
    state, _ = magic.apply(state, magic.ShuffleDecks(order=order))
    return state


def run(state, *commands):
    for command in commands:
        state, _ = magic.apply(state, command)
    return state


def refused(rule_id, state, command):
    with pytest.raises(RuleError) as caught:
        magic.apply(state, command)
    assert caught.value.rule_id == rule_id
    return caught.value


def ready(state, a, b, starter="a"):
    state = run(state, magic.RollInitiative("referee", (a, b)))
    return run(state, magic.ChooseStarter(state.winner, starts=state.winner == starter))


def test_M1_a_printed_deck_starts_all_shuffled_and_a_draw_needs_the_recorded_card():
    state = printed_battle()
    assert magic.deck_belief(state, 6) == ([60, 61], [])  # both in the shuffled part, order unknown
    state = ready(state, 6, 1)
    refused("M1", state, magic.UsePoints("a"))  # no card recorded
    wrong = refused("M1", state, magic.UsePoints("a", card=20))  # a deck 2 card, not deck 6
    assert "belongs to deck 2, not deck 6" in wrong.text()
    refused("M1", state, magic.UsePoints("a", card=999))  # no such card
    state = run(state, magic.UsePoints("a", card=61))
    assert state.pending is not None and state.pending.uid == "61.1"
    assert magic.deck_belief(state, 6) == ([60], [])


def test_M7_a_used_card_goes_under_the_deck_and_comes_up_only_after_the_shuffled_part():
    state = ready(printed_battle(), 6, 1)
    state = run(state, magic.UsePoints("a", card=61), magic.CarryOut("a"))
    assert magic.deck_belief(state, 6) == ([60], [61])  # 61 under the shuffled part
    state = run(state, magic.EndTurn("a"), magic.UsePoints("b", warrior="5"), magic.EndTurn("b"), magic.NextCycle())
    state = ready(state, 6, 1)
    error = refused("M1", state, magic.UsePoints("a", card=61))  # under the deck: not drawn yet
    assert "lies under deck 6" in error.text() and "number 60" in error.text()
    state = run(state, magic.UsePoints("a", card=60), magic.CarryOut("a"))
    assert magic.deck_belief(state, 6) == ([], [61, 60])
    state = run(state, magic.EndTurn("a"), magic.UsePoints("b", warrior="6"), magic.EndTurn("b"), magic.NextCycle())
    state = ready(state, 6, 1)
    refused("M1", state, magic.UsePoints("a", card=60))  # the known top is 61
    state = run(state, magic.UsePoints("a", card=61))
    assert state.pending is not None and state.pending.uid == "61.1"


def test_M5_a_kept_card_leaves_the_printed_deck_and_a_card_held_is_refused_as_drawn():
    state = ready(printed_battle(), 2, 1)
    state = run(state, magic.UsePoints("a", card=21), magic.KeepCard("a"))
    assert magic.deck_belief(state, 2) == ([20], [])
    state = run(state, magic.EndTurn("a"), magic.UsePoints("b", warrior="5"), magic.EndTurn("b"), magic.NextCycle())
    state = ready(state, 2, 1)
    error = refused("M1", state, magic.UsePoints("a", card=21))  # it is kept, not in the deck
    assert "kept" in error.text()


def test_M1_the_server_decks_take_no_recorded_card():
    state = magic.open_battle(magic.MagicSettings(), EDGE_CARDS, edge_warriors(), EDGE_SIDES)
    state = run(
        state, magic.ShuffleDecks(order=((2, ("20.1", "21.1")), (4, ("40.1",)), (5, ("50.1",)), (6, ("61.1", "60.1"))))
    )
    state = ready(state, 6, 1)
    refused(INPUT, state, magic.UsePoints("a", card=60))
    assert magic.deck_belief(state, 6) == ([], [61, 60])  # the server's order is known


def test_M1_printed_decks_round_trip_and_replay():
    state = ready(printed_battle(), 2, 1)
    state = run(state, magic.UsePoints("a", card=20), magic.CarryOut("a"))
    assert magic.from_dict(magic.to_dict(state)) == state
    assert sorted(magic.uids_everywhere(state)) == sorted(state.cards)

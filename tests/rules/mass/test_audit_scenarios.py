"""Audit scenarios of the magic phase (rules/mass) that no other test walks: rule interactions and edge cases.

Each test names the rule(s) it holds the engine to; the deck order and the dice are fed in as the services do.
"""

import rules.mass as magic
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


def test_M5_M6_a_card_aimed_at_a_side_with_nobody_on_the_field_is_carried_out_and_moves_nobody():
    """[M5, M6] Blue's warriors on the field fall in cycle 1's battle; in cycle 2 Red draws Flame from deck 6 ("carry
    it out at once") and the referee aims it at the whole of Blue, to hospital. Nobody of Blue is on the field: the
    card acts on nobody, but it is carried out (its effect aimed at Blue, the card under its deck, M7) - not refused
    as if the referee had forgotten to choose the warriors."""
    state = edge_ready(edge_battle(), 2, 1)
    state = edge_run(state, magic.UsePoints("a"), magic.KeepCard("a"), magic.EndTurn("a"))
    state = edge_run(state, magic.UsePoints("b", warrior="5"), magic.EndTurn("b"))
    state = edge_run(state, magic.MoveWarrior("3", "hospital"), magic.MoveWarrior("4", "dead"), magic.NextCycle())
    state = edge_run(edge_ready(state, 6, 1), magic.UsePoints("a"))  # Flame, fire, on top of deck 6
    # Tapping nobody and no side, yet sending them somewhere, is a forgotten choice: still refused.
    edge_refused("M6", state, magic.CarryOut("a", move_to="hospital"))
    done = edge_events(state, magic.CarryOut("a", target_side="b", move_to="hospital"))
    carried = next(e for e in done if e["type"] == "mass_card_carried_out")
    assert carried["target_side"] == "b" and carried["affected"] == [] and carried["unaffected"] == []
    assert not any(e["type"] == "mass_warrior_moved" for e in done)
    state = edge_run(state, magic.CarryOut("a", target_side="b", move_to="hospital"))
    assert state.pending is None and state.decks[6][-1] == "60.1"  # M7
    assert {w.wid: w.place for w in state.warriors.values() if w.side == "b"} == {
        "3": "hospital",
        "4": "dead",
        "5": "dead",
        "6": "hospital",
    }
    assert [(e.card_id, e.target_side, e.ends_cycle) for e in state.effects] == [(60, "b", 3)]  # M6


def test_M5_M7_a_deck_emptied_by_kept_cards_is_refilled_by_a_kept_card_used_in_a_later_battle():
    """[M5, M7] Deck 2 holds only two "use when you see fit" cards: Red keeps one in cycle 1, Blue the other in cycle
    2. In cycle 3 Red's 2 finds the deck empty: nothing happens and the phase goes on. Red then uses its kept card in
    cycle 3's battle (after the magic phase); carried out, it goes under deck 2, so cycle 4's 2 draws exactly it."""
    cards = [
        magic.MagicFace("21.1", 21, 2, "wind", keepable=True),
        magic.MagicFace("22.1", 22, 2, "earth", keepable=True),
        magic.MagicFace("40.1", 40, 4, "water"),
        magic.MagicFace("50.1", 50, 5, "universal", keepable=True),
        magic.MagicFace("60.1", 60, 6, "fire"),
    ]
    warriors = [magic.Warrior("1", "a", "archer"), magic.Warrior("2", "b", "pikeman")]
    state = magic.open_battle(magic.MagicSettings(), cards, warriors, [magic.Side("a", "Red"), magic.Side("b", "Blue")])
    order = ((2, ("21.1", "22.1")), (4, ("40.1",)), (5, ("50.1",)), (6, ("60.1",)))
    state = edge_run(state, magic.ShuffleDecks(order=order))
    state = edge_ready(state, 2, 1)
    state = edge_run(state, magic.UsePoints("a"), magic.KeepCard("a"), magic.EndTurn("a"))
    state = edge_run(state, magic.UsePoints("b"), magic.EndTurn("b"), magic.NextCycle())
    assert state.decks[2] == ["22.1"]  # b's 1 did nothing (an empty hospital)
    state = edge_ready(state, 1, 2, starter="b")
    state = edge_run(state, magic.UsePoints("b"), magic.KeepCard("b"), magic.EndTurn("b"))
    assert state.decks[2] == [] and state.kept_uids("b") == ["22.1"]
    state = edge_run(state, magic.UsePoints("a"), magic.EndTurn("a"), magic.NextCycle())
    state = edge_ready(state, 2, 1)
    done = edge_events(state, magic.UsePoints("a"))
    assert {"type": "mass_nothing_happens", "side": "a", "points": 2, "why": "empty_deck"} in done
    state = edge_run(state, magic.UsePoints("a"), magic.EndTurn("a"), magic.UsePoints("b"), magic.EndTurn("b"))
    assert state.stage == magic.OVER and state.cycle == 3
    state = edge_run(state, magic.UseKept("a", "21.1"), magic.CarryOut("a", target_side="a"))
    assert state.decks[2] == ["21.1"] and state.kept_uids("a") == [] and state.kept_uids("b") == ["22.1"]
    state = edge_run(state, magic.NextCycle())
    state = edge_ready(state, 1, 2, starter="b")
    state = edge_run(state, magic.UsePoints("b"))
    assert state.pending is not None and state.pending.uid == "21.1"
    assert sorted(magic.uids_everywhere(state)) == sorted(state.cards)


def test_M1_M5_a_deck_the_battle_has_no_cards_of_is_not_called_all_kept():
    """[M1, M5] The organizer left deck 4 out of this battle: Red's 4 draws nothing and the phase goes on, and the
    event says the battle has no such deck - not that all its cards are kept (which would name kept cards that do
    not exist). A printed-deck record of a card from it is refused in the same words."""
    cards = [face for face in EDGE_CARDS if face.deck != 4]
    order = tuple((deck, uids) for deck, uids in EDGE_ORDER if deck != 4)
    state = magic.open_battle(magic.MagicSettings(), cards, edge_warriors(), EDGE_SIDES)
    state = edge_ready(edge_run(state, magic.ShuffleDecks(order=(*order, (4, ())))), 4, 1)
    done = edge_events(state, magic.UsePoints("a", take=True))
    assert {"type": "mass_nothing_happens", "side": "a", "points": 4, "why": "no_deck"} in done
    state = edge_run(state, magic.UsePoints("a", take=True), magic.EndTurn("a"))
    assert state.pending is None and state.decks[4] == []
    printed = magic.open_battle(magic.MagicSettings(printed_decks=True), cards, edge_warriors(), EDGE_SIDES)
    printed = edge_ready(edge_run(printed, magic.ShuffleDecks(order=(*order, (4, ())))), 4, 1)
    error = edge_refused("M1", printed, magic.UsePoints("a", take=True, card=40))
    assert "no cards in this battle" in error.message

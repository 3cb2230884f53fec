"""Audit scenarios of the magic phase (rules/mass) that no other test walks: rule interactions and edge cases.

Each test names the rule(s) it holds the engine to; the deck order and the dice are fed in as the services do.
"""

import rules.mass as magic
from tests.rules.mass.kit import edge_battle, edge_events, edge_ready, edge_refused, edge_run


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

"""The referee's condition change in a battle's engine (rules/battle/referee.py; CR1, D9, D11, S2)."""

from __future__ import annotations

from rules import battle as B
from rules.battle import events as E
from rules.battle.referee import ChangeCondition, ConditionRecorded
from tests.rules.battle.kit import ANNA, BLADE, BORIS, GLEB, VERA, Fight


def test_D11_out_of_the_order_after_their_turn_and_before_it():
    fight = Fight().begin()  # Anna, Vera, Boris, Gleb
    fight.pass_turn()  # Vera's turn now
    fight.do(ChangeCondition(combatant=ANNA, add="paralysed", reason="a Sleep"))  # had her turn
    assert fight.state.order == [VERA, BORIS, GLEB] and fight.state.turn_of == VERA
    fight.do(ChangeCondition(combatant=GLEB, add="helpless", reason="a trap"))  # before his
    assert fight.state.order == [VERA, BORIS] and fight.state.turn_of == VERA
    fight.pass_turn()
    assert fight.state.turn_of == BORIS
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)


def test_D11_the_one_whose_turn_it_is_ends_it():
    fight = Fight().begin()
    fight.do(ChangeCondition(combatant=ANNA, add="dead", reason="a finishing blow"))
    assert fight.state.turn_of == VERA and ANNA not in fight.state.order
    assert [e.combatant for e in fight.events if isinstance(e, E.TurnEnded)] == [ANNA]


def test_D9_refused_while_an_answer_window_or_an_action_is_open_S2_no_combat_action():
    fight = Fight().begin()
    fight.attack(ANNA, BLADE, VERA)
    fight.refused("D9", ChangeCondition(combatant=VERA, add="paralysed", reason="x"))
    fight.refused("D9", ChangeCondition(combatant=ANNA, add="paralysed", reason="x"))
    before = fight.state.last_action_at
    fight.tick(5).do(ChangeCondition(combatant=BORIS, add="lightly_wounded", reason="a stone"))
    assert fight.state.last_action_at == before  # not a combat action: the idle gap runs on
    recorded = [e for e in fight.events if isinstance(e, ConditionRecorded)]
    assert [(e.combatant, e.old, e.new, e.reason) for e in recorded] == [(BORIS, "fit", "lightly_wounded", "a stone")]


def test_CR1_no_reason_or_no_such_combatant_is_refused():
    fight = Fight().begin()
    fight.refused("CR1", ChangeCondition(combatant=VERA, add="paralysed", reason=" "))
    fight.refused("INPUT", ChangeCondition(combatant=999, add="paralysed", reason="x"))

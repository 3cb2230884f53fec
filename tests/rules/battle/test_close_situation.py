"""[S2, IA6] The referee closes a battle's open situation for a new fight that takes it on."""

from __future__ import annotations

from rules import battle as B
from rules.battle.referee import SituationTakenOn
from tests.rules.battle.kit import Fight


def test_S2_only_a_battle_over_within_its_gap_can_be_closed_for_a_new_fight():
    fight = Fight().begin()
    fight.refused("S2", B.CloseSituation(reason="a new fight"))  # still going on: end it first
    fight.do(B.EndBattle(reason="dusk"))
    last = fight.state.last_action_at
    fight.refused("INPUT", B.CloseSituation(reason="  "))  # a reason, as every referee's end
    events = fight.do(B.CloseSituation(reason="a new fight"))
    assert events == [SituationTakenOn(reason="a new fight")]
    assert fight.state.closed and fight.state.last_action_at == last  # the clock the new fight carries
    fight.refused("S2", B.CloseSituation(reason="again"))  # closed once
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)  # the log replays to the same close


def test_S2_closing_round_trips_through_the_log():
    command = B.CloseSituation(reason="a new fight")
    assert B.command_from_dict(B.command_to_dict(command)) == command

"""[S2, IA6] The battle's situation clock (issue 25 items 2 and 3).

Only combat actions restart the 3-minute clock; "next turn", a pass, a
confirm and "go on" do not. An open step holds it. A battle over leaves the
situation open until the gap after its last combat action.
"""

from rules import battle as B
from tests.rules.battle.kit import ANNA, BLADE, VERA, Fight, at


def test_S2_next_turn_and_passes_do_not_keep_a_quiet_battle_alive():
    fight = Fight().begin()
    fight.attack(ANNA, BLADE, VERA)
    fight.answer(VERA)  # the last combat action: the answer at 0 s
    fight.tick(170)
    fight.next_turn()
    fight.tick(5)
    fight.do(B.Act(actor=VERA, act=B.PASS))
    fight.tick(1)
    fight.next_turn()
    assert fight.state.last_action_at == at(0)
    fight.tick(14)  # 190 s
    fight.expire()
    assert fight.state.ended and fight.state.closed and fight.state.closed_at == at(180)


def test_S2_an_attack_restarts_the_clock_and_an_open_step_holds_it():
    fight = Fight().begin()
    fight.tick(100)
    fight.attack(ANNA, BLADE, VERA)
    assert fight.state.last_action_at == at(100)
    assert B.gap_deadline(fight.state) is None  # the open step holds the situation
    fight.tick(10)
    fight.answer(VERA)
    assert B.gap_deadline(fight.state) == at(290)


def test_S2_exactly_at_the_gap_the_situation_lasts_a_moment_later_it_is_over():
    fight = Fight().begin()
    fight.attack(ANNA, BLADE, VERA)
    fight.answer(VERA)
    fight.do(B.EndBattle(reason="the watch"))
    assert fight.state.ended and not fight.state.closed
    fight.tick(180)
    fight.expire()
    assert not fight.state.closed
    fight.t += 0.001
    fight.expire()
    assert fight.state.closed and fight.state.closed_at == at(180)
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)


def test_S2_a_battle_over_refuses_every_command_but_stays_open():
    fight = Fight().begin()
    fight.do(B.EndBattle(reason="the watch"))
    fight.refused("S2", B.NextTurn())
    assert B.next_deadline(fight.state) is not None and not fight.state.closed


def test_S2_IA6_a_battle_opened_from_a_duel_carries_the_clock_and_the_instant_attack():
    opened = B.open_battle(B.BattleSettings(), [], at(50), last_action_at=at(5), instant_attack_used=True)
    assert opened.instant_attack_used and opened.last_action_at == at(5)
    again = B.from_dict(B.to_dict(opened))
    assert again == opened


def test_S2_a_state_saved_before_the_open_situation_reads_ended_as_closed():
    fight = Fight().begin()
    fight.do(B.EndBattle(reason="the watch"))
    old = B.to_dict(fight.state)
    for key in ("closed", "closed_at", "instant_attack_used"):
        old.pop(key)
    read = B.from_dict(old)
    assert read.closed and read.closed_at == read.ended_at and not read.instant_attack_used

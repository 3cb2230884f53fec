"""What the battle's pages say about the audit's scenarios (tests/rules/battle/test_audit_scenarios.py)."""

from __future__ import annotations

import pytest
from django.utils.translation import override

from duels.battle.log import BattleWords
from duels.battle.presenters import present_battle
from duels.web.viewers import Viewer
from rules import PARALYSED, FighterSetup
from rules import battle as B
from rules.battle import events as E
from rules.battle.referee import ChangeCondition
from tests.rules.battle.kit import ANNA, BLADE, BORIS, GLEB, VERA, Fight


@pytest.mark.parametrize(
    ("language", "over", "why"),
    [("en", "immediate response is over", "no card for it in hand"), ("ru", "Vera", "в руке нет подходящей карты")],
)
def test_R8_the_log_says_a_waiting_response_with_no_card_left_is_over_not_that_its_actor_is_out(language, over, why):
    """[R8] A waiting response whose card was played meanwhile is lost: the log names why, in both languages,
    and does not say that its actor can no longer fight (D11's words)."""
    words = BattleWords(Fight().state, {})
    with override(language):
        line = words.line(E.ActionLost(frame=7, actor=VERA, by=None, why="no_card"))
        out = words.line(E.ActionLost(frame=7, actor=VERA, by=None, why="out"))
        other = words.line(E.ActionLost(frame=7, actor=ANNA, by=None, why="no_card"))
    assert "Vera" in line and "7" in line and over in line and why in line
    assert line != out and line != other


def test_BP4_D11_the_tablet_offers_no_strike_to_a_newcomer_put_out_before_it_but_the_turn_s_owner_acts():
    """[BP4, D11] Gleb joins by attacking and is paralysed before his blow: the tablet's turn form is
    Anna's again (the engine refuses his strike), not a form for a blow he can no longer strike."""
    fight = Fight(who=(ANNA, BORIS, VERA))
    fight.begin(order=None)
    fight.do(B.JoinBattle(FighterSetup(GLEB, "Gleb", (BLADE.face,)), "dark", (BLADE,), strike=True))
    referee = Viewer(kind="referee")
    assert present_battle(fight.state, referee).striker.id == GLEB
    fight.do(ChangeCondition(combatant=GLEB, add=PARALYSED, reason="Vera's charm"))
    view = present_battle(fight.state, referee)
    assert view.striker is None and view.turn_of.id == ANNA

"""What the battle's pages say about the audit's scenarios (tests/rules/battle/test_audit_scenarios.py)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.translation import override

from duels.battle.log import BattleWords
from duels.battle.presenters import present_battle
from duels.web.viewers import Viewer
from rules import HEAVILY_WOUNDED, PARALYSED, FighterSetup
from rules import battle as B
from rules.battle import events as E
from rules.battle.referee import ChangeCondition
from tests.rules.battle.kit import ANNA, BLADE, BORIS, GLEB, VERA, Fight
from tests.web.battle_page_kit import attack, drive


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
    striker = present_battle(fight.state, referee).striker
    assert striker is not None and striker.id == GLEB
    fight.do(ChangeCondition(combatant=GLEB, add=PARALYSED, reason="Vera's charm"))
    view = present_battle(fight.state, referee)
    assert view.striker is None and view.turn_of is not None and view.turn_of.id == ANNA


@pytest.mark.django_db
def test_BP3_the_tablet_offers_no_target_out_of_the_fight_and_an_attack_on_one_is_refused(
    as_user, referee, battle, people
):
    """[BP3, D11] Vera is heavily wounded: Anna's turn form offers Boris and Gleb as targets but not her; an
    attack naming her anyway (an old form) is refused with the rule's words and changes nothing."""
    anna, boris, vera, gleb = people
    drive(battle, referee, ChangeCondition(combatant=vera.pk, add=HEAVILY_WOUNDED, reason="a falling beam"))
    client = as_user(referee)
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert f'id="target-{gleb.pk}"' in page and f'id="target-{boris.pk}"' in page
    assert f'id="target-{vera.pk}"' not in page
    battle.refresh_from_db()
    version = battle.version
    response = attack(client, battle, anna, "Blade", vera)
    assert response.status_code == 422
    assert "can no longer fight" in response.content.decode() and "BP3" in response.content.decode()
    battle.refresh_from_db()
    assert battle.version == version

"""[IA1, IA3, IA4, IA6, BP4] The battle engine's instant strike, without the services (issue 25 item 4).

Until now only the services' tests (tests/services/test_instant_join.py) drove
``InstantStrike``, so the engine's own tests - the ones a mutation run uses -
could lose its IA1/IA6 conversion or its draw unnoticed. Gleb joins a battle
of three by attacking (BP4) and strikes Anna, who holds a Bolt and a Shield.
"""

from __future__ import annotations

import pytest

from rules import NOT_PARRIED, PARRIED, FighterSetup
from rules import battle as B
from rules.battle import events as E
from tests.rules.battle.kit import ANNA, BOLT, BORIS, GLEB, SHIELD, VERA, Fight, places


def joined(*, used: bool = False) -> Fight:
    fight = Fight(who=(ANNA, BORIS, VERA), hand=(BOLT, SHIELD)).begin(order=None)
    if used:
        fight.state.instant_attack_used = True  # IA6: the situation's instant attack came with a grown duel
        fight.opening.instant_attack_used = True
    fight.do(B.JoinBattle(FighterSetup(GLEB, "Gleb", (BOLT.face, SHIELD.face)), "dark", (BOLT, SHIELD), strike=True))
    return fight


def strike(fight: Fight, *, sight: bool = True, reach: bool = True, draw: int | None = None, **kw) -> B.InstantStrike:
    return B.InstantStrike(
        attacker=GLEB,
        victim=ANNA,
        card=fight.uid(GLEB, BOLT),
        out_of_sight=sight,
        within_reach=reach,
        draw=draw,
        **kw,
    )


def test_IA3_IA4_a_real_strike_draws_from_the_victim_s_whole_hand_and_the_drawn_card_is_compared():
    fight = joined()
    command = strike(fight, draw=1)  # Anna's hand is Bolt, Shield: the Shield
    assert B.instant_draw_size(fight.state, command) == 2
    shield = fight.uid(ANNA, SHIELD)
    events = fight.do(command)
    frame = fight.top()
    window = frame.parts[0].windows[0]
    assert frame.instant and frame.newcomer and frame.actor == GLEB and frame.targets == [ANNA]
    assert window.answered and window.answer_card == shield and window.deadline is None
    assert window.proposed == PARRIED  # the Shield parries missiles (CR2)
    drawn = next(e for e in events if isinstance(e, E.InstantCardDrawn))
    assert (drawn.card, drawn.card_id, drawn.draw, drawn.by_focus, drawn.physical) == (shield, 10, 1, False, False)
    answered = next(e for e in events if isinstance(e, E.Answered))
    assert (answered.card, answered.card_id, answered.proposed) == (shield, 10, PARRIED)
    assert fight.state.instant_attack_used and shield not in fight.state.combatants[ANNA].hand
    assert all(n == 1 for n in places(fight.state).values())
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)


def test_IA4_a_drawn_card_that_does_not_parry_is_proposed_not_parried():
    fight = joined()
    fight.do(strike(fight, draw=0))  # the Bolt: nothing against a Bolt
    assert fight.top().parts[0].windows[0].proposed == NOT_PARRIED


@pytest.mark.parametrize(("sight", "reach"), [(False, True), (True, False), (False, False)])
def test_IA1_without_surprise_the_strike_is_an_ordinary_attack_nothing_drawn(sight, reach):
    """IA1: seen by the victim, or farther than the event's distance: no surprise."""
    fight = joined()
    command = strike(fight, sight=sight, reach=reach)
    assert B.instant_draw_size(fight.state, command) == 0
    events = fight.do(command)
    assert [e.rule for e in events if isinstance(e, E.InstantConverted)] == ["IA1"]
    frame = fight.top()
    window = frame.parts[0].windows[0]
    assert not frame.instant and frame.actor == GLEB and not window.answered and window.deadline is not None
    assert not fight.state.instant_attack_used  # IA6: still the situation's to use


def test_IA6_once_the_situation_used_its_instant_attack_the_strike_is_an_ordinary_attack():
    fight = joined(used=True)
    command = strike(fight)
    assert B.instant_draw_size(fight.state, command) == 0
    fight.refused("IA3", strike(fight, draw=0))  # nothing may be drawn for an ordinary attack
    events = fight.do(command)
    assert [e.rule for e in events if isinstance(e, E.InstantConverted)] == ["IA6"]
    assert not fight.top().instant


def test_IA1_D5_in_a_grown_duel_the_strike_is_the_declarer_s_opening_action_and_only_that():
    """A duel grown by Gleb's strike: the battle begins with Gleb as declarer (D5) and his strike is its
    first action - not a newcomer's, and never again later in the battle."""
    fight = Fight(who=(ANNA, BORIS, VERA, GLEB), hand=(BOLT, SHIELD))
    fight.do(B.BeginBattle(declarer=GLEB, instant=True))
    fight.refused("IA1", B.InstantStrike(VERA, ANNA, fight.uid(VERA, BOLT), True, True, draw=0))
    fight.do(strike(fight, draw=0))
    frame = fight.top()
    assert frame.instant and not frame.newcomer and fight.state.turn_of == GLEB
    fight.do(B.ConfirmAnswer(frame=frame.number, defender=ANNA))
    fight.next_turn()
    while fight.state.turn_of != GLEB:
        fight.pass_turn()
    fight.refused("IA1", B.InstantStrike(GLEB, ANNA, fight.uid(GLEB, SHIELD), True, True, draw=0))

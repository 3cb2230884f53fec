"""Edges of the battle engine that a sampled mutation run found untested (issue 25, docs/testing.md)."""

from __future__ import annotations

from rules import HEAVILY_WOUNDED
from rules import battle as B
from rules.battle import events as E
from tests.rules.battle.kit import ANNA, BLADE, BOLT, BORIS, FIRE, GLEB, SHIELD, SNAP, VERA, ZAP, Fight, at


def _everyone_spends_their_one_attack() -> Fight:
    fight = Fight(hand=(BOLT, SHIELD)).begin()  # order: Anna, Vera, Boris, Gleb
    for attacker, defender in [(ANNA, VERA), (VERA, ANNA), (BORIS, GLEB), (GLEB, BORIS)]:
        assert fight.state.turn_of == attacker
        fight.attack(attacker, BOLT, defender)
        fight.answer(defender)
        if fight.state.phase == B.TURNS:
            fight.next_turn()
    return fight


def test_D11_D12_a_new_bout_with_no_attack_card_left_ends_the_battle_and_starts_no_round():
    fight = _everyone_spends_their_one_attack()
    assert (fight.state.phase, fight.state.round, fight.state.bout) == (B.BETWEEN_ROUNDS, 1, 1)
    events = fight.do(B.StartRound())
    assert fight.state.phase == B.ENDED and fight.state.result == B.state.NO_ATTACKS_LEFT
    # Nothing of a new round: its number, the bout, the order and the events stay as they were.
    assert (fight.state.round, fight.state.bout) == (1, 1)
    assert [type(e) for e in events] == [E.Ended]


def test_D11_a_defender_put_out_by_the_result_is_announced_out_of_the_fight():
    fight = Fight().begin()
    fight.attack(ANNA, FIRE, VERA)
    fight.answer(VERA)  # no answer: the Fireball's full effect, a heavy wound
    assert fight.state.combatants[VERA].condition == HEAVILY_WOUNDED
    out = [e for e in fight.events if isinstance(e, E.CombatantOut)]
    assert [(e.combatant, e.condition) for e in out] == [(VERA, HEAVILY_WOUNDED)]


def test_D3_a_new_arsenal_for_someone_not_in_the_battle_is_refused():
    fight = _everyone_spends_their_one_attack()
    err = fight.refused("INPUT", B.NewArsenal(combatant=99, arsenal=(BOLT,)))
    assert err.params == {"who": 99}


def test_D6_BP2_a_double_attack_shows_two_cards_not_one_card_twice():
    fight = Fight().begin()
    blade = fight.uid(ANNA, BLADE)
    err = fight.refused("D6", B.Act(actor=ANNA, act=B.ATTACK, cards=(blade, blade), targets=(VERA,)))
    assert "once" in err.message
    two = (blade, fight.uid(ANNA, BLADE, 1))
    fight.do(B.Act(actor=ANNA, act=B.ATTACK, cards=two, targets=(VERA,)))  # two Blades: BP2's double attack
    assert [p.card for p in fight.top().parts] == list(two)


def test_R6_an_interrupt_cannot_cut_into_an_action_that_waits_under_another_reaction():
    """The bolt waits for Vera's opportunity attack (R3); only the top of the stack can be interrupted."""
    fight = Fight().begin().to_round(2)
    bolt = fight.attack(ANNA, BOLT, VERA, engaged=(VERA,))
    fight.do(B.Opportunity(reactor=VERA, frame=bolt.number, card=fight.uid(VERA, SNAP)))
    assert fight.top().number != bolt.number
    zap = fight.uid(GLEB, ZAP)
    fight.refused("R6", B.Immediate(reactor=GLEB, frame=bolt.number, mode=B.INTERRUPT, card=zap, target=ANNA))
    top = fight.top()
    fight.do(B.Immediate(reactor=GLEB, frame=top.number, mode=B.INTERRUPT, card=zap, target=VERA))


def test_S2_IA6_a_battle_opened_afresh_has_no_instant_attack_used_one_grown_from_a_duel_carries_it():
    assert not B.open_battle(B.BattleSettings(), [], at(0)).instant_attack_used
    grown = B.open_battle(B.BattleSettings(), [], at(5), last_action_at=at(3), instant_attack_used=True)
    assert grown.instant_attack_used and grown.last_action_at == at(3)

"""A condition change for anyone in a running fight of any kind (CR1, D9, D11; issue 20).

One service (duels/services/conditions.py) through the kind's
``condition_command``: the change is in that fight's log and state; one who
can no longer fight leaves the turn order (D11); refused, changing nothing,
while that combatant's step is open (D9). Measured on main: a battle
combatant's change answered 500 (the service read ``state.fighters``).
"""

from __future__ import annotations

import pytest

import rules
from duels import services
from duels.models import LogEntry
from duels.services.conditions import change_condition
from events.models import Character, ConditionRecord
from rules import battle as B
from rules import duel as engine
from rules.battle.state import ONE_SIDE_LEFT
from tests.services.battle_kit import battle_state, buid, passes, top
from tests.services.kit import act

pytestmark = pytest.mark.django_db


def logged(situation) -> list[str]:
    return [entry.command.get("type") for entry in LogEntry.objects.filter(situation=situation).order_by("seq")]


def test_CR1_D11_paralysed_in_a_battle_before_their_turn_leaves_the_turn_order(battle, people, referee):
    anna, boris, vera, gleb = people
    assert battle_state(battle).order == [anna.pk, vera.pk, boris.pk, gleb.pk]
    record = change_condition(vera, add="paralysed", reason="a Sleep from the bushes", user=referee)
    st = battle_state(battle)
    assert st.combatants[vera.pk].condition == "paralysed"
    assert st.order == [anna.pk, boris.pk, gleb.pk] and st.turn_of == anna.pk  # D11: out of the order
    assert record is not None and (record.old, record.new, record.situation_id) == ("fit", "paralysed", battle.pk)
    assert logged(battle)[-1] == "change_condition"
    vera.refresh_from_db()
    assert vera.condition == "paralysed"  # the write-back follows the state
    # The turn passes over her: Anna, then Boris.
    act(battle, passes(battle_state(battle)), referee)
    act(battle, B.NextTurn(), referee)
    assert battle_state(battle).turn_of == boris.pk
    assert services.replayed(battle) == services.state_of(battle)


def test_D11_a_finishing_blow_on_the_one_whose_turn_it_is_ends_their_turn(battle, people, referee):
    anna, _boris, vera, _gleb = people
    change_condition(anna, add="dead", reason="a finishing blow after the fight at the gate", user=referee)
    st = battle_state(battle)
    assert st.turn_of == vera.pk and anna.pk not in st.order
    assert not st.ended


def test_D11_the_last_of_a_side_out_ends_the_battle(battle, people, referee):
    _anna, _boris, vera, gleb = people
    change_condition(vera, add="dead", reason="finished off", user=referee)
    change_condition(gleb, add="paralysed", reason="a Sleep", user=referee)
    st = battle_state(battle)
    assert st.ended and st.result == ONE_SIDE_LEFT


def test_D9_refused_while_the_combatant_s_answer_window_is_open(battle, people, referee):
    anna, _boris, vera, _gleb = people
    act(
        battle,
        B.Act(actor=anna.pk, act=B.ATTACK, cards=(buid(battle, anna, "Blade"),), targets=(vera.pk,)),
        referee,
    )
    assert top(battle).parts[0].windows[0].defender == vera.pk
    battle.refresh_from_db()
    before = (battle.version, battle.state, LogEntry.objects.filter(situation=battle).count())
    for who in (vera, anna):  # the defender's window, and the attacker's open action
        with pytest.raises(rules.RuleError) as refused:
            change_condition(who, add="paralysed", reason="a Sleep", user=referee)
        assert refused.value.rule_id == "D9"
    battle.refresh_from_db()
    assert (battle.version, battle.state, LogEntry.objects.filter(situation=battle).count()) == before
    assert not ConditionRecord.objects.exists()
    vera.refresh_from_db()
    assert vera.condition == "fit"


def test_CR1_a_healing_in_a_battle_brings_them_back_next_round(battle, people, referee):
    vera = people[2]
    change_condition(vera, add="paralysed", reason="a Sleep", user=referee)
    change_condition(vera, clear="paralysed", reason="the spell wore off", user=referee)
    st = battle_state(battle)
    assert st.combatants[vera.pk].condition == "fit" and vera.pk not in st.order  # this round: out
    this_round = st.round
    while battle_state(battle).phase == B.TURNS and battle_state(battle).round == this_round:
        act(battle, passes(battle_state(battle)), referee)
        act(battle, B.NextTurn(), referee)
    if battle_state(battle).phase == B.BETWEEN_ROUNDS:  # a bout's end (D3); else the bout goes on
        act(battle, B.StartRound(), referee)
    assert battle_state(battle).round == this_round + 1
    assert vera.pk in battle_state(battle).order  # next round: back, as a newcomer
    assert services.replayed(battle) == services.state_of(battle)


def test_CR1_D11_the_duel_goes_through_the_same_service(fight, armed, referee):
    """The duel's own command (rules/duel/referee.py), reached through its kind."""
    _anton, zavulon = armed
    record = change_condition(zavulon, add="dead", reason="a finishing blow", user=referee)
    fight.refresh_from_db()
    state = services.state_of(fight)
    assert record is not None and record.situation_id == fight.pk and state.fighters[zavulon.pk].condition == "dead"
    assert isinstance(state, engine.Situation) and logged(fight)[-1] == "change_condition"


def test_a_mass_battle_s_warriors_are_no_characters_so_the_change_is_the_character_s(demo_event, django_user_model):
    """A mass battle has no character among its participants (its warriors are the army's):
    a character's change is the character's alone, never a 500 (issue 20)."""
    from cards.models_mass import Army
    from tests.services.mass_kit import start

    referee = django_user_model.objects.get(username="referee")
    light, dark = Army.objects.filter(event=demo_event).order_by("name")
    start(demo_event, referee, light, dark)
    someone = Character.objects.filter(event=demo_event, situations__isnull=True).first()
    assert someone is not None
    record = change_condition(someone, add="lightly_wounded", reason="a fall", user=referee)
    assert record is not None and record.situation_id is None and record.new == "lightly_wounded"

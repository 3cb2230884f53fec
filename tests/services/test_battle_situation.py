"""[S2, IA6, D3] The end of a battle leaves the combat situation open until the gap (issue 25 item 3).

Arsenals stay frozen, the last action can still be taken back, IA6 still
counts; a duel grown into a battle carries its clock and its instant attack.
Every time is explicit: T0 plus seconds.
"""

import datetime as dt

import pytest

from cards import arsenal as arsenal_service
from cards.models import ArsenalCard
from duels import services
from duels.battle.start import grow_into_battle
from duels.models import Situation
from rules import RuleError
from rules import battle as B
from rules import duel as rules_duel
from tests.services.battle_kit import battle_state, begin, buid, top
from tests.services.kit import act, instant_attack, nonce

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def go(situation, user, command, t):
    return act(situation, command, user, now=at(t))


def blade_on(situation, user, actor, target, t):
    go(
        situation,
        user,
        B.Act(actor=actor.pk, act=B.ATTACK, cards=(buid(situation, actor, "Blade"),), targets=(target.pk,)),
        t,
    )
    frame = top(situation).number
    go(situation, user, B.AnswerAttack(frame=frame, defender=target.pk, card=None), t + 1)
    go(situation, user, B.ConfirmAnswer(frame=frame, defender=target.pk), t + 2)


def later(situation, t):
    return services.refresh(Situation.objects.get(pk=situation.pk), now=at(t))


def test_S2_D3_a_battle_over_keeps_the_situation_open_with_arsenals_frozen_until_the_gap(event, people, referee):
    anna, _boris, vera, _gleb = people
    situation = begin(event, people, referee, now=at(0))
    blade_on(situation, referee, anna, vera, 1)
    go(situation, referee, B.EndBattle(reason="the watch arrived"), 10)
    st = battle_state(situation)
    assert st.ended and not st.closed
    situation = later(situation, 20)
    assert not situation.ended
    assert services.in_active_situation(anna, now=at(20))
    with pytest.raises(RuleError):
        arsenal_service.restore_arsenal(anna)  # S2: frozen while the situation lasts
    # The gap counts from the last step (answered at 2 s, its hold over at the confirm at 3 s),
    # not from the referee's end.
    assert not later(situation, 183).ended
    situation = later(situation, 183.001)
    assert situation.ended and situation.ended_at == at(183)
    anna.refresh_from_db()
    anna.arsenal_limit = 8  # the party's whole hand
    anna.save()
    assert ArsenalCard.objects.get(character=anna, card__name_en="Blade").copies == 1
    arsenal_service.restore_arsenal(anna)
    assert ArsenalCard.objects.get(character=anna, card__name_en="Blade").copies == 2


def test_S2_the_last_action_of_a_battle_over_can_be_taken_back(event, people, referee):
    anna, _boris, vera, _gleb = people
    situation = begin(event, people, referee, now=at(0))
    blade_on(situation, referee, anna, vera, 1)
    go(situation, referee, B.EndBattle(reason="the watch arrived"), 10)
    situation.refresh_from_db()
    services.undo_last(
        situation.pk, user=referee, reason="tapped wrong", seen_version=situation.version, nonce=nonce(), now=at(20)
    )
    st = battle_state(situation)
    assert not st.ended and st.phase == B.TURNS


def test_S2_IA6_a_duel_grown_into_a_battle_carries_its_clock_and_its_instant_attack(event, people, referee):
    anna, boris, vera, _gleb = people
    blade = ArsenalCard.objects.get(character=anna, card__name_en="Blade").card
    duel = instant_attack(anna, vera, blade, referee, at(0)).situation
    st = services.state_of(Situation.objects.get(pk=duel.pk))
    assert st.instant_attack_used
    duel.refresh_from_db()
    made = grow_into_battle(
        duel, boris, declarer=boris, user=referee, seen_version=duel.version, nonce=nonce(), now=at(5)
    )
    opening = B.from_dict(made.situation.opening)
    assert opening.instant_attack_used
    assert opening.last_action_at == at(0)
    st = battle_state(made.situation)
    assert st.instant_attack_used


def test_S2_IA6_after_a_grown_battle_ends_a_second_instant_attack_in_the_gap_is_not_a_real_one(
    armed, bystander, attack_card, defence_card, referee, event, monkeypatch
):
    """Issue 25 item 3: a parried instant attack at 0 s, the duel grown into a battle at 5 s, the battle
    ended at 10 s; at 30 s the situation still lasts, so IA6 still counts: nothing is drawn, and the
    blow is an ordinary attack whose new fight takes the situation on (its clock, its IA6)."""
    from events.models import Character, Side
    from tests.services.kit import arm

    anton, zavulon = armed
    Character.objects.filter(pk=zavulon.pk).update(focus_card=defence_card)  # F1: the shield parries
    duel = instant_attack(anton, zavulon, attack_card, referee, at(0)).situation
    act(duel, rules_duel.ConfirmResult(duel=0), referee, now=at(1))
    Character.objects.filter(pk=bystander.pk).update(side=Side.DARK)
    bystander.refresh_from_db()
    arm(bystander, attack_card)
    grown = instant_attack(bystander, anton, attack_card, referee, at(5))
    battle = grown.situation
    assert battle.kind == Situation.Kind.BATTLE
    assert next(e for e in grown.events if e.type == "battle_converted").rule == "IA6"
    go(battle, referee, B.EndBattle(reason="the watch arrived"), 10)
    assert battle_state(battle).ended and not battle_state(battle).closed
    monkeypatch.setattr("secrets.randbelow", lambda n: pytest.fail("IA6: nothing may be drawn"))
    boris = Character.objects.create(event=event, name="Boris", side=Side.LIGHT)
    arm(boris, attack_card)
    second = instant_attack(boris, zavulon, attack_card, referee, at(30))
    assert next(e for e in second.events if e.type == "converted_to_aggression").rule == "IA6"
    assert battle_state(battle).closed  # taken on by the new fight, not ended by the gap
    opening = rules_duel.from_dict(second.situation.opening)
    # S2: the converted blow's open step held the situation until the referee's end at 10 s.
    assert opening.instant_attack_used and opening.last_action_at == at(10)
    # After that fight's gap (from its last combat action) the next one is real.
    monkeypatch.undo()
    act(second.situation, rules_duel.EndDuel(duel=0, reason="parted"), referee, now=at(31))
    last = services.state_of(Situation.objects.get(pk=second.situation.pk)).last_action_at
    later_t = (last - T0).total_seconds() + 181
    real = instant_attack(boris, zavulon, attack_card, referee, at(later_t))
    assert real.situation.pk not in (duel.pk, battle.pk, second.situation.pk)
    assert services.state_of(real.situation).duels[0].opened_by == rules_duel.INSTANT_ATTACK

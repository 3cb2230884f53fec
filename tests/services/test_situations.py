"""A combat situation through the services (S1, S2, D1-D12): the gap, the frozen arsenal, restoring it."""

import pytest

import rules
from cards import arsenal as arsenal_service
from duels import services
from duels.duel.log import describe
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from duels.services.conditions import change_condition
from events.models import Character
from rules import duel as engine
from tests.services import kit
from tests.services.kit import (
    act,
    arm,
    arsenal,
    assert_replays,
    at,
    instant,
    nonce,
    state,
)

pytestmark = pytest.mark.django_db
# The ``clock`` fixture stops time at the module's T0; ``at(seconds)`` counts from it.
T0 = kit.T0


def test_S2_IA5_the_arsenal_is_frozen_during_the_situation_and_restorable_once_it_ended(
    armed, referee, attack_card, defence_card, clock
):
    """IA5/S2: no rebuilding while the parried instant attack's fight goes on; restoring allowed after the gap."""
    anton, zavulon = armed
    before = arsenal(anton)
    Character.objects.filter(pk=zavulon.pk).update(focus_card=defence_card)  # F1: the shield answers
    done = instant(anton, zavulon, attack_card, referee, 0)
    act(done.situation, engine.ConfirmResult(duel=0), referee, now=at(1))
    with pytest.raises(rules.RuleError) as err:
        arsenal_service.restore_arsenal(anton)
    assert err.value.rule_id == "D3"
    act(done.situation, engine.EndDuel(duel=0, reason="they parted"), referee, now=at(5))
    clock.move_to(at(186))
    assert not services.in_active_situation(anton)
    assert arsenal(anton) != before  # one Fireball was spent
    arsenal_service.restore_arsenal(anton)
    assert arsenal(anton) == before


def test_D8_the_server_clock_decides_an_answer_at_15_s_counts_and_later_the_full_effect_is_kept(
    armed, referee, attack_card, defence_card, clock
):
    """D8: the window is the server's; at 15 s the answer counts, at 15.1 s it is refused and the timeout stays."""
    anton, zavulon = armed
    shown = declare_aggression(
        anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce(), now=at(0)
    ).situation
    shield = next(u for u in state(shown).fighters[zavulon.pk].hand if state(shown).cards[u].card_id == defence_card.pk)
    clock.move_to(at(15))
    act(shown, engine.Answer(duel=0, fighter=zavulon.pk, card=shield), referee)  # server time: 15 s
    assert state(shown).duels[0].step.proposed == rules.PARRIED
    act(shown, engine.ConfirmResult(duel=0), referee)
    # Round 1 goes on: Zavulon attacks Anton with Spark; Anton does not answer in time.
    spark = next(u for u in state(shown).fighters[zavulon.pk].hand if state(shown).cards[u].is_attack)
    act(shown, engine.Attack(duel=0, fighter=zavulon.pk, card=spark), referee)
    clock.move_to(at(30.1))
    with pytest.raises(rules.RuleError) as err:
        act(shown, engine.Answer(duel=0, fighter=anton.pk, card=None), referee)
    assert err.value.rule_id == "D8"
    st = state(shown)
    assert st.fighters[anton.pk].condition == "lightly_wounded" and st.duels[0].steps_done[-1].timed_out
    assert LogEntry.objects.filter(situation=shown, kind=LogEntry.Kind.EXPIRE).count() == 1
    assert_replays(shown)


def test_S2_D3_an_arsenal_built_at_a_round_break_is_the_one_restored_after_the_situation(
    armed, referee, attack_card, defence_card, spark, clock
):
    """S2 reading: "restore" puts back the arsenal last composed - a new one taken at a round break (D3) counts."""
    anton, zavulon = armed

    def held(who, card):
        st = state(shown)
        return next(u for u in st.fighters[who.pk].hand if st.cards[u].card_id == card.pk)

    shown = declare_aggression(
        anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce(), now=at(0)
    ).situation
    act(shown, engine.Answer(duel=0, fighter=zavulon.pk, card=held(zavulon, defence_card)), referee, now=at(1))
    act(shown, engine.ConfirmResult(duel=0), referee, now=at(2))  # parried (fire)
    act(shown, engine.Attack(duel=0, fighter=zavulon.pk, card=held(zavulon, spark)), referee, now=at(3))
    act(shown, engine.Answer(duel=0, fighter=anton.pk, card=None), referee, now=at(4))
    act(shown, engine.ConfirmResult(duel=0), referee, now=at(5))  # Anton lightly wounded, still fighting
    act(shown, engine.Attack(duel=0, fighter=anton.pk, card=held(anton, attack_card)), referee, now=at(6))
    act(shown, engine.Answer(duel=0, fighter=zavulon.pk, card=None), referee, now=at(7))
    act(shown, engine.ConfirmResult(duel=0, outcome=rules.PARRIED, reason="he ducked"), referee, now=at(8))
    assert state(shown).duels[0].phase == engine.BETWEEN_ROUNDS  # D11: no attack card left
    new = arsenal_service.next_round_arsenal(zavulon, [spark.pk])
    act(shown, engine.RoundChoice(duel=0, fighter=zavulon.pk, go_on=True, arsenal=new), referee, now=at(9))
    act(shown, engine.RoundChoice(duel=0, fighter=anton.pk, go_on=True), referee, now=at(10))
    assert state(shown).duels[0].round == 2
    act(shown, engine.EndDuel(duel=0, reason="they parted"), referee, now=at(11))
    clock.move_to(at(200))
    assert not services.in_active_situation(zavulon)
    assert_replays(shown)
    zavulon.refresh_from_db()
    assert zavulon.restorable_arsenal == [spark.pk]
    arsenal_service.restore_arsenal(zavulon)
    assert arsenal(zavulon) == {spark.pk: 1}


def test_S2_IA6_a_duel_ended_by_the_referee_does_not_keep_the_situation_alive(
    armed, referee, attack_card, defence_card, clock
):
    """The issue's example: parried at 0 s, ended at 170 s ("they parted"); at 200 s a real instant attack."""
    anton, zavulon = armed
    Character.objects.filter(pk=zavulon.pk).update(focus_card=defence_card)
    first = instant(anton, zavulon, attack_card, referee, 0).situation
    act(first, engine.ConfirmResult(duel=0), referee, now=at(0))  # Mage Shield parries (IA5)
    act(first, engine.EndDuel(duel=0, reason="they parted"), referee, now=at(170))
    clock.move_to(at(200))
    again = instant(anton, zavulon, attack_card, referee, 200)
    assert again.situation.pk != first.pk and Situation.objects.count() == 2
    assert "converted_to_aggression" not in [e.type for e in again.events]
    assert state(again.situation).duels[0].opened_by == "instant_attack"
    first.refresh_from_db()
    assert first.ended and first.ended_at == at(180)


def test_D11_a_blow_recorded_in_a_running_fight_goes_into_the_fight_and_its_log(
    armed, referee, attack_card, defence_card, clock
):
    anton, zavulon = armed
    situation = declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce(), now=at(0)).situation
    record = change_condition(zavulon, add="helpless", reason="a finishing blow", user=referee, now=at(2))
    assert record is not None and record.situation_id == situation.pk
    st = state(situation)
    assert st.fighters[zavulon.pk].condition == "helpless" and st.duels[0].result == "fighter_out"
    entry = LogEntry.objects.get(situation=situation, command__type="change_condition")
    assert entry.reason == "a finishing blow" and entry.actor == referee
    lines = describe(situation.log.select_related("actor").order_by("seq"), st)
    assert any("a finishing blow" in line for e in lines for line in e.lines)
    zavulon.refresh_from_db()
    assert zavulon.condition == "helpless"  # written back at once


def test_S2_IA6_D3_a_duel_over_leaves_the_situation_open_arsenals_frozen_undo_allowed_IA6_counted(
    armed, referee, attack_card, defence_card, bystander, clock
):
    """Issue 25 item 3 for a duel: parried at 0 s, the duel ended at 10 s. At 20 s the situation
    lasts: the arsenal cannot be restored (S2, D3), the referee takes back the end, and an
    instant attack at 30 s is an ordinary attack (IA6). After the gap the arsenal comes back."""
    anton, zavulon = armed
    arm(bystander, defence_card)
    before = arsenal(anton)
    Character.objects.filter(pk=zavulon.pk).update(focus_card=defence_card)  # F1: the shield parries
    first = instant(anton, zavulon, attack_card, referee, 0).situation
    act(first, engine.ConfirmResult(duel=0), referee, now=at(1))
    act(first, engine.EndDuel(duel=0, reason="they parted"), referee, now=at(10))
    clock.move_to(at(20))
    assert services.in_active_situation(anton)
    with pytest.raises(rules.RuleError) as frozen:
        arsenal_service.restore_arsenal(anton)
    assert frozen.value.rule_id == "D3"
    first.refresh_from_db()
    services.undo_last(
        first.pk, user=referee, reason="they fight on", seen_version=first.version, nonce=nonce(), now=at(20)
    )
    assert state(first).duels[0].phase != engine.ENDED and not state(first).ended
    act(first, engine.EndDuel(duel=0, reason="they parted after all"), referee, now=at(21))
    clock.move_to(at(30))
    second = instant(anton, bystander, attack_card, referee, 30)
    assert second.situation.pk == first.pk
    assert "converted_to_aggression" in [e.type for e in second.events]
    assert state(first).duels[1].opened_by == engine.AGGRESSION
    act(first, engine.EndDuel(duel=1, reason="Olga ran"), referee, now=at(31))
    clock.move_to(at(212))  # the open step held the clock until its end at 31 s
    assert not services.in_active_situation(anton)
    assert arsenal(anton) != before  # two Fireballs were spent
    arsenal_service.restore_arsenal(anton)
    assert arsenal(anton) == before
    assert_replays(first)

"""Audit of S, IA, F, D through the fight services: the referee's tablet path, with the server's clock.

Each test names its rule and checks that the stored state is the replay of the log.
"""

import datetime as dt

import pytest

import rules
from cards import arsenal as arsenal_service
from cards.models import Card
from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry
from events.models import Character
from rules import duel as engine
from tests.services.kit import act, arm, arsenal, assert_replays, instant_attack, nonce, record_draws, state

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def instant(attacker, victim, card, referee, t, **options):
    return instant_attack(attacker, victim, card, referee, at(t), **options)


def test_IA3_F1_a_stored_focus_on_a_card_no_longer_held_gives_a_blind_draw(
    armed, referee, attack_card, defence_card, catalogue, monkeypatch, clock
):
    """F1/IA3: the victim's focus names a card that left the arsenal: no refusal, the draw is blind."""
    anton, zavulon = armed
    ward = Card.objects.create(catalogue=catalogue, name_ru="Оберег", name_en="Ward", kind="defence")
    Character.objects.filter(pk=zavulon.pk).update(focus_card=ward)  # never in Zavulon's arsenal
    zavulon.refresh_from_db()
    sizes = record_draws(monkeypatch)
    done = instant(anton, zavulon, attack_card, referee, 0)
    step = state(done.situation).duels[0].step
    assert sizes == [2] and step.answer_by == engine.ANSWER_BY_DRAW
    assert state(done.situation).fighters[zavulon.pk].focus is None
    assert_replays(done.situation)


def test_IA6_S2_a_second_instant_attack_inside_3_minutes_converts_after_them_it_is_real(
    armed, referee, attack_card, defence_card, bystander, clock
):
    """IA6: within the gap of the first (duel parted at 10 s) another one is ordinary; after the gap, real."""
    anton, zavulon = armed
    arm(bystander, defence_card)
    Character.objects.filter(pk=zavulon.pk).update(focus_card=defence_card)  # F1: the shield answers
    first = instant(anton, zavulon, attack_card, referee, 0).situation
    act(first, engine.ConfirmResult(duel=0), referee, now=at(1))  # Mage Shield parries fire (IA5)
    act(first, engine.EndDuel(duel=0, reason="they parted"), referee, now=at(10))
    clock.move_to(at(150))
    second = instant(anton, bystander, attack_card, referee, 150)
    assert second.situation.pk == first.pk
    assert "converted_to_aggression" in [e.type for e in second.events]
    assert state(first).duels[1].opened_by == engine.AGGRESSION
    act(first, engine.EndDuel(duel=1, reason="Olga ran"), referee, now=at(151))
    # S2: from 151 s the gap runs; at 331.1 s it is over and a new situation allows a real one.
    clock.move_to(at(332))
    third = instant(anton, bystander, attack_card, referee, 332)
    assert third.situation.pk != first.pk
    assert state(third.situation).duels[0].opened_by == engine.INSTANT_ATTACK
    first.refresh_from_db()
    assert first.ended and first.ended_at == at(331)
    assert_replays(first)
    assert_replays(third.situation)


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

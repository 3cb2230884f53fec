"""Issue 9 through the fight services: S2/IA6 clock, declining to parry, an undone draw kept,
focus on a defence spell, conditions as a set and the referee's condition records.

Each test fails on the product as it was before these corrections.
"""

import datetime as dt

import pytest

import rules
from cards import arsenal as arsenal_service
from cards.models import ArsenalCard, Card
from duels import services
from duels.duel.draws import related_undone
from duels.duel.log import describe
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from duels.services.conditions import change_condition
from duels.services.export import export_situation
from events.models import Character, ConditionRecord
from rules import duel as engine
from tests.services.kit import act, arm, instant_attack, nonce, record_draws, state

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 5, 20, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def instant(anton, zavulon, card, referee, t, **options):
    return instant_attack(anton, zavulon, card, referee, at(t), **options)


def undo(situation, referee, t):
    situation.refresh_from_db()
    services.undo_last(
        situation.pk, user=referee, reason="wrong victim", seen_version=situation.version, nonce=nonce(), now=at(t)
    )


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


def test_IA3_IA7_the_victim_declines_to_parry_nothing_is_drawn_and_the_hand_stays(
    armed, referee, attack_card, spark, defence_card, monkeypatch, clock
):
    anton, zavulon = armed
    monkeypatch.setattr("secrets.randbelow", lambda n: pytest.fail("nothing may be drawn"))
    done = instant(anton, zavulon, attack_card, referee, 0, parry=False)
    entry = LogEntry.objects.get(situation=done.situation, command__type="instant_attack")
    assert entry.draw is None and [e["type"] for e in entry.events].count("parry_declined") == 1
    hand = list(state(done.situation).fighters[zavulon.pk].hand)
    act(done.situation, engine.ConfirmResult(duel=0), referee, now=at(1))
    st = state(done.situation)
    assert st.fighters[zavulon.pk].hand == hand and st.fighters[zavulon.pk].condition == "heavily_wounded"
    assert st.duels[0].result == "instant_attack_succeeded"  # IA7


def test_IA3_an_undone_instant_attack_keeps_its_draw_and_the_figures_count_it(
    armed, referee, attack_card, spark, defence_card, monkeypatch, clock
):
    anton, zavulon = armed
    calls = record_draws(monkeypatch)
    first = instant(anton, zavulon, attack_card, referee, 0).situation
    drawn = next(e for e in LogEntry.objects.get(command__type="instant_attack").events if e["type"] == "card_drawn")
    undo(first, referee, 5)
    # The same attacker on the same victim again: the undone draw's card answers, nothing new is drawn.
    clock.move_to(at(10))
    again = instant(anton, zavulon, attack_card, referee, 10)
    repeated = LogEntry.objects.get(situation=again.situation, command__type="instant_attack")
    card = next(e for e in repeated.events if e["type"] == "card_drawn")
    assert calls == [2] and card["card_id"] == drawn["card_id"]
    assert export_situation(again.situation)["figures"] == {
        "blind_draws": 1,
        "undone_draws": 0,
        "reused_draws": 1,
        "redraws": 0,
    }
    # The undone draw stays visible, and the log says the card was reused.
    lines = describe(
        again.situation.log.select_related("actor").order_by("seq"),
        state(again.situation),
        earlier=related_undone(again.situation),
    )
    assert any("the same card answers again" in line for entry in lines for line in entry.lines)
    assert LogEntry.objects.filter(situation=first, undone=True, command__type="instant_attack").exists()


def test_IA3_a_repeat_after_the_drawn_card_left_the_hand_is_a_counted_redraw(
    armed, referee, attack_card, spark, defence_card, monkeypatch, clock
):
    anton, zavulon = armed
    calls = record_draws(monkeypatch)
    first = instant(anton, zavulon, attack_card, referee, 0).situation
    drawn = next(e for e in LogEntry.objects.get(command__type="instant_attack").events if e["type"] == "card_drawn")
    undo(first, referee, 5)
    ArsenalCard.objects.filter(character=zavulon, card_id=drawn["card_id"]).delete()
    clock.move_to(at(10))
    again = instant(anton, zavulon, attack_card, referee, 10)
    assert len(calls) == 2
    assert export_situation(again.situation)["figures"]["redraws"] == 1


def test_F1_a_defence_ability_is_focused_only_if_the_event_allows_it(armed, catalogue, event):
    anton, _zavulon = armed
    dodge = Card.objects.create(
        catalogue=catalogue, name_ru="Уклонение", name_en="Dodge", kind="defence", category="ability"
    )
    arm(anton, dodge)
    with pytest.raises(rules.RuleError) as err:
        arsenal_service.set_focus(anton, dodge.pk)
    assert err.value.rule_id == "F1"
    event.focus_abilities = True
    event.save()
    anton.refresh_from_db()
    arsenal_service.set_focus(anton, dodge.pk)
    assert Character.objects.get(pk=anton.pk).focus_card_id == dodge.pk


def test_F1_IA3_a_focus_not_held_in_front_means_a_blind_draw(armed, referee, attack_card, defence_card, clock):
    anton, zavulon = armed
    Character.objects.filter(pk=zavulon.pk).update(focus_card=defence_card)
    zavulon.refresh_from_db()
    done = instant(anton, zavulon, attack_card, referee, 0, focus_held=False)
    entry = LogEntry.objects.get(situation=done.situation, command__type="instant_attack")
    card = next(e for e in entry.events if e["type"] == "card_drawn")
    assert entry.draw is not None and not card["by_focus"]
    assert state(done.situation).duels[0].step.answer_by == "draw"


def test_CR1_D11_a_heavy_wound_on_a_paralysed_character_is_kept_with_the_paralysis(armed, referee, attack_card, clock):
    _anton, zavulon = armed
    Character.objects.filter(pk=zavulon.pk).update(condition="lightly_wounded")
    zavulon.refresh_from_db()
    change_condition(zavulon, add="paralysed", reason="a Sleep from the bushes", user=referee, now=at(0))
    zavulon.refresh_from_db()
    assert zavulon.condition == "lightly_wounded+paralysed"
    assert zavulon.get_condition_display() == "lightly wounded, paralysed"
    change_condition(zavulon, clear="paralysed", reason="the spell wore off", user=referee, now=at(1))
    zavulon.refresh_from_db()
    assert zavulon.condition == "lightly_wounded"
    records = list(ConditionRecord.objects.filter(character=zavulon).order_by("at"))
    assert [(r.old, r.new, r.reason, r.actor) for r in records] == [
        ("lightly_wounded", "lightly_wounded+paralysed", "a Sleep from the bushes", referee),
        ("lightly_wounded+paralysed", "lightly_wounded", "the spell wore off", referee),
    ]


def test_D11_a_blow_recorded_in_a_running_fight_goes_into_the_fight_and_its_log(
    armed, referee, attack_card, defence_card, clock
):
    anton, zavulon = armed
    situation = declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce(), now=at(0)).situation
    record = change_condition(zavulon, add="helpless", reason="a finishing blow", user=referee, now=at(2))
    assert record.situation_id == situation.pk
    st = state(situation)
    assert st.fighters[zavulon.pk].condition == "helpless" and st.duels[0].result == "fighter_out"
    entry = LogEntry.objects.get(situation=situation, command__type="change_condition")
    assert entry.reason == "a finishing blow" and entry.actor == referee
    lines = describe(situation.log.select_related("actor").order_by("seq"), st)
    assert any("a finishing blow" in line for e in lines for line in e.lines)
    zavulon.refresh_from_db()
    assert zavulon.condition == "helpless"  # written back at once


def test_CR1_a_change_without_a_reason_is_refused_and_changes_nothing(armed, referee):
    _anton, zavulon = armed
    with pytest.raises(rules.RuleError) as err:
        change_condition(zavulon, add="dead", reason="  ", user=referee)
    assert err.value.rule_id == "CR1"
    zavulon.refresh_from_db()
    assert zavulon.condition == "fit" and not ConditionRecord.objects.exists()

"""The instant attack through the services (IA1-IA7, F1): draws, focus, conversions, with the server's clock."""

import pytest

import rules
from cards import arsenal as arsenal_service
from cards.models import ArsenalCard, Card
from duels.duel.draws import related_undone
from duels.duel.log import describe
from duels.models import LogEntry
from duels.services.export import export_situation
from events.models import Character
from rules import duel as engine
from tests.services import kit
from tests.services.kit import (
    act,
    arm,
    assert_replays,
    at,
    instant,
    record_draws,
    state,
    undo,
)

pytestmark = pytest.mark.django_db
# The ``clock`` fixture stops time at the module's T0; ``at(seconds)`` counts from it.
T0 = kit.T0


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

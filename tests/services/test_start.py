"""Starting fights through the services: the situation, the log and the cached state (S1, AG1, IA1-IA3, F1)."""

import datetime as dt
import json

import pytest

import rules
from cards.words import explain
from duels import services
from duels.duel.start import declare_aggression, start_instant_attack
from duels.models import LogEntry, Situation
from events.models import Character
from rules import duel as engine
from rules.duel.events import CardDrawn, ConvertedToAggression, ResultProposed
from tests.rules.duel.kit import first
from tests.services.kit import arm, assert_replays, event_types, kinds, nonce, record_draws, state

pytestmark = pytest.mark.django_db


def test_AG1_declaring_aggression_opens_a_situation_joins_both_and_shows_the_card(armed, referee, attack_card):
    anton, zavulon = armed
    done = declare_aggression(anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce())
    situation = done.situation
    assert not done.repeated
    assert Situation.objects.count() == 1
    assert set(situation.participants.values_list("pk", flat=True)) == {anton.pk, zavulon.pk}
    assert kinds(situation) == ["join", "join", "declare_aggression"]
    entry = LogEntry.objects.get(situation=situation, seq=2)
    assert entry.actor == referee and entry.draw is None
    # Performed.events holds every entry's events in order: two joins, then the attack.
    assert [e.to_dict() for e in done.events[-len(entry.events) :]] == entry.events
    assert done.events[0].type == "fighter_joined"
    assert situation.version == 1
    st = state(situation)
    duel = st.duels[0]
    assert (duel.opened_by, duel.phase, duel.attacker) == ("aggression", "await_answer", anton.pk)
    # D8: the answer deadline is the situation's next deadline.
    assert situation.next_deadline == duel.step.answer_deadline
    assert "attack_shown" in event_types(done)
    assert_replays(situation)


def test_AG1_spoken_declaration_needs_no_card(armed, referee):
    anton, zavulon = armed
    done = declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce())
    duel = state(done.situation).duels[0]
    assert (duel.phase, duel.attacker) == ("await_attack", anton.pk)


def test_the_opening_snapshot_keeps_event_settings_and_counter_rules(armed, referee, attack_card, defence_card):
    anton, zavulon = armed
    anton.event.answer_window_s = 7
    anton.event.save()
    situation = declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    opening = engine.from_dict(situation.opening)
    assert opening.settings.answer_window_s == 7
    assert opening.counters == (rules.CounterRule(defence_card.pk, None, "fire", "parried"),)
    # Later catalogue edits never reach a running fight.
    defence_card.counters.all().delete()
    assert engine.from_dict(Situation.objects.get().opening).counters == opening.counters


def test_IA3_the_blind_draw_is_made_by_the_service_and_recorded(armed, referee, attack_card, monkeypatch):
    anton, zavulon = armed
    drawn = record_draws(monkeypatch, lambda n: n - 1)
    done = start_instant_attack(
        anton.event, anton, zavulon, attack_card.pk, out_of_sight=True, within_reach=True, user=referee, nonce=nonce()
    )
    entry = LogEntry.objects.get(situation=done.situation, command__type="instant_attack")
    # Zavulon holds two cards: the draw chooses among two, and the log keeps the index.
    assert drawn == [2] and entry.draw == 1
    card_drawn = first(CardDrawn, done.events)
    assert card_drawn.draw == 1 and not card_drawn.by_focus
    assert card_drawn.to_dict() in entry.events
    assert state(done.situation).duels[0].phase == "await_result"
    assert_replays(done.situation)


def test_F1_a_focused_victim_answers_with_the_focus_and_nothing_is_drawn(armed, referee, attack_card, defence_card):
    anton, zavulon = armed
    zavulon.focus_card = defence_card
    zavulon.save()
    done = start_instant_attack(
        anton.event, anton, zavulon, attack_card.pk, out_of_sight=True, within_reach=True, user=referee, nonce=nonce()
    )
    entry = LogEntry.objects.get(situation=done.situation, command__type="instant_attack")
    assert entry.draw is None
    card_drawn = first(CardDrawn, done.events)
    assert card_drawn.by_focus and card_drawn.card_id == defence_card.pk
    # CR2: Mage Shield parries fire.
    assert first(ResultProposed, done.events).outcome == "parried"


def test_F1_a_stale_focus_on_a_card_no_longer_held_is_dropped_on_joining(armed, referee, spark, attack_card):
    anton, zavulon = armed
    anton.focus_card = spark  # not in Anton's arsenal
    anton.save()
    done = declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce())
    assert state(done.situation).fighters[anton.pk].focus is None


def test_IA1_a_failed_checklist_converts_to_aggression(armed, referee, attack_card):
    anton, zavulon = armed
    done = start_instant_attack(
        anton.event, anton, zavulon, attack_card.pk, out_of_sight=False, within_reach=True, user=referee, nonce=nonce()
    )
    converted = first(ConvertedToAggression, done.events)
    assert converted.rule == "IA1"
    duel = state(done.situation).duels[0]
    assert (duel.opened_by, duel.phase) == ("aggression", "await_answer")
    assert_replays(done.situation)


def test_a_repeated_start_nonce_opens_nothing_more(armed, referee, attack_card):
    anton, zavulon = armed
    token = nonce()
    first = declare_aggression(anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=token)
    again = declare_aggression(anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=token)
    assert again.repeated and again.situation.pk == first.situation.pk
    assert Situation.objects.count() == 1 and LogEntry.objects.count() == 3
    assert Situation.objects.get().version == 1


def test_a_refused_start_saves_nothing(armed, referee, attack_card):
    anton, _zavulon = armed
    with pytest.raises(rules.RuleError) as err:
        declare_aggression(anton.event, anton, anton, attack_card.pk, user=referee, nonce=nonce())
    assert err.value.rule_id == "D1"
    assert not Situation.objects.exists() and not LogEntry.objects.exists()


def test_a_card_not_in_the_attackers_arsenal_is_refused_clearly(armed, referee, spark):
    anton, zavulon = armed
    with pytest.raises(services.CardNotHeld) as err:
        declare_aggression(anton.event, anton, zavulon, spark.pk, user=referee, nonce=nonce())
    assert explain(err.value) == "Anton does not hold the card Spark."
    assert not Situation.objects.exists()


def test_characters_of_another_event_or_not_accepted_cannot_fight_here(armed, referee, other_event, attack_card):
    anton, zavulon = armed
    stranger = Character.objects.create(event=other_event, name="Stranger")
    with pytest.raises(services.NotInEvent):
        declare_aggression(anton.event, anton, stranger, None, user=referee, nonce=nonce())
    zavulon.status = Character.Status.PENDING
    zavulon.save()
    with pytest.raises(services.NotInEvent):
        declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce())
    assert not Situation.objects.exists()


def test_duels_switched_off_for_the_event_are_refused(armed, referee):
    anton, zavulon = armed
    anton.event.duels_on = False
    anton.event.save()
    with pytest.raises(services.DuelsOff):
        declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce())


def test_D1_a_third_character_cannot_attack_someone_already_in_a_duel(armed, referee, bystander, attack_card):
    anton, zavulon = armed
    first = declare_aggression(anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce())
    with pytest.raises(services.CharacterBusy) as err:
        declare_aggression(anton.event, bystander, anton, None, user=referee, nonce=nonce())
    assert err.value.params == {"name": "Anton", "other": "Zavulon"}
    # Nothing joined, nothing logged.
    assert kinds(first.situation) == ["join", "join", "declare_aggression"]
    assert bystander.situations.count() == 0


def test_D1_starting_a_fight_between_two_already_fighting_each_other_is_refused(armed, referee, attack_card):
    anton, zavulon = armed
    declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce())
    with pytest.raises(services.CharacterBusy) as err:
        declare_aggression(anton.event, zavulon, anton, None, user=referee, nonce=nonce())
    assert explain(err.value) == "Zavulon is already fighting Anton."


def test_S2_two_characters_in_different_situations_cannot_start_a_fight(armed, referee, bystander, event, spark):
    anton, zavulon = armed
    olga_rival = Character.objects.create(event=event, name="Igor")
    arm(bystander, spark)
    declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce())
    declare_aggression(event, bystander, olga_rival, None, user=referee, nonce=nonce())
    with pytest.raises(services.SeparateSituations):
        declare_aggression(event, anton, bystander, None, user=referee, nonce=nonce())


def test_S2_a_new_fight_within_the_gap_joins_the_running_situation(armed, referee, bystander, attack_card, event):
    anton, zavulon = armed
    first = declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    situation = first
    st = state(situation)
    services.perform(
        situation.pk,
        engine.EndDuel(duel=0, reason="they part"),
        user=referee,
        seen_version=Situation.objects.get().version,
        nonce=nonce(),
    )
    done = declare_aggression(event, anton, bystander, attack_card.pk, user=referee, nonce=nonce())
    assert done.situation.pk == first.pk
    assert set(done.situation.participants.values_list("pk", flat=True)) == {anton.pk, zavulon.pk, bystander.pk}
    assert len(state(done.situation).duels) == len(st.duels) + 1
    assert_replays(done.situation)


def test_in_active_situation_during_the_fight_only(armed, referee, bystander, event):
    anton, zavulon = armed
    assert not services.in_active_situation(anton)
    situation = declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    assert services.in_active_situation(anton) and services.in_active_situation(zavulon.pk)
    assert not services.in_active_situation(bystander)
    active = services.active_situation_for(anton)
    assert active is not None and active.pk == situation.pk


def test_the_log_is_json_safe(armed, referee, attack_card):
    anton, zavulon = armed
    done = start_instant_attack(
        anton.event, anton, zavulon, attack_card.pk, out_of_sight=True, within_reach=True, user=referee, nonce=nonce()
    )
    for entry in LogEntry.objects.all():
        json.dumps([entry.command, entry.events])
    assert done.situation.created_at <= dt.datetime.now(dt.UTC)

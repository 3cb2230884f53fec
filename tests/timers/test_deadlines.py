"""Deadlines kept by the server (D8, S2) with time-machine; the sweeper and the expire task."""

import datetime as dt

import pytest

import rules
from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from duels.services.timers import expire_situation, sweep_deadlines
from rules import duel as engine
from tests.services.kit import act, arm, assert_replays, kinds, nonce, state, uid

# ``shown`` (tests/conftest.py) is built at T0 with the timer requests recorded.
pytestmark = [pytest.mark.django_db, pytest.mark.real_timers, pytest.mark.usefixtures("clock", "sent")]

T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)


@pytest.fixture
def sent(monkeypatch):
    """Timer requests that reached the (fake) broker: (situation id, eta)."""
    calls = []

    def apply_async(args, eta=None, countdown=None):
        calls.append((args[0], eta, countdown))

    monkeypatch.setattr(expire_situation, "apply_async", apply_async)
    return calls


def test_D8_an_answer_at_14_9_s_is_accepted(shown, rival, referee, defence_card, clock):
    clock.shift(dt.timedelta(seconds=14.9))
    act(shown, engine.Answer(duel=0, fighter=rival.pk, card=uid(shown, rival, defence_card)), referee)
    duel = state(shown).duels[0]
    assert duel.phase == "await_result" and duel.step.answer_card is not None
    assert "expire" not in kinds(shown)


def test_D8_an_answer_at_15_1_s_is_refused_and_the_attack_takes_full_effect(shown, rival, referee, defence_card, clock):
    shield = uid(shown, rival, defence_card)
    version = Situation.objects.get(pk=shown.pk).version
    clock.shift(dt.timedelta(seconds=15.1))
    with pytest.raises(rules.RuleError) as err:
        services.perform(
            shown.pk,
            engine.Answer(duel=0, fighter=rival.pk, card=shield),
            user=referee,
            seen_version=version,
            nonce=nonce(),
        )
    assert err.value.rule_id == "D8"
    situation = Situation.objects.get(pk=shown.pk)
    # The expiry was applied and logged; the late answer was not.
    assert kinds(situation)[-1] == "expire" and situation.version == version + 1
    st = state(situation)
    record = st.duels[0].steps_done[-1]
    assert record.timed_out and record.outcome == "not_parried" and record.answer_card is None
    # CR1: Fireball in full is a heavy wound; D11: Zavulon is out, and the shield stays in hand.
    assert st.fighters[rival.pk].condition == "heavily_wounded" and shield in st.fighters[rival.pk].hand
    rival.refresh_from_db()
    assert rival.condition == "heavily_wounded"
    expired = LogEntry.objects.get(situation=situation, kind="expire")
    assert expired.at == T0 + dt.timedelta(seconds=15.1)
    assert any(e["type"] == "answer_timed_out" for e in expired.events)
    assert_replays(situation)


def test_D8_reading_the_fight_after_the_window_applies_it_without_any_command(shown, rival, clock):
    clock.shift(dt.timedelta(seconds=15, microseconds=1))
    situation = services.refresh(Situation.objects.get(pk=shown.pk))
    assert state(situation).duels[0].steps_done[-1].timed_out
    assert_replays(situation)


def test_D8_at_the_deadline_itself_the_window_is_still_open(shown, clock):
    clock.shift(dt.timedelta(seconds=15))
    situation = services.refresh(Situation.objects.get(pk=shown.pk))
    assert state(situation).duels[0].phase == "await_answer"
    assert "expire" not in kinds(situation)


def test_S2_the_situation_ends_after_the_gap_and_the_next_attack_opens_a_new_one(
    shown, character, rival, bystander, referee, spark, clock
):
    clock.shift(dt.timedelta(seconds=16))  # the answer window ran out at T0 + 15 s: the last action
    situation = services.refresh(Situation.objects.get(pk=shown.pk))
    assert situation.next_deadline == T0 + dt.timedelta(seconds=15 + 180)
    clock.move_to(T0 + dt.timedelta(seconds=15 + 180))
    assert not services.refresh(situation).ended
    clock.move_to(T0 + dt.timedelta(seconds=15 + 181))
    situation = services.refresh(situation)
    # The engine dates the end at the gap's end or when it was noticed; either is within this second.
    gap_end = T0 + dt.timedelta(seconds=15 + 180)
    assert situation.ended and situation.ended_at is not None
    assert gap_end <= situation.ended_at <= gap_end + dt.timedelta(seconds=1)
    assert state(situation).ended and state(situation).ended_at == situation.ended_at
    assert not services.in_active_situation(character)
    rival.refresh_from_db()
    assert rival.condition == "heavily_wounded"
    arm(bystander, spark)
    new = declare_aggression(character.event, bystander, character, spark.pk, user=referee, nonce=nonce()).situation
    assert new.pk != situation.pk
    assert Situation.objects.filter(ended=False).get().pk == new.pk
    assert_replays(new)


def test_S2_a_gap_that_runs_out_during_a_start_closes_the_old_situation_first(
    shown, character, rival, bystander, referee, spark, clock
):
    arm(bystander, spark)
    clock.shift(dt.timedelta(seconds=15 + 181))
    # Nobody read the fight since; the start itself applies both deadlines.
    new = declare_aggression(character.event, bystander, character, spark.pk, user=referee, nonce=nonce())
    old = Situation.objects.get(pk=shown.pk)
    assert old.ended and new.situation.pk != old.pk
    assert kinds(old)[-1] == "expire"


def test_the_sweeper_applies_overdue_deadlines_and_leaves_the_rest(shown, event, referee, bystander, spark, clock):
    from events.models import Character

    other = Character.objects.create(event=event, name="Igor")
    arm(bystander, spark)
    clock.shift(dt.timedelta(seconds=10))
    later = declare_aggression(event, bystander, other, spark.pk, user=referee, nonce=nonce()).situation
    clock.shift(dt.timedelta(seconds=6))  # T0 + 16 s: the first window is over, the second not
    assert sweep_deadlines.apply().get() == 1
    assert state(Situation.objects.get(pk=shown.pk)).duels[0].steps_done[-1].timed_out
    assert state(Situation.objects.get(pk=later.pk)).duels[0].phase == "await_answer"
    assert sweep_deadlines.apply().get() == 0


def test_the_expire_task_is_idempotent(shown, clock):
    clock.shift(dt.timedelta(seconds=16))
    expire_situation.apply(args=(shown.pk,))
    expire_situation.apply(args=(shown.pk,))
    situation = Situation.objects.get(pk=shown.pk)
    assert kinds(situation).count("expire") == 1
    assert_replays(situation)


def test_the_expire_task_does_nothing_when_the_deadline_moved(shown, rival, referee, clock):
    act(shown, engine.Answer(duel=0, fighter=rival.pk, card=None), referee)
    version = Situation.objects.get(pk=shown.pk).version
    clock.shift(dt.timedelta(seconds=16))  # the old window's timer fires
    expire_situation.apply(args=(shown.pk,))
    assert Situation.objects.get(pk=shown.pk).version == version
    expire_situation.apply(args=(424242,))  # a situation that no longer exists


def test_an_early_timer_comes_back_at_the_deadline(shown, clock, sent):
    clock.shift(dt.timedelta(seconds=14.5))
    sent.clear()
    expire_situation.run(shown.pk)
    assert sent and sent[0][0] == shown.pk and sent[0][1] > T0 + dt.timedelta(seconds=15)


def test_a_timer_is_scheduled_after_commit_for_each_new_deadline(
    armed, referee, attack_card, clock, sent, django_capture_on_commit_callbacks
):
    anton, zavulon = armed
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        situation = declare_aggression(
            anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()
        ).situation
    # One timer (the other callback publishes the new version to the polls' cache).
    assert [c.__qualname__ for c in callbacks].count("schedule_expiry.<locals>.send") == 1
    # Ids only, a moment after the deadline (expire acts once now is past it).
    assert sent == [(situation.pk, T0 + dt.timedelta(seconds=15, milliseconds=100), None)]
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        act(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=None), referee)
    # The answer closes the window; whatever the engine's next deadline is now, it gets a timer.
    situation.refresh_from_db()
    expected = engine.next_deadline(state(situation))
    assert situation.next_deadline == expected
    assert sent == ([] if expected is None else [(situation.pk, expected + dt.timedelta(milliseconds=100), None)])


def test_a_broker_that_is_down_does_not_fail_the_command(
    armed, referee, attack_card, clock, monkeypatch, django_capture_on_commit_callbacks
):
    anton, zavulon = armed

    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(expire_situation, "apply_async", down)
    with django_capture_on_commit_callbacks(execute=True):
        done = declare_aggression(anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce())
    assert Situation.objects.get(pk=done.situation.pk).version == 1


def test_S2_a_command_after_the_situation_ended_is_refused_and_saves_nothing(shown, rival, referee, clock):
    clock.shift(dt.timedelta(seconds=15 + 181))
    situation = services.refresh(Situation.objects.get(pk=shown.pk))
    assert situation.ended
    before = (situation.version, LogEntry.objects.count())
    with pytest.raises(rules.RuleError) as err:
        act(situation, engine.EndDuel(duel=0, reason="too late"), referee)
    assert err.value.rule_id == "S2"
    situation.refresh_from_db()
    assert (situation.version, LogEntry.objects.count()) == before

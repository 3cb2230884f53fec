"""The combat situation and its clocks: S1, S2, D8, F1, and expire/next_deadline."""

from rules import HEAVILY_WOUNDED, NOT_PARRIED
from rules.duel import (
    AGGRESSION,
    AWAIT_ANSWER,
    AWAIT_ATTACK,
    INSTANT_ATTACK,
    Answer,
    Attack,
    ConfirmResult,
    DeclareAggression,
    InstantAttack,
    Join,
    SetFocus,
    Settings,
    apply,
    expire,
    next_deadline,
    open_situation,
)

from .kit import ANTON, DART, FIRE, HEAL, OLGA, SHIELD, ZAVULON, Fight, at, setup, types


def two(**kw):
    return Fight(setup(ANTON, FIRE, DART, SHIELD), setup(ZAVULON, FIRE, SHIELD, HEAL), **kw)


def test_S1_instant_attack_and_aggression_open_different_kinds_of_fight():
    f = two()
    f.do(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 1), True, True), 1, draw=0)
    assert f.duel.opened_by == INSTANT_ATTACK
    g = two()
    g.do(DeclareAggression(ANTON, ZAVULON), 1)
    assert g.duel.opened_by == AGGRESSION
    assert g.duel.phase == AWAIT_ATTACK


def test_S2_situation_ends_more_than_gap_after_the_last_action():
    f = two()
    f.do(DeclareAggression(ANTON, ZAVULON), 10)
    assert next_deadline(f.state) == at(190)
    assert f.tick(190) == []  # exactly 3 minutes: not yet "more than"
    events = f.tick(190.5)
    assert types(events) == ["duel_ended", "situation_ended"]
    assert f.state.ended and f.state.ended_at == at(190)
    assert f.duel.result == "situation_ended"
    assert events[-1].conditions == {"1": "fit", "2": "fit"}
    assert next_deadline(f.state) is None


def test_S2_reading_any_combat_action_restarts_the_gap():
    f = two()
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    f.do(Attack(0, ANTON, f.uid(ANTON, 2)), 170)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 175)
    f.do(ConfirmResult(0), 179)
    assert f.state.last_action_at == at(179)
    assert f.tick(300) == []
    assert next_deadline(f.state) == at(359)


def test_S2_event_setting_changes_the_gap():
    f = two(settings=Settings(gap_s=60))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    assert types(f.tick(61))[-1] == "situation_ended"


def test_S2_an_open_step_holds_the_situation_open():
    f = two()
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    f.do(Attack(0, ANTON, f.uid(ANTON, 1)), 1)
    f.do(Answer(0, ZAVULON, None), 2)  # waiting for the referee now
    assert next_deadline(f.state) is None
    assert f.tick(3600) == []
    assert not f.state.ended
    f.do(ConfirmResult(0), 3600)
    assert next_deadline(f.state) == at(3780)


def test_S2_instant_attack_awaiting_the_referee_holds_it_open_too():
    f = two()
    f.do(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, 1), True, True), 0, draw=1)
    assert f.tick(1000) == []


def test_S2_setting_up_does_not_start_the_clock():
    f = two()
    f.do(SetFocus(ANTON, f.uid(ANTON, 10)), 5)
    assert f.state.last_action_at is None
    assert next_deadline(f.state) is None
    assert f.tick(10_000) == []
    f.do(Join(setup(OLGA, DART)), 10_000)
    assert f.state.last_action_at is None


def test_S2_a_timed_out_step_is_an_action_at_its_deadline():
    f = two()
    f.do(DeclareAggression(ANTON, ZAVULON, None), 0)
    f.do(Attack(0, ANTON, f.uid(ANTON, 1)), 100)
    events = f.tick(1000)  # one expire applies both deadlines in time order
    assert types(events)[0] == "answer_timed_out"
    assert types(events)[-1] == "situation_ended"
    assert f.state.ended_at == at(115 + 180)


def test_S2_no_command_after_the_situation_ended_a_new_one_is_opened():
    f = two()
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    f.tick(200)
    for cmd in (Attack(0, ANTON, "1:1:0"), SetFocus(ANTON, None), Join(setup(OLGA))):
        assert f.refused(cmd, 201).rule_id == "S2"
    # The next action starts a new situation, where arsenals are restored whole.
    fresh = open_situation(Settings(), [], at(201))
    fresh, _ = apply(fresh, Join(setup(ANTON, FIRE, DART, SHIELD)), at(201))
    assert len(fresh.fighters[ANTON].hand) == 3


def test_S2_a_stale_state_past_its_gap_is_refused_even_without_expire():
    f = two()
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    err = f.refused(Attack(0, ANTON, f.uid(ANTON, 1)), 181, expire_first=False)
    assert err.rule_id == "S2"


def test_D8_answer_at_14_9_seconds_is_accepted():
    f = two()
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    assert f.duel.step.answer_deadline == at(15)
    new, _ = apply(f.state, Answer(0, ZAVULON, f.uid(ZAVULON, 10)), at(14.9))
    step = new.duels[0].step
    assert step is not None and step.answered


def test_D8_answer_at_exactly_the_deadline_is_still_in_time():
    f = two()
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    apply(f.state, Answer(0, ZAVULON, None), at(15))


def test_D8_answer_at_15_1_seconds_is_refused():
    f = two()
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    err = f.refused(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 15.1, expire_first=False)
    assert err.rule_id == "D8"
    assert err.params == {"seconds": 0.1}


def test_D8_late_answer_after_expiry_was_applied_is_refused_with_D8():
    f = two()
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    err = f.refused(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 15.1)
    assert err.rule_id == "D8"


def test_D8_timed_out_attack_takes_full_effect_without_the_referee():
    f = two()
    fire = f.uid(ANTON, 1)
    f.do(DeclareAggression(ANTON, ZAVULON, fire), 0)
    events = f.tick(15.1)
    assert types(events)[:3] == ["answer_timed_out", "result_applied", "condition_changed"]
    assert f.fighter(ZAVULON).condition == HEAVILY_WOUNDED
    record = f.duel.steps_done[-1]
    assert record.timed_out and record.outcome == NOT_PARRIED and record.answer_card is None
    assert fire in f.fighter(ANTON).discards
    assert f.duel.result == "fighter_out"  # heavily wounded: D11
    assert f.state.last_action_at == at(15)


def test_D8_the_window_is_an_event_setting_and_next_deadline_reports_it():
    f = two(settings=Settings(answer_window_s=20))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 0)
    assert next_deadline(f.state) == at(20)
    assert f.tick(19.9) == []
    assert f.duel.phase == AWAIT_ANSWER


def test_expire_is_idempotent_and_leaves_its_input_alone():
    f = two()
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 0)
    before = f.state
    once, events = expire(before, at(500))
    assert events
    twice, more = expire(once, at(500))
    assert twice == once and more == []
    assert before.duels[0].phase == AWAIT_ANSWER


def test_F1_set_focus_replaces_and_none_drops():
    f = two()
    shield, heal = f.uid(ZAVULON, 10), f.uid(ZAVULON, 11)
    f.do(SetFocus(ZAVULON, shield), 0)
    assert f.fighter(ZAVULON).focus == shield
    f.do(SetFocus(ZAVULON, heal), 1)
    assert f.fighter(ZAVULON).focus == heal
    f.do(SetFocus(ZAVULON, None), 2)
    assert f.fighter(ZAVULON).focus is None


def test_F1_focus_refused_for_attack_cards_and_cards_not_in_hand():
    f = two()
    assert f.refused(SetFocus(ZAVULON, f.uid(ZAVULON, 1)), 0).rule_id == "F1"
    assert f.refused(SetFocus(ZAVULON, f.uid(ANTON, 10)), 0).rule_id == "F1"
    assert f.refused(Join(setup(OLGA, FIRE, focus=FIRE.card_id)), 0).rule_id == "F1"
    assert f.refused(Join(setup(OLGA, FIRE, focus=SHIELD.card_id)), 0).rule_id == "F1"


def test_F1_join_with_focus_and_a_played_focus_card_loses_the_focus():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, HEAL, focus=SHIELD.card_id))
    shield = f.uid(ZAVULON, 10)
    assert f.fighter(ZAVULON).focus == shield
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 1)), 0)
    f.do(Answer(0, ZAVULON, shield), 2)
    f.do(ConfirmResult(0), 3)
    assert shield in f.fighter(ZAVULON).discards
    assert f.fighter(ZAVULON).focus is None


def test_join_twice_is_refused():
    f = two()
    assert f.refused(Join(setup(ANTON)), 0).rule_id == "INPUT"

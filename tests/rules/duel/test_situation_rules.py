"""The combat situation and its clocks: S1, S2, D8, F1, and expire/next_deadline."""

from rules import (
    HEAVILY_WOUNDED,
    NOT_PARRIED,
    PARRIED,
)
from rules.duel import (
    AGGRESSION,
    AWAIT_ANSWER,
    AWAIT_ATTACK,
    AWAIT_RESULT,
    BETWEEN_ROUNDS,
    INSTANT_ATTACK,
    Answer,
    Attack,
    ConfirmResult,
    DeclareAggression,
    EndDuel,
    InstantAttack,
    Join,
    RoundChoice,
    SetFocus,
    Settings,
    apply,
    expire,
    next_deadline,
    open_situation,
    situation_deadline,
)
from tests.rules.duel.kit import (
    ANTON,
    DART,
    FIRE,
    HEAL,
    OLGA,
    SHIELD,
    WARD,
    ZAVULON,
    Fight,
    at,
    replays,
    setup,
    strike,
    strike_with,
    types,
)


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


def test_S1_the_opening_decides_who_acts_first():
    """S1: an instant attack opens with the attacker's blow; aggression with the declarer's first attack."""
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, SHIELD, DART), setup(OLGA, DART))
    strike(f, 0)
    assert f.duel.opened_by == INSTANT_ATTACK and f.duel.steps_done == [] and f.duel.phase == AWAIT_RESULT
    g = Fight(setup(ANTON, FIRE), setup(ZAVULON, DART))
    g.do(DeclareAggression(ZAVULON, ANTON), 0)
    assert g.duel.opened_by == AGGRESSION and g.duel.attacker == ZAVULON and g.duel.phase == AWAIT_ATTACK


def test_S2_the_gap_is_over_only_after_more_than_3_minutes_and_setup_never_restarts_it():
    """S2: at exactly 180 s the situation lives; focus and joining (bookkeeping) do not restart the clock."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, WARD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, None), 5)
    f.do(ConfirmResult(0), 6)  # the hold ends at 6 s
    f.do(SetFocus(ZAVULON, f.uid(ZAVULON, WARD.card_id)), 100)
    assert situation_deadline(f.state) == at(186)
    f.tick(186)
    assert not f.state.ended
    f.tick(186.1)
    assert f.state.ended and f.state.ended_at == at(186)
    replays(f)


def test_S2_a_round_break_holds_the_situation_open_and_the_clock_restarts_at_the_next_round():
    """S2 reading: between rounds the gap does not run; the next round's start restarts it."""
    f = Fight(setup(ANTON, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, SHIELD.card_id)), 5)
    f.do(ConfirmResult(0), 6)
    assert f.duel.phase == BETWEEN_ROUNDS
    f.tick(1000)
    assert not f.state.ended
    f.do(RoundChoice(0, ANTON, True, (DART,)), 1000)
    f.do(RoundChoice(0, ZAVULON, True, (SHIELD,)), 1010)
    assert f.duel.round == 2 and situation_deadline(f.state) == at(1190)
    replays(f)


def test_S2_an_unanswered_step_that_times_out_counts_at_its_deadline():
    """S2/D8: the window running out is a combat action at the deadline, not at the next poll."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, DART.card_id)), 0)
    f.tick(500)
    # D8 at 15 s, then the gap from 15 s: ended at 195 s, long before the poll at 500 s.
    assert f.state.ended and f.state.ended_at == at(195)
    assert f.duel.steps_done[-1].timed_out
    replays(f)


def test_S2_IA6_ending_a_duel_is_not_a_combat_action_so_a_later_attack_is_a_new_situation():
    """The issue's example: parried at 0 s, ended by the referee at 170 s; at 200 s the situation is over."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, WARD))
    strike_with(f, DART.card_id, 0, draw=0)  # Mage Shield
    f.do(ConfirmResult(0, PARRIED, "shield"), 0)
    f.do(EndDuel(0, "they parted"), 170)
    assert next_deadline(f.state) == at(180)
    events = f.tick(200)
    assert types(events) == ["situation_ended"] and f.state.ended_at == at(180)


def test_S2_a_round_choice_is_not_a_combat_action_but_a_round_break_holds_the_situation():
    f = Fight(setup(ANTON, DART, SHIELD), setup(ZAVULON, DART, SHIELD))
    f.do(DeclareAggression(ANTON, ZAVULON), 0)
    f.do(Attack(0, ANTON, f.uid(ANTON, 2)), 1)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 2)
    f.do(ConfirmResult(0), 3)
    f.do(Attack(0, ZAVULON, f.uid(ZAVULON, 2)), 4)
    f.do(Answer(0, ANTON, f.uid(ANTON, 10)), 5)
    f.do(ConfirmResult(0), 6)  # only defence left: the round ends
    f.do(RoundChoice(0, ANTON, False), 400)
    assert f.tick(500) == [] and f.duel.phase == "between_rounds"
    f.do(RoundChoice(0, ZAVULON, False), 600)  # the duel stops: the hold ends now
    assert next_deadline(f.state) == at(780)


def test_S2_a_late_confirmation_ends_the_hold_and_the_gap_counts_from_it():
    """A result confirmed long after the answer does not end the situation at once."""
    f = Fight(setup(ANTON, DART, DART), setup(ZAVULON, SHIELD, WARD))
    f.do(DeclareAggression(ANTON, ZAVULON, f.uid(ANTON, 2)), 0)
    f.do(Answer(0, ZAVULON, f.uid(ZAVULON, 10)), 5)
    f.do(ConfirmResult(0), 400)
    assert next_deadline(f.state) == at(580) and not f.state.ended

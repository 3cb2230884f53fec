"""IA3 "draws from real cards": the referee records the card the victim physically drew."""

from rules.duel import ANSWER_BY_REAL_CARDS, InstantAttack, Settings, draw_size_for, to_dict
from rules.duel.events import CardDrawn
from tests.rules.duel.kit import ANTON, DART, FIRE, HEAL, SHIELD, WARD, ZAVULON, Fight, first, replays, setup

PHYSICAL = Settings(physical_draws=True)


def _fight() -> Fight:
    return Fight(setup(ANTON, FIRE), setup(ZAVULON, HEAL, DART, SHIELD), settings=PHYSICAL)


def test_IA3_physical_draw_answers_with_the_recorded_card_and_logs_its_source():
    f = _fight()
    shield = f.uid(ZAVULON, SHIELD.card_id)
    cmd = InstantAttack(ANTON, ZAVULON, f.uid(ANTON, FIRE.card_id), True, True, drawn=shield)
    assert draw_size_for(f.state, cmd) == 0  # the server draws nothing
    events = f.do(cmd, 1)
    drawn = first(CardDrawn, events)
    assert drawn.card == shield and drawn.physical is True and drawn.by_focus is False
    assert f.duel.step.answer_card == shield and f.duel.step.draw == 2
    # The fight page says how the answer was chosen, from the record of the step.
    assert f.duel.step.answer_by == ANSWER_BY_REAL_CARDS
    replays(f)


def test_IA3_physical_draw_of_a_card_not_in_the_hand_is_refused_and_changes_nothing():
    f = Fight(setup(ANTON, FIRE, WARD), setup(ZAVULON, HEAL, DART), settings=PHYSICAL)
    fire = f.uid(ANTON, FIRE.card_id)
    # The attacker's card, and a uid nobody holds: neither is in the victim's hand.
    for drawn in (f.uid(ANTON, WARD.card_id), f"{ZAVULON}:99"):
        err = f.refused(InstantAttack(ANTON, ZAVULON, fire, True, True, drawn=drawn), 1)
        assert err.rule_id == "IA3"


def test_IA3_physical_draws_need_the_recorded_card():
    f = _fight()
    err = f.refused(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, FIRE.card_id), True, True), 1, draw=0)
    assert err.rule_id == "IA3"


def test_IA3_server_draw_stays_the_default_and_refuses_a_recorded_card():
    f = Fight(setup(ANTON, FIRE), setup(ZAVULON, HEAL, DART, SHIELD))
    drawn = f.uid(ZAVULON, SHIELD.card_id)
    err = f.refused(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, FIRE.card_id), True, True, drawn=drawn), 1, draw=0)
    assert err.rule_id == "IA3"
    events = f.do(InstantAttack(ANTON, ZAVULON, f.uid(ANTON, FIRE.card_id), True, True), 1, draw=0)
    assert first(CardDrawn, events).physical is False


def test_IA3_physical_setting_survives_the_state_dict():
    f = _fight()
    assert to_dict(f.state)["settings"]["physical_draws"] is True
    assert "physical_draws" not in to_dict(Fight().state)["settings"]

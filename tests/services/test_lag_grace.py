"""D8 lag grace (issue 23): an answer tapped inside the window but held by the network is accepted within the grace.

The tablet sends how long after it received the window the tap was made
(``lag_ms``, its own monotonic clock); the deadline stays the server's. Both
kinds' answer windows take the same path (duels/services/grace.py).
"""

import pytest

from duels import services
from duels.duel.log import describe
from duels.duel.start import declare_aggression
from duels.models import LogEntry
from duels.services.export import export_situation
from duels.services.kinds import kind_of
from rules import RuleError
from rules import battle as B
from rules import duel as engine
from tests.services import kit
from tests.services.battle_kit import battle_state, begin, buid, party, top
from tests.services.kit import act, assert_replays, at, state, uid

pytestmark = pytest.mark.django_db
T0 = kit.T0
TAPPED = 14_500  # ms after the tablet received the window
ARRIVES = 16.0  # s after the window opened: 1.5 s in a Wi-Fi retry


def _grace(event, ms):
    event.lag_grace_ms = ms
    event.save(update_fields=["lag_grace_ms"])


def _duel_answer(situation, zavulon, defence_card, referee, t=ARRIVES, lag_ms=TAPPED):
    command = engine.Answer(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, defence_card))
    return act(situation, command, referee, now=at(t), lag_ms=lag_ms)


def _shown(armed, referee, attack_card):
    anton, zavulon = armed
    performed = declare_aggression(
        anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=kit.nonce(), now=at(0)
    )
    return performed.situation


def test_D8_lag_grace_a_tap_at_14_5_s_held_1_5_s_is_accepted_with_grace_2_s(
    event, armed, referee, attack_card, defence_card, clock
):
    _grace(event, 2000)
    situation = _shown(armed, referee, attack_card)
    _duel_answer(situation, armed[1], defence_card, referee)
    st = state(situation)
    assert (
        st.duels[0].phase == engine.AWAIT_RESULT and st.cards[st.duels[0].step.answer_card].card_id == defence_card.pk
    )
    entry = LogEntry.objects.get(situation=situation, command__type="answer")
    grace = next(e for e in entry.events if e["type"] == "lag_grace_used")
    assert grace == {"type": "lag_grace_used", "tapped_ms": TAPPED, "late_ms": 1000, "grace_ms": 2000}
    text = " ".join(line for e in describe(situation.log.order_by("seq"), st) for line in e.lines)
    assert "14.5 s" in text and "1.0 s after the deadline" in text and "lag grace" in text
    assert export_situation(situation)["lag_grace"] == {"answers_in_grace": 1}
    assert_replays(situation)


def test_D8_lag_grace_0_the_same_tap_is_refused(event, armed, referee, attack_card, defence_card, clock):
    situation = _shown(armed, referee, attack_card)
    with pytest.raises(RuleError) as caught:
        _duel_answer(situation, armed[1], defence_card, referee)
    assert caught.value.rule_id == "D8"
    assert not LogEntry.objects.filter(situation=situation, command__type="answer").exists()


def test_D8_lag_grace_takes_back_a_timeout_the_sweep_applied_meanwhile(
    event, armed, referee, attack_card, defence_card, clock
):
    _grace(event, 2000)
    situation = _shown(armed, referee, attack_card)
    services.refresh(situation, now=at(15.2))  # a poll or the timer: the window timed out
    assert LogEntry.objects.filter(situation=situation, kind="expire", undone=False).count() == 1
    _duel_answer(situation, armed[1], defence_card, referee)
    assert state(situation).duels[0].phase == engine.AWAIT_RESULT
    assert LogEntry.objects.get(situation=situation, kind="expire").undone
    assert_replays(situation)


@pytest.mark.parametrize(
    ("t", "lag_ms"),
    [
        (17.5, TAPPED),  # arrived after the grace
        (16.0, 15_500),  # tapped after the window on the tablet's own clock
        (16.0, None),  # a tablet that sends no elapsed time: by arrival only
    ],
)
def test_D8_lag_grace_refuses_what_it_does_not_cover(
    event, armed, referee, attack_card, defence_card, clock, t, lag_ms
):
    _grace(event, 2000)
    situation = _shown(armed, referee, attack_card)
    with pytest.raises(RuleError) as caught:
        _duel_answer(situation, armed[1], defence_card, referee, t=t, lag_ms=lag_ms)
    assert caught.value.rule_id == "D8"
    assert not LogEntry.objects.filter(situation=situation, command__type="answer").exists()


def test_D8_an_answer_in_time_needs_no_grace_and_logs_none(event, armed, referee, attack_card, defence_card, clock):
    _grace(event, 2000)
    situation = _shown(armed, referee, attack_card)
    _duel_answer(situation, armed[1], defence_card, referee, t=14.0, lag_ms=13_000)
    entry = LogEntry.objects.get(situation=situation, command__type="answer")
    assert not any(e["type"] == "lag_grace_used" for e in entry.events)


def test_D8_lag_grace_covers_a_battles_answer_window_too(event, referee, clock):
    _grace(event, 2000)
    people = party(event)
    anna, vera = people[0], people[2]
    situation = begin(event, people, referee)
    blade = buid(situation, anna, "Blade")
    act(situation, B.Act(actor=anna.pk, act=B.ATTACK, cards=(blade,), targets=(vera.pk,)), referee, now=at(1))
    frame = top(situation)
    command = B.AnswerAttack(frame=frame.number, defender=vera.pk, card=buid(situation, vera, "Shield"))
    with pytest.raises(RuleError):  # without the tablet's elapsed time: late by arrival
        act(situation, command, referee, now=at(17))
    act(situation, command, referee, now=at(17), lag_ms=TAPPED)
    entry = LogEntry.objects.get(situation=situation, command__type="answer_attack")
    assert any(e["type"] == "lag_grace_used" for e in entry.events)
    assert battle_state(situation).cards
    situation.refresh_from_db()
    assert kind_of(situation).to_dict(services.replayed(situation)) == situation.state

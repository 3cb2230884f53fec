"""[AG2, D3, S2] A battle's bouts and its situation clock through the services (issue 25 items 1 and 2).

The issue reproduced both through the services: a new arsenal accepted after
one round of turns, and "next turn" and passes keeping a quiet battle alive.
Every time is explicit: T0 plus seconds.
"""

import datetime as dt

import pytest

from cards.models import Card
from duels import services
from duels.battle.start import build_between_rounds
from duels.models import LogEntry, Situation
from rules import RuleError
from rules import battle as B
from tests.services.battle_kit import battle_state, begin, buid, passes, top
from tests.services.kit import act, nonce

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def blade_on(situation, user, actor, target, t):
    blade = buid(situation, actor, "Blade")
    act(situation, B.Act(actor=actor.pk, act=B.ATTACK, cards=(blade,), targets=(target.pk,)), user, now=at(t))
    frame = top(situation).number
    act(situation, B.AnswerAttack(frame=frame, defender=target.pk, card=None), user, now=at(t + 1))
    act(situation, B.ConfirmAnswer(frame=frame, defender=target.pk), user, now=at(t + 2))


def test_AG2_D3_after_one_round_of_turns_a_new_arsenal_is_refused_while_attack_cards_are_held(event, people, referee):
    """Issue 25 item 1: a battle of 4 begun by aggression; Anna attacks once, the others pass. The
    next round of the same bout starts at once and a new arsenal for Vera is refused (AG2)."""
    anna, _boris, vera, _gleb = people
    situation = begin(event, people, referee, now=at(0))
    blade_on(situation, referee, anna, vera, 1)
    act(situation, B.NextTurn(), referee, now=at(4))
    for t in (5, 7, 9):
        act(situation, passes(battle_state(situation)), referee, now=at(t))
        act(situation, B.NextTurn(), referee, now=at(t + 1))
    st = battle_state(situation)
    assert (st.phase, st.round, st.bout) == (B.TURNS, 2, 1) and st.turn_of == anna.pk
    situation.refresh_from_db()
    version, entries = situation.version, LogEntry.objects.filter(situation=situation).count()
    shield = Card.objects.get(name_en="Shield")
    with pytest.raises(RuleError) as refused:
        build_between_rounds(
            situation, vera, [shield.pk], user=referee, seen_version=version, nonce=nonce(), now=at(12)
        )
    assert refused.value.rule_id == "AG2"
    situation.refresh_from_db()
    assert situation.version == version and LogEntry.objects.filter(situation=situation).count() == entries


def test_S2_next_turn_and_a_pass_do_not_keep_a_quiet_battle_alive(event, people, referee):
    """Issue 25 item 2: the clock runs from the end of the last step (the answer at 2 s, its result
    confirmed at 3 s ends the open step's hold, S2); "next turn" at 170 s, a pass at 175 s and "next
    turn" at 176 s do not restart it: at 190 s the situation is over (183 s)."""
    anna, _boris, vera, _gleb = people
    situation = begin(event, people, referee, now=at(0))
    blade_on(situation, referee, anna, vera, 1)
    act(situation, B.NextTurn(), referee, now=at(170))
    act(situation, passes(battle_state(situation)), referee, now=at(175))
    act(situation, B.NextTurn(), referee, now=at(176))
    assert battle_state(situation).last_action_at == at(3)
    row = services.refresh(Situation.objects.get(pk=situation.pk), now=at(190))
    assert row.ended and row.ended_at == at(183)
    st = battle_state(situation)
    assert st.closed and st.closed_at == at(183)

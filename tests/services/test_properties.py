"""Properties of the persistence layer under random fights (DESIGN.md §4, §7).

Whatever the referee taps, in whatever order and with whatever pauses
(crossing D8 windows and S2 gaps), and whatever gets undone:
- the cached state is always the replay of the log;
- a refused command changes nothing but the deadlines that were overdue anyway;
- the log only grows: entries are never deleted, only marked undone.
"""

import datetime as dt

import pytest
import time_machine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.models import Character
from rules import duel as engine
from tests.services.kit import arm, assert_replays, nonce

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 6, 12, 0, tzinfo=dt.UTC)
# Mostly quick taps; sometimes a pause past the answer window (D8) or the gap (S2).
PAUSES = [0, 0, 0, 1, 1, 2, 14, 16, 100, 181]
taps = st.lists(
    st.tuples(st.integers(0, 6), st.integers(0, 3), st.sampled_from(PAUSES)),
    min_size=1,
    max_size=25,
)


def command_for(tap: int, pick: int, state, referee):
    """A plausible command from the fight as it stands; the rules may still refuse it."""
    duel = state.duels[-1] if state.duels else None
    if duel is None or tap == 5:
        return None
    n = duel.number
    if tap == 0:
        hand = [u for u in state.fighters[duel.attacker].hand if state.cards[u].is_attack]
        return engine.Attack(duel=n, fighter=duel.attacker, card=hand[pick % len(hand)] if hand else "none")
    if tap == 1:
        defender = duel.step.defender if duel.step else duel.b
        hand = state.fighters[defender].hand
        card = hand[pick % len(hand)] if hand and pick else None
        return engine.Answer(duel=n, fighter=defender, card=card)
    if tap == 2:
        outcome = [None, "parried", "softened", "not_parried"][pick]
        return engine.ConfirmResult(duel=n, outcome=outcome, reason="referee saw it" if pick % 2 else "")
    if tap == 3:
        return engine.RoundChoice(duel=n, fighter=[duel.a, duel.b][pick % 2], go_on=pick < 3)
    return engine.EndDuel(duel=n, reason="they part")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(taps=taps)
def test_state_is_always_the_replay_of_the_log_and_refusals_change_nothing(
    taps, event, referee, attack_card, defence_card, spark
):
    anton = Character.objects.create(event=event, name="Anton")
    zavulon = Character.objects.create(event=event, name="Zavulon")
    arm(anton, (attack_card, 2), defence_card)
    arm(zavulon, (spark, 2), defence_card)
    with time_machine.travel(T0, tick=False) as clock:
        situation = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation
        seen_entries = set(LogEntry.objects.filter(situation=situation).values_list("pk", flat=True))
        for tap, pick, pause in taps:
            clock.shift(dt.timedelta(seconds=pause))
            situation = Situation.objects.get(pk=situation.pk)
            before = (situation.version, LogEntry.objects.filter(situation=situation).count())
            state = services.state_of(situation)
            try:
                if tap == 6:
                    services.undo_last(
                        situation.pk, user=referee, reason="undo", seen_version=situation.version, nonce=nonce()
                    )
                elif tap == 5 or situation.ended:
                    # A new fight between the same two: the same situation or, after S2, a new one.
                    done = declare_aggression(event, zavulon, anton, None, user=referee, nonce=nonce())
                    situation = done.situation
                else:
                    command = command_for(tap, pick, state, referee)
                    services.perform(situation.pk, command, user=referee, seen_version=situation.version, nonce=nonce())
            except (rules.RuleError, services.ServiceError):
                fresh = Situation.objects.get(pk=situation.pk)
                entries = list(LogEntry.objects.filter(situation=situation).order_by("seq"))
                if fresh.version != before[0]:
                    # Only overdue deadlines may have been applied on the way.
                    assert fresh.version == before[0] + 1
                    assert {e.kind for e in entries[before[1] :]} == {"expire"}
                else:
                    assert len(entries) == before[1]
            assert_replays(Situation.objects.get(pk=situation.pk))
            all_entries = set(LogEntry.objects.values_list("pk", flat=True))
            assert seen_entries <= all_entries  # append-only
            seen_entries = all_entries

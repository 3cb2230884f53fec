"""Properties of random legal battles (R2, R5, D9, DESIGN §4: replay equals state)."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleError
from rules import battle as B
from rules.battle import events as E
from tests.rules.battle.kit import Fight, places
from tests.rules.battle.random_battles import _candidate

reactions: Counter[str] = Counter()  # how often the property met each reaction (see the last test)


def battle_keeps_its_invariants(data: st.DataObject) -> None:
    """Replay equals state; R5 at most one immediate action between the ends of a combatant's turns;
    R2 at most one opportunity action per combatant in each other combatant's turn; every card in one place."""
    fight = Fight(reactions_from=data.draw(st.integers(1, 2)))
    fight.begin(declarer=data.draw(st.sampled_from(list(fight.state.combatants))), order=None)
    all_uids = set(fight.state.cards)
    immediate_since_turn: Counter[int] = Counter()
    opportunity_this_turn: Counter[int] = Counter()
    for _ in range(data.draw(st.integers(10, 70))):
        if fight.state.ended:
            break
        command = _candidate(fight, data)
        if command is None:
            fight.expire()
            continue
        try:
            events = fight.do(command)
        except RuleError:
            continue
        for event in events:
            if isinstance(event, E.TurnEnded):
                immediate_since_turn[event.combatant] = 0
            if isinstance(event, E.TurnStarted):
                opportunity_this_turn.clear()
            if isinstance(event, E.ActionDeclared) and event.role in (B.INTERRUPT, B.RESPONSE):
                immediate_since_turn[event.actor] += 1
                assert event.actor != fight.state.turn_of  # R5: never on one's own turn
                reactions[event.role] += 1
            if isinstance(event, E.ActionDeclared) and event.role == B.OPPORTUNITY:
                opportunity_this_turn[event.actor] += 1
                reactions[B.OPPORTUNITY] += 1
        assert max(immediate_since_turn.values(), default=0) <= 1
        assert max(opportunity_this_turn.values(), default=0) <= 1
        found = places(fight.state)
        assert set(found) == all_uids | {u for u in fight.state.cards}
        assert all(n == 1 for n in found.values()), found
    assert B.to_dict(fight.replayed()) == B.to_dict(fight.state)


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_legal_battles_keep_their_invariants(data):
    """Replay equals state; R2, R5 limits; every card in exactly one place (see battle_keeps_its_invariants)."""
    battle_keeps_its_invariants(data)


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def _fixed_battles(data):
    battle_keeps_its_invariants(data)


def test_the_random_battles_do_react():
    """The property is worth something only if its battles contain reactions of every kind: a fixed
    (derandomized) run of the same generator meets opportunity attacks, interrupts and responses."""
    reactions.clear()
    _fixed_battles()
    assert reactions[B.OPPORTUNITY] and reactions[B.INTERRUPT] and reactions[B.RESPONSE], reactions

"""The battle engine without whole-state copies: refuse whole, apply whole, replay in one pass (issue 24).

``apply`` and ``expire`` work on ``clone(state)``, which copies the containers
and shares the immutable leaves (card faces, counter rules, settings, step
records). These properties check what the old deep copy gave for free: the
input of every call - accepted or refused - is left exactly as it was, no later
step reaches back into an earlier state through a shared part, and the
in-place replay equals the live state at every step on the way.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import RuleError
from rules import battle as B
from rules.battle.referee import ChangeCondition
from rules.clone import clone
from rules.conditions import CONDITIONS
from rules.fighters import FighterSetup
from tests.rules.battle.kit import ANNA, BLADE, SHIELD, VERA, Fight, at
from tests.rules.battle.random_battles import _candidate

PROPERTY = settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])


def _snapshot(state: B.Battle) -> str:
    # JSON text: compares every list, dict and field by value, not identity.
    return json.dumps(B.to_dict(state), sort_keys=True)


def _command(fight: Fight, data: st.DataObject) -> B.BattleCommand | None:
    """Mostly the random battles' commands; sometimes the referee's condition change or a late newcomer."""
    choice = data.draw(st.integers(0, 11))
    ids = list(fight.state.combatants)
    if choice == 10:
        who = data.draw(st.sampled_from(ids))
        condition = data.draw(st.sampled_from(CONDITIONS))
        return ChangeCondition(combatant=who, **{data.draw(st.sampled_from(["add", "clear"])): condition}, reason="r")
    if choice == 11:
        cid = data.draw(st.sampled_from([5, 6]))
        hand = (BLADE, SHIELD)
        return B.JoinBattle(
            FighterSetup(cid, f"N{cid}", tuple(c.face for c in hand)),
            data.draw(st.sampled_from(["light", "dark"])),
            hand,
            strike=data.draw(st.booleans()),
        )
    return _candidate(fight, data)


def _play(data: st.DataObject) -> tuple[Fight, list[tuple[B.Battle, str]]]:
    fight = Fight(reactions_from=data.draw(st.integers(1, 2)))
    fight.begin(declarer=data.draw(st.sampled_from(list(fight.state.combatants))), order=None)
    history = [(fight.state, _snapshot(fight.state))]
    for _ in range(data.draw(st.integers(10, 60))):
        if fight.state.closed:
            break
        before = _snapshot(fight.state)
        expired, events = B.expire(fight.state, fight.now())
        # expire never changes its input, whether it applied a deadline or not.
        assert _snapshot(fight.state) == before
        if events:
            fight.log.append(("expire", fight.now()))
            fight.state = expired
            history.append((fight.state, _snapshot(fight.state)))
        command = _command(fight, data)
        if command is None:
            continue
        before = _snapshot(fight.state)
        try:
            new, _ = B.apply(fight.state, command, fight.now())
        except RuleError:
            # Refuse whole: the state handed in is exactly as it was.
            assert _snapshot(fight.state) == before
            continue
        # Apply whole, into a new state only: the input is untouched too.
        assert _snapshot(fight.state) == before
        fight.state = new
        fight.log.append(("command", command, fight.now(), None))
        history.append((fight.state, _snapshot(fight.state)))
    return fight, history


@PROPERTY
@given(data=st.data())
def test_refused_and_accepted_commands_and_expiries_never_change_their_input(data):
    fight, history = _play(data)
    # No later step reached back into an earlier state through a shared part.
    for old, text in history:
        assert _snapshot(old) == text
    opening_text = _snapshot(fight.opening)
    assert fight.replayed() == fight.state
    # The in-place replay works on its own clone: the opening is untouched.
    assert _snapshot(fight.opening) == opening_text


@PROPERTY
@given(data=st.data())
def test_replay_in_one_pass_equals_every_live_state_on_the_way(data):
    fight, history = _play(data)
    joins = len(fight.log) - len(history) + 1  # the joins and the begin come before the first state kept
    for n, (expected, _text) in enumerate(history):
        assert B.replay(fight.opening, fight.log[: joins + n]) == expected


def test_clone_is_equal_and_shares_no_container_but_the_immutable_leaves():
    fight = Fight().begin()
    fight.attack(ANNA, BLADE, VERA)
    state = fight.state
    copy = clone(state)
    assert copy == state
    assert copy.combatants is not state.combatants and copy.stack is not state.stack
    assert copy.combatants[ANNA] is not state.combatants[ANNA]
    assert copy.combatants[ANNA].hand is not state.combatants[ANNA].hand
    assert copy.stack[0] is not state.stack[0] and copy.stack[0].parts[0] is not state.stack[0].parts[0]
    assert copy.stack[0].parts[0].windows[0] is not state.stack[0].parts[0].windows[0]
    assert copy.records is not state.records
    # Immutable parts are shared, which is what makes the clone cheap: the
    # counter rules (a tuple) and the cards (a Shared mapping, never changed in place).
    assert copy.cards is state.cards and copy.counters is state.counters
    assert copy.settings is state.settings
    with pytest.raises(TypeError):
        copy.cards.pop(next(iter(copy.cards)))
    copy.combatants[ANNA].hand.pop()
    copy.stack[0].parts[0].windows[0].answered = True
    assert len(state.combatants[ANNA].hand) == len(copy.combatants[ANNA].hand) + 1
    assert not state.stack[0].parts[0].windows[0].answered


def test_replay_leaves_its_opening_untouched_and_does_not_refuse_an_expiry_with_nothing_due():
    """An ("expire", at) entry with nothing due replays as a no-op, as the live expire does."""
    fight = Fight().begin()
    opening = _snapshot(fight.opening)
    log = [*fight.log, ("expire", at(1))]
    assert B.replay(fight.opening, log) == fight.state
    assert _snapshot(fight.opening) == opening

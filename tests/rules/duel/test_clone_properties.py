"""The engine without whole-state copies: refuse whole, apply whole, replay in one pass.

``apply`` and ``expire`` work on ``clone(state)``, which copies the containers
and shares the immutable leaves. These properties check what the old deep copy
gave for free: the input of every call - accepted or refused - is left exactly
as it was (nothing shared can leak a change back), and the in-place replay
equals the live state step by step.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import RuleError
from rules.duel import (
    InstantAttack,
    Join,
    Settings,
    apply,
    expire,
    instant_attack_draw_size,
    open_situation,
    replay,
    to_dict,
)
from rules.duel.replay import LogEntry
from rules.duel.state import clone
from tests.rules.duel.kit import COUNTERS, DART, FIRE, SHIELD, at, setup
from tests.rules.duel.property_kit import GAPS, PROPERTY_SETTINGS, candidates, light_hand, small_hand


def _snapshot(state):
    # JSON text: compares every list, dict and field by value, not identity.
    return json.dumps(to_dict(state), sort_keys=True)


def _play(hands, data):
    opening = open_situation(Settings(), COUNTERS, at(0))
    state = opening
    log: list[LogEntry] = []
    for i, hand in enumerate(hands, start=1):
        state, _ = apply(state, Join(setup(i, *hand)), at(0))
        log.append(("command", Join(setup(i, *hand)), at(0), None))
    history = [(state, _snapshot(state))]
    t = 0.0
    for _ in range(data.draw(st.integers(1, 50))):
        t += data.draw(st.sampled_from(GAPS))
        now = at(t)
        before = _snapshot(state)
        expired, events = expire(state, now)
        # expire never changes its input, whether it applied a deadline or not.
        assert _snapshot(state) == before
        if events:
            log.append(("expire", now))
            state = expired
            history.append((state, _snapshot(state)))
        command = data.draw(st.sampled_from(data.draw(st.sampled_from(candidates(state)))))
        draw = None
        if isinstance(command, InstantAttack) and command.victim in state.fighters:
            size = instant_attack_draw_size(state, command.victim)
            draw = data.draw(st.integers(0, size - 1)) if size else None
        before = _snapshot(state)
        try:
            new, _ = apply(state, command, now, draw)
        except RuleError:
            # Refuse whole: the state handed in is exactly as it was.
            assert _snapshot(state) == before
            continue
        # Apply whole, into a new state only: the input is untouched too.
        assert _snapshot(state) == before
        state = new
        log.append(("command", command, now, draw))
        history.append((state, _snapshot(state)))
    return opening, log, state, history


@PROPERTY_SETTINGS
@given(hands=st.lists(small_hand, min_size=2, max_size=3), data=st.data())
def test_refused_and_accepted_commands_never_change_their_input(hands, data):
    opening, log, state, history = _play(hands, data)
    # No later step reached back into an earlier state through a shared part.
    for old, text in history:
        assert _snapshot(old) == text
    opening_text = _snapshot(opening)
    assert replay(opening, log) == state
    # The in-place replay works on its own clone: the opening is untouched.
    assert _snapshot(opening) == opening_text


@PROPERTY_SETTINGS
@given(hands=st.lists(light_hand, min_size=2, max_size=2), data=st.data())
def test_replay_in_one_pass_equals_every_live_state_on_the_way(hands, data):
    opening, log, state, _history = _play(hands, data)
    assert replay(opening, log) == state
    # Every prefix of the log replays to the state the fight had then.
    joins = len(hands)
    for n, (expected, _text) in enumerate(_history):
        assert replay(opening, log[: joins + n]) == expected


def test_clone_is_equal_and_shares_no_container():
    state = open_situation(Settings(), COUNTERS, at(0))
    state, _ = apply(state, Join(setup(1, FIRE, DART, SHIELD)), at(0))
    copy = clone(state)
    assert copy == state
    assert copy.fighters is not state.fighters
    assert copy.fighters[1] is not state.fighters[1]
    assert copy.fighters[1].hand is not state.fighters[1].hand
    # Immutable parts are shared, which is what makes the clone cheap: the
    # counter rules (a tuple) and the cards (a Shared mapping, never changed in place).
    assert copy.counters is state.counters and copy.cards is state.cards
    with pytest.raises(TypeError):
        copy.cards["1:99:0"] = FIRE
    # A new copy of a card (a fighter joining) makes the clone's own mapping; the original keeps its cards.
    before = dict(state.cards)
    grown, _ = apply(copy, Join(setup(2, SHIELD)), at(1))
    assert set(grown.cards) == set(before) | {"2:" + str(SHIELD.card_id) + ":0"}
    assert state.cards == before and copy.cards == before

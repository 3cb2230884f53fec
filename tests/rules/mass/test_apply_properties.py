"""The magic phase without whole-state copies: every input of ``apply`` is left as it was (issue 24).

``apply`` works on ``clone(state)`` (the containers copied; card faces and
settings shared). Whatever is tapped, accepted or refused, the state handed in
is exactly as it was, no later command reaches back into an earlier state, and
the replay of the accepted commands equals the live state at every step.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import rules.mass as magic
from rules.clone import clone
from rules.errors import RuleError
from tests.rules.mass.kit import CARDS, WARRIORS, command_for, taps


def _snapshot(state: magic.MassBattle) -> str:
    return json.dumps(magic.to_dict(state), sort_keys=True)


def _opening() -> magic.MassBattle:
    return magic.open_battle(magic.MagicSettings(), CARDS, WARRIORS, [magic.Side("a", "A"), magic.Side("b", "B")])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(taps=taps, seed=st.randoms(use_true_random=False))
def test_M1_M5_refused_and_accepted_commands_never_change_their_input_and_replay_equals_each_state(taps, seed):
    order = []
    for deck in magic.DECKS:
        uids = [c.uid for c in CARDS if c.deck == deck]
        seed.shuffle(uids)
        order.append((deck, tuple(uids)))
    opening = _opening()
    opening_text = _snapshot(opening)
    accepted: list[object] = [magic.ShuffleDecks(order=tuple(order))]
    state, _ = magic.apply(opening, accepted[0])
    assert _snapshot(opening) == opening_text  # the shuffle too works on a copy
    history = [(state, _snapshot(state))]
    for tap, x, y in taps:
        command = command_for(state, tap, x, y)
        before = _snapshot(state)
        try:
            new, _events = magic.apply(state, command)
        except RuleError:
            assert _snapshot(state) == before  # refuse whole
            continue
        assert _snapshot(state) == before  # apply whole, into a new state only
        state = new
        accepted.append(command)
        history.append((state, _snapshot(state)))
    for old, text in history:
        assert _snapshot(old) == text  # nothing shared leaked a later change back
    for n, (expected, _text) in enumerate(history):
        assert magic.replay(opening, accepted[: n + 1]) == expected
    assert _snapshot(opening) == opening_text


def test_the_clone_copies_every_container_and_shares_the_card_faces():
    state = _opening()
    copy = clone(state)
    assert copy == state
    assert copy.warriors is not state.warriors and all(
        copy.warriors[w] is not state.warriors[w] for w in state.warriors
    )
    assert copy.sides["a"] is not state.sides["a"] and copy.sides["a"].kept is not state.sides["a"].kept
    assert copy.decks is not state.decks and all(copy.decks[d] is not state.decks[d] for d in magic.DECKS)
    assert all(copy.cards[uid] is face for uid, face in state.cards.items())  # frozen: shared
    copy.warriors[WARRIORS[0].wid].place = magic.DEAD
    copy.sides["a"].kept.append(magic.Kept(uid="x", cycle=1))
    assert state.warriors[WARRIORS[0].wid].place != magic.DEAD and not state.sides["a"].kept

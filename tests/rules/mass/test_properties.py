"""Properties of the magic phase under any sequence of commands (M1, M5, M7; DESIGN.md §7).

Whatever is tapped, and whatever the rules refuse: every magic card is in
exactly one place (a deck, a side's kept cards, or being carried out), no deck
holds a card twice, and replaying the accepted commands gives the same state.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

import rules.mass as magic
from rules.errors import RuleError
from tests.rules.mass.kit import CARDS, WARRIORS, command_for, taps


@settings(max_examples=200, deadline=None)
@given(taps=taps, seed=st.randoms(use_true_random=False))
def test_M1_M7_every_card_in_exactly_one_place_no_duplicates_and_replay_equals_state(taps, seed):
    order = []
    for deck in magic.DECKS:
        uids = [c.uid for c in CARDS if c.deck == deck]
        seed.shuffle(uids)
        order.append((deck, tuple(uids)))
    opening = magic.open_battle(magic.MagicSettings(), CARDS, WARRIORS, [magic.Side("a", "A"), magic.Side("b", "B")])
    accepted = [magic.ShuffleDecks(order=tuple(order))]
    state, _ = magic.apply(opening, accepted[0])
    for tap, x, y in taps:
        command = command_for(state, tap, x, y)
        before = magic.to_dict(state)
        try:
            state, _events = magic.apply(state, command)
        except RuleError:
            assert magic.to_dict(state) == before  # a refusal changes nothing
            continue
        accepted.append(command)
        places = magic.uids_everywhere(state)
        assert sorted(places) == sorted(c.uid for c in CARDS)  # each card exactly once
        for deck in magic.DECKS:
            assert len(set(state.decks[deck])) == len(state.decks[deck])
            assert all(state.cards[u].deck == deck for u in state.decks[deck])
    logged = [magic.command_from_dict(magic.command_to_dict(c)) for c in accepted]
    assert magic.replay(opening, logged) == state

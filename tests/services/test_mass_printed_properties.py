"""[M1, M5, M7] Printed decks through the services, whatever the referee records: a property (derandomized).

Random taps (many refused), recorded draws - the card the record allows, or any other
card of the catalogue - uses, keeps, kept cards used later, and undos. After each:
every magic card is in exactly one place, each deck's shuffled part lies within it,
the record allows a draw only of a card in that deck, and the cached state is the
replay of the log.
"""

import contextlib

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules.mass as magic
from duels import services
from duels.models import Situation
from rules.errors import RuleError
from tests.rules.mass.kit import command_for
from tests.services.mass_kit import armies, assert_replays, magic_cards, nonce, start

pytestmark = pytest.mark.django_db

# 0-8 any command, 9-13 the next legal step (tests.rules.mass.kit), 14 an undo; mostly steps, so the
# battles reach later cycles, cards put under their decks and kept cards used.
tap = st.one_of(st.integers(9, 13), st.integers(9, 13), st.integers(0, 14))
taps = st.lists(st.tuples(tap, st.integers(0, 6), st.integers(0, 6)), min_size=20, max_size=60)


@settings(max_examples=20, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(taps=taps)
def test_M1_M7_printed_decks_every_card_in_one_place_and_replay_equals_state(taps, event, referee):
    with transaction.atomic():
        _play(taps, event, referee)
        transaction.set_rollback(True)


def _recorded(state, command, x, y):
    """The referee's record for a draw: the card the record allows (x picks), or (y 0 or 1) one out of place."""
    if not isinstance(command, magic.UsePoints):
        return command
    points = state.points.get(command.side)
    if points not in magic.DECKS:
        return command
    ids = sorted({face.card_id for face in state.cards.values()})
    allowed = magic.drawable(state, points)
    # Out of place: a card of this deck the record does not allow now (under it, kept, pending), else any card.
    elsewhere = sorted({f.card_id for f in state.cards.values() if f.deck == points} - set(allowed)) or ids
    card = elsewhere[x % len(elsewhere)] if y in (0, 1) or not allowed else allowed[x % len(allowed)]
    return magic.UsePoints(command.side, warrior=command.warrior, take=command.take, card=card)


def _play(taps, event, referee):
    event.magic_printed_decks = True
    event.save(update_fields=["magic_printed_decks"])
    magic_cards(event)
    red, blue = armies(event)
    battle = start(event, referee, red, blue)
    all_uids = sorted(magic.uids_everywhere(services.state_of(battle)))
    for tap, x, y in taps:
        battle.refresh_from_db()
        state = services.state_of(battle)
        if tap == 14:
            with contextlib.suppress(services.NothingToUndo):
                services.undo_last(battle.pk, user=referee, reason="tap", seen_version=battle.version, nonce=nonce())
        else:
            command = _recorded(state, command_for(state, tap, x, y), x, y)
            if isinstance(command, magic.RollInitiative) and command.source == magic.SERVER:
                command = magic.RollInitiative(source=magic.SERVER)
            version = battle.version
            try:
                done = services.perform(battle.pk, command, user=referee, seen_version=version, nonce=nonce())
            except RuleError:
                assert Situation.objects.get(pk=battle.pk).version == version  # refused: nothing changed
            else:
                logged = [e if isinstance(e, dict) else e.to_dict() for e in done.events]
                for event_ in (e for e in logged if e["type"] == "mass_card_drawn"):
                    assert event_["recorded"] and event_["card_id"] == command.card  # the recorded card, no other
                    points = state.points[command.side]
                    assert command.card in magic.drawable(state, points)  # it was where the record said
        battle.refresh_from_db()
        now = services.state_of(battle)
        assert sorted(magic.uids_everywhere(now)) == all_uids
        for deck in magic.DECKS:
            assert len(set(now.decks[deck])) == len(now.decks[deck])
            assert 0 <= now.shuffled_part[deck] <= len(now.decks[deck])
            assert all(now.cards[uid].deck == deck for uid in now.decks[deck])
    assert_replays(battle)

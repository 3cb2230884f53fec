"""Properties of a mass battle through the services, whatever the referee taps (M1, M5, M7; DESIGN.md §4).

Random taps (some refused by the rules), server and entered dice, undos: every
magic card stays in exactly one place, no deck holds a card twice, the cached
state is the replay of the log, a refusal changes nothing, and the warriors'
rows follow the state.
"""

import contextlib

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules.mass as magic
from cards.models_mass import Warrior
from duels import services
from duels.models import Situation
from rules.errors import RuleError
from tests.rules.mass.kit import command_for
from tests.services.mass_kit import armies, assert_replays, magic_cards, nonce, start

pytestmark = pytest.mark.django_db

# 0-8 any command, 9-13 the next legal step (tests.rules.mass.kit), 14 an undo.
taps = st.lists(st.tuples(st.integers(0, 14), st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=30)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(taps=taps)
def test_M1_M7_cards_in_one_place_replay_equals_state_and_refusals_change_nothing(taps, event, referee):
    # Each example in its own savepoint, rolled back: the next one starts from the same empty event.
    with transaction.atomic():
        _play(taps, event, referee)
        transaction.set_rollback(True)


def _play(taps, event, referee):
    magic_cards(event)
    red, blue = armies(event)
    battle = start(event, referee, red, blue)
    all_uids = sorted(magic.uids_everywhere(services.state_of(battle)))
    for tap, x, y in taps:
        battle.refresh_from_db()
        state = services.state_of(battle)
        if tap == 14:
            with contextlib.suppress(services.NothingToUndo):  # nothing but the shuffle yet
                services.undo_last(battle.pk, user=referee, reason="tap", seen_version=battle.version, nonce=nonce())
        else:
            command = command_for(state, tap, x, y)
            if isinstance(command, magic.RollInitiative) and command.source == magic.SERVER:
                command = magic.RollInitiative(source=magic.SERVER)  # the server's dice, chosen by the kind
            version = battle.version
            try:
                services.perform(battle.pk, command, user=referee, seen_version=version, nonce=nonce())
            except RuleError:
                assert Situation.objects.get(pk=battle.pk).version == version
        battle.refresh_from_db()
        now = services.state_of(battle)
        assert sorted(magic.uids_everywhere(now)) == all_uids
        for deck in magic.DECKS:
            assert len(set(now.decks[deck])) == len(now.decks[deck])
        places = dict(Warrior.objects.filter(army__event=event).values_list("pk", "state"))
        assert {int(w.wid): w.place for w in now.warriors.values()} == places
    assert_replays(battle)

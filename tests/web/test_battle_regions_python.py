"""The battle tablet's regions written in Python equal the templates they replace (issue 24), in ru and en.

States: the first turn, an attack's answer window, the result proposed, a
pass, the reactions of round 2 (who may react, why not the others), a bout's
end (the order, leaving, the arsenals, the join form without the strike
button), the next bout's start, with an alert. Regions: notes, head, strip,
main, join, log; and the spectators' and each combatant's strip, actions in
progress and results.
"""

from __future__ import annotations

from typing import Any

import pytest

from duels import services
from duels.battle import live
from duels.templatetags import battle_regions as R
from duels.web.alerts import Alert
from rules import battle as B
from tests.services.battle_kit import battle_state, begin, buid, passes, top
from tests.web.regions_kit import context_of, drive, same
from tests.web.tablet_kit import Tablet

pytestmark = pytest.mark.django_db
REGIONS = {
    "battle-notes": R.battle_notes,
    "battle-head": R.battle_head,
    "turn-strip": R.turn_strip,
    "battle-main": R.battle_main,
    "battle-join": R.battle_join,
    "battle-log": R.battle_log,
}


def check_public(situation: Any) -> None:
    """The spectators' page and each combatant's phone: the strip, the actions in progress, the results."""
    state = services.state_of(situation)
    base = {"situation": situation, "etag": '"e"', "server_now": "now", "new_nonce": "nonce", "csrf_token": "csrf"}
    views = [live.watch_context(state), *(live.player_context(cid, state) for cid in state.combatants)]
    for view in views:
        context = {**base, **view, "referee": False}
        same(R.public_turn_strip, "battle_strip.html", context)
        same(R.public_battle_frames, "battle_frames.html", context)
        same(R.battle_records, "battle_records.html", context)


def check(situation: Any, **extra: Any) -> None:
    check_public(situation)
    context = {**context_of(situation), **extra}
    for name, builder in REGIONS.items():
        if name == "battle-main" and context["view"].ended:
            continue
        same(builder, f"battle_tablet.html#{name}", context)


def test_the_battles_regions_equal_their_templates_through_two_bouts(as_user, referee, event, people):
    event.every_round_a_bout = True
    event.save()
    anna, _, vera, _ = people
    battle = begin(event, people, referee)
    tablet = Tablet(as_user(referee), battle, "duels:battle")
    check(battle)
    check(battle, alert=Alert("warning", "Not <now> & not here", "BP3"))
    tablet.tap("act", {"who": anna.pk}, act="attack", cards=[buid(battle, anna, "Blade")], targets=[vera.pk])
    check(battle)
    frame = top(battle)
    tablet.tap("answer", {"frame": frame.number, "who": vera.pk}, card="")
    check(battle)
    tablet.tap("confirm", {"frame": frame.number, "who": vera.pk})
    check(battle)
    tablet.tap("next_turn")
    check(battle)
    st = battle_state(battle)
    while st.phase == B.TURNS:
        drive(battle, referee, passes(st))
        drive(battle, referee, B.NextTurn())
        st = battle_state(battle)
    assert st.phase == B.BETWEEN_ROUNDS
    check(battle)  # a bout's end: the order, who leaves, the arsenals
    tablet = Tablet(as_user(referee), battle, "duels:battle")
    swapped = tablet.tap("start_round")
    assert "battle-join" in swapped  # the strike button comes back with the turns
    check(battle)
    st = battle_state(battle)
    actor = st.turn_of
    assert actor is not None
    target = next(cid for cid, c in st.combatants.items() if c.side != st.combatants[actor].side)
    attack = next((u for u in st.combatants[actor].hand if st.cards[u].face.kind == "attack"), None)
    assert attack is not None
    if attack is not None:
        swapped = tablet.tap("act", {"who": actor}, act="attack", cards=[attack], targets=[target])
        assert "battle-join" not in swapped  # a step inside a turn does not read the joinable people
        check(battle)  # round 2: the reaction bar, why not the others
        main = R.battle_main(context_of(battle))
        assert "data-reactor" in main and "reactions-why-not" in main
    tablet.tap("end", reason="the <night> fell", whole=True)
    assert context_of(battle)["view"].ended
    check(battle)  # the battle over: its head, strip, join form (none) and log

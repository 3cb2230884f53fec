"""The mass battle tablet's regions written in Python equal the templates they replace (issue 24), in ru and en.

States: the initiative, the starter's choice, a side's points, a card drawn
(carried out or kept), a kept card, the magic phase over with the casualty
buttons, the next cycle, the battle's end, with an alert and an undone roll.
Regions: notes, status, action, effects, decks, log and each side; and the
status everyone may see (the spectators' page, each commander's phone). And what
a side shows whoever watches: a spectator no kept card, a commander their
own side's only (duels/mass/presenters.py decides; the Python side shows
what it is given).
"""

from __future__ import annotations

from typing import Any

import pytest

from duels import services
from duels.mass.presenters import COMMANDER, SPECTATOR, MassViewer, present
from duels.templatetags import mass_regions as R
from duels.templatetags.mass_action import mass_action
from duels.web.alerts import Alert
from rules.mass.state import Kept
from tests.services.mass_kit import armies, in_catalogue_order, start
from tests.services.mass_kit import state as mass_state
from tests.web.regions_kit import context_of, same
from tests.web.tablet_kit import Tablet

pytestmark = pytest.mark.django_db
SEEN: set[str] = set()
REGIONS = {
    "mass-notes": R.mass_notes,
    "mass-status": R.mass_status,
    "mass-action": mass_action,
    "mass-effects": R.mass_effects,
    "mass-decks": R.mass_decks,
    "mass-log": R.mass_log,
}


def check(situation: Any, **extra: Any) -> dict[str, Any]:
    context = {**context_of(situation), **extra}
    for name, builder in REGIONS.items():
        same(builder, f"mass_tablet.html#{name}", context)
    for side in context["view"].sides.values():
        same(R.mass_side, "mass_side.html", {**context, "side": side})
        same(R.mass_side, "mass_side.html", {**context, "side": side, "casualties": False})
    # What everyone may see: the spectators' page and each commander's phone (issue 24).
    state = services.state_of(situation)
    for viewer in (MassViewer(SPECTATOR), MassViewer(COMMANDER, "a"), MassViewer(COMMANDER, "b")):
        same(R.mass_public_status, "mass_public_status.html", {**context, "view": present(state, viewer)})
    return context


def _turn(tablet: Tablet, situation: Any, side: str) -> None:
    """A side's points as they say (M5): a warrior dies or returns, or a card is drawn, then kept or carried out."""
    context = check(situation)
    view = context["view"]
    if view.stage != "turns":
        return
    turn = view.turn_side
    if turn.points_use in ("dies", "returns"):
        tablet.tap("points", {"side": side}, **({"warrior": turn.hospital[0].wid} if turn.hospital else {}))
    elif turn.points_use == "draw":
        tablet.tap("points", {"side": side})
    else:
        tablet.tap("points", {"side": side}, take="yes")
    view = check(situation)["view"]
    SEEN.add(turn.points_use)
    if view.pending_side:
        SEEN.add("keep" if view.may_keep else "carry out")
        if view.may_keep:
            tablet.tap("keep", {"side": side})
        else:
            tablet.tap("carry_out", {"side": side}, target_side="b" if side == "a" else "a", move_to="hospital")
        view = check(situation)["view"]
    if view.stage == "turns" and not view.pending_side:
        tablet.tap("end_turn", {"side": side})


def test_the_mass_battles_regions_equal_their_templates_through_two_cycles(as_user, referee, event, cards, monkeypatch):
    in_catalogue_order(monkeypatch)
    red, blue = armies(event)
    situation = start(event, referee, red, blue)
    tablet = Tablet(as_user(referee), situation, "duels:mass")
    check(situation)
    check(situation, alert=Alert("info", "Roll <again> & again", "M4"))
    for dice in (("6", "1"), ("2", "5")):
        tablet.tap("roll_entered", dice_a=dice[0], dice_b=dice[1])
        check(situation)
        winner = "a" if dice[0] > dice[1] else "b"
        tablet.tap("choose", {"side": winner}, starts="yes")
        for side in (winner, "b" if winner == "a" else "a"):
            _turn(tablet, situation, side)
        context = check(situation)
        assert context["view"].stage == "over"
        tablet.tap("next_cycle")
    assert mass_state(situation).cycle == 3
    check(situation)
    tablet.tap("end_battle", reason="the <dawn> came", whole=True)
    assert check(situation)["view"].ended
    assert {"keep", "carry out", "dies"} <= SEEN, SEEN


def test_a_side_shows_its_kept_cards_to_its_commander_only(referee, event, cards, monkeypatch):
    """M5, D4: the Python side lists kept cards only where the presenter shows them; their names nowhere else."""
    in_catalogue_order(monkeypatch)
    red, blue = armies(event)
    state = mass_state(start(event, referee, red, blue))
    decks = [uids for uids in state.decks.values() if len(uids) >= 2]
    kept = {"a": decks[0][0], "b": decks[0][1]}
    for key, uid in kept.items():
        state.decks = {n: [u for u in uids if u != uid] for n, uids in state.decks.items()}
        state.sides[key].kept.append(Kept(uid=uid, cycle=1))
    spectator = present(state, MassViewer(SPECTATOR))
    commander = present(state, MassViewer(COMMANDER, "b"))
    for view in (spectator, commander):
        for key, side in view.sides.items():
            html = R.mass_side({"side": side, "view": view})
            mine = view is commander and key == "b"
            assert ("kept-cards" in html) == mine, (key, html)
            assert (f'data-card="{kept[key]}"' in html) == mine

"""A step answers with the regions it changed, and the page it patches is what a reload shows (issue 24).

For each kind a sequence of real taps goes through the tablet's own forms
(their version and nonce read off the page, as a tablet sends them) with the
htmx header. Each answer's out-of-band swaps are applied to the page as htmx
and sumrak.js do (tests/web/oob_kit.py) and the result must equal a fresh
full render of the fragment at the new version, with only the per-response
marks blanked (CSRF token, nonces, server clock). A region the kind forgets
to send, an id the page lacks, a form left with the old version: each fails
here. The next poll with the patched page's ETag is a 304.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from duels import services
from duels.duel import live as duel_live
from duels.models import Situation
from duels.web.live import new_nonce
from duels.web.submit import step_answer
from rules import duel as engine
from rules.duel import events as engine_events
from tests.services.battle_kit import battle_state, buid, top
from tests.services.mass_kit import armies, in_catalogue_order, start
from tests.services.mass_kit import state as mass_state
from tests.web.duels_kit import state_of
from tests.web.tablet_kit import HX, Tablet

pytestmark = pytest.mark.django_db


def test_a_duels_steps_send_their_regions_and_patch_the_page_to_a_fresh_render(as_user, referee, fight):
    """D6-D8, CR2: attack, no answer, confirm, and again, each answered with its regions only."""
    tablet = Tablet(as_user(referee), fight, "duels:situation")
    first = fight.version
    for step in range(2):
        st = state_of(fight)
        duel = st.duels[-1]
        card = engine.attack_cards(st, duel.attacker)[0]
        defender = duel.b if duel.attacker == duel.a else duel.a
        card_of = [f"duel-{duel.number}-{part}" for part in ("mark", "head", "action")]
        # D6: the card shown leaves the attacker's hand; the defender's block, the steps and the
        # end form are not sent, nor the parts no step touches (their forms get the new version).
        swapped = tablet.tap("attack", {"duel": duel.number}, card=card)
        attacker_block = f"duel-{duel.number}-fighter-{duel.attacker}"
        assert swapped == ["fight-notes", "fight-status", *card_of, attacker_block, "+fight-log", "fight-mark"]
        # D7, CR2: no answer, the result proposed: the defender's block, not the attacker's.
        swapped = tablet.tap("answer", {"duel": duel.number}, card="")
        assert f"duel-{duel.number}-fighter-{defender}" in swapped and attacker_block not in swapped
        if step < 1:
            # CR2 overridden: parried, so the duel goes on (the attacks change sides, D6): the whole card.
            swapped = tablet.tap("override", {"duel": duel.number}, outcome="parried", reason="a good block")
        else:
            # Not parried: a condition changes (CR1), and the duel may end (D11).
            swapped = tablet.tap("confirm", {"duel": duel.number})
        assert f"duel-{duel.number}" in swapped
    assert tablet.situation.version == first + 6


def test_a_battles_steps_send_their_regions_and_patch_the_page_to_a_fresh_render(as_user, referee, battle, people):
    """BP1-BP3, CR2: an attack, its answer, the result, the next turn; each answered with its regions."""
    anna, _, vera, _ = people
    tablet = Tablet(as_user(referee), battle, "duels:battle")
    swapped = tablet.tap("act", {"who": anna.pk}, act="attack", cards=[buid(battle, anna, "Blade")], targets=[vera.pk])
    assert "battle-main" in swapped and "turn-strip" in swapped and "+battle-log" in swapped
    assert "undo-box" not in swapped and "end-box" not in swapped and "condition-controls" not in swapped
    frame = top(battle)
    tablet.tap("answer", {"frame": frame.number, "who": vera.pk}, card=buid(battle, vera, "Shield"))
    tablet.tap("confirm", {"frame": frame.number, "who": vera.pk})
    tablet.tap("next_turn")
    assert battle_state(battle).turn_of == vera.pk
    tablet.tap("act", {"who": vera.pk}, act="pass")
    tablet.tap("next_turn")


def test_a_mass_battles_steps_send_their_regions_and_patch_the_page_to_a_fresh_render(
    as_user, referee, event, cards, monkeypatch
):
    """M4-M5: a cycle's initiative, the starter, each side's turn and the next cycle, each with its regions."""
    in_catalogue_order(monkeypatch)
    red, blue = armies(event)
    situation = start(event, referee, red, blue)
    tablet = Tablet(as_user(referee), situation, "duels:mass")
    for _ in range(2):
        swapped = tablet.tap("roll_entered", dice_a="5", dice_b="4")
        assert "mass-action" in swapped and "+mass-log" in swapped and "mass-undo" not in swapped
        tablet.tap("choose", {"side": "a"}, starts="yes")
        for side in ("a", "b"):
            tablet.tap("points", {"side": side}, take="no")
            tablet.tap("end_turn", {"side": side})
        tablet.tap("next_cycle")
    assert mass_state(situation).cycle == 3


def _attack(client: Client, fight: Situation, *, htmx: bool = True, nonce: str | None = None) -> Any:
    st = state_of(fight)
    duel = st.duels[-1]
    data = {
        "action": "attack",
        "duel": duel.number,
        "fighter": duel.attacker,
        "card": engine.attack_cards(st, duel.attacker)[0],
        "version": fight.version,
        "nonce": nonce or new_nonce(),
    }
    return client.post(reverse("duels:act", args=[fight.pk]), data, headers=HX if htmx else {})


def test_a_version_jump_gets_the_whole_fragment(as_user, referee, fight, rf):
    """A step whose new version is not the page's + 1 (a concurrent step came between): the whole fragment."""
    client = as_user(referee)
    response = _attack(client, fight)
    assert response["HX-Reswap"] == "none"
    fight.refresh_from_db()
    st = services.state_of(fight)
    performed = services.Performed(fight, [], state=st, recent=list(fight.log.order_by("-seq")[:20]))
    request = rf.post("/", headers=HX)
    request.user = referee
    request.htmx = True
    assert step_answer(request, performed, fight.version - 2) is None
    # The same step seen from the version just before it is cut into regions.
    events: list[Any] = [
        engine_events.AttackShown(duel=st.duels[-1].number, fighter=1, card="x", card_id=1, deadline=None)
    ]
    recent = performed.recent or []
    cut = services.Performed(fight, events, state=st, recent=recent, added=recent[:1])
    assert step_answer(request, cut, fight.version - 1)
    # Which lines the step added is not known: the whole fragment (its lines could not be prepended).
    unknown = services.Performed(fight, events, state=st, recent=performed.recent)
    assert step_answer(request, unknown, fight.version - 1) is None


def test_a_repeat_and_a_page_without_javascript_get_what_they_got_before(as_user, referee, fight):
    """A repeated tap (its nonce used) gets the whole fragment; a POST without htmx the redirect to the page."""
    client = as_user(referee)
    nonce = new_nonce()
    plain = _attack(client, fight, htmx=False, nonce=nonce)
    assert plain.status_code == 302 and plain["Location"] == reverse("duels:situation", args=[fight.pk])
    again = client.post(
        reverse("duels:act", args=[fight.pk]),
        {"action": "attack", "duel": 0, "fighter": 0, "card": "x", "version": fight.version, "nonce": nonce},
        headers=HX,
    )
    assert again.status_code == 200 and "HX-Reswap" not in again
    assert 'id="fight"' in again.content.decode() and "hx-swap-oob" not in again.content.decode()


def test_events_a_duel_cannot_cut_into_regions_get_the_whole_fragment(as_user, referee, fight):
    """A fighter joining (a new card on the page), the situation's end: the duel wing answers None."""
    client = as_user(referee)
    context = client.get(reverse("duels:situation", args=[fight.pk]), headers=HX).context
    joined = engine_events.FighterJoined(fighter=1, name="x", condition="fit", focus=None)
    assert duel_live.tablet_parts(context, [joined]) is None
    assert duel_live.tablet_parts(context, []) is None
    assert duel_live.tablet_parts(context, [engine_events.SituationEnded(at="", conditions={})]) is None

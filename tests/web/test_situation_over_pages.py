"""[S2, BP5] The fight's end is not the situation's: each kind's tablet asks the kind (``SituationKind.is_ended``).

A duel or a battle that is over leaves its combat situation open until the gap (S2) after the last combat
action: the tablet says the fight ended, counts the gap down and still offers "Take back"; after the gap it
says the situation ended and offers nothing. A mass battle keeps no clock (M1-M8): its situation ends with it.
Every time is explicit: T0 plus seconds (the ``clock`` fixture).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from duels import services
from duels.battle.start import grow_into_battle
from duels.duel.start import declare_aggression
from duels.models import Situation
from duels.services.kinds import kind_of
from rules import battle as B
from rules import duel as D
from tests.services.battle_kit import battle_state, begin, buid, top
from tests.services.kit import nonce
from tests.web.battle_page_kit import HX, drive, post, undo
from tests.web.no_server_errors_kit import _mass_battle

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)
GAP_OVER = "passed without a combat action"


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def page(client, name: str, situation: Situation) -> str:
    response = client.get(reverse(name, args=[situation.pk]))
    assert response.status_code == 200
    return response.content.decode()


def after_the_gap(event) -> float:
    """A second past the event's gap (S2), counted from T0."""
    return event.situation_gap_s + 1


def test_S2_a_duel_over_keeps_the_situation_and_its_take_back_until_the_gap(clock, as_user, referee, event, armed):
    anton, zavulon = armed
    duel = declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce()).situation  # T0
    clock.move_to(at(10))
    drive(duel, referee, D.EndDuel(duel=0, reason="they parted"))
    client = as_user(referee)
    before = page(client, "duels:situation", duel)
    assert "The duel has ended:" in before
    assert "Without a combat action the situation ends in:" in before and GAP_OVER not in before
    assert 'id="undo-box"' in before
    assert not Situation.objects.get(pk=duel.pk).ended
    clock.move_to(at(after_the_gap(event)))
    after = page(client, "duels:situation", duel)
    assert GAP_OVER in after and "Without a combat action the situation ends in:" not in after
    assert 'id="undo-box"' not in after
    assert Situation.objects.get(pk=duel.pk).ended


def _battle_over(clock, event, people, referee, client) -> Situation:
    """Anna's Blade on Vera, answered (the last combat action, T0); the referee ends the battle at 10 s (BP5)."""
    anna, _boris, vera, _gleb = people
    battle = begin(event, people, referee)
    drive(battle, referee, B.Act(actor=anna.pk, act=B.ATTACK, cards=(buid(battle, anna, "Blade"),), targets=(vera.pk,)))
    frame = top(battle).number
    drive(
        battle,
        referee,
        B.AnswerAttack(frame=frame, defender=vera.pk, card=None),
        B.ConfirmAnswer(frame=frame, defender=vera.pk),
    )
    clock.move_to(at(10))
    assert post(client, battle, action="end", reason="the watch arrived").status_code == 200
    return battle


def test_S2_BP5_a_battle_over_keeps_the_situation_and_its_take_back_until_the_gap(
    clock, as_user, referee, event, people
):
    client = as_user(referee)
    battle = _battle_over(clock, event, people, referee, client)
    before = page(client, "duels:battle", battle)
    assert "The battle has ended:" in before
    assert "Ends without a combat action in (S2):" in before and GAP_OVER not in before
    assert 'id="undo-box"' in before  # the core takes back the last action until the gap
    assert 'id="end-box"' not in before and 'id="situation-status"' not in before
    assert not Situation.objects.get(pk=battle.pk).ended
    clock.move_to(at(after_the_gap(event)))
    after = page(client, "duels:battle", battle)
    assert "The battle has ended:" in after
    status = after[after.index('id="situation-status"') :]
    assert GAP_OVER in status[: status.index("</span>")]
    assert "Ends without a combat action in (S2):" not in after and 'id="undo-box"' not in after
    assert Situation.objects.get(pk=battle.pk).ended


def test_S2_the_take_back_a_battle_over_offers_works_before_the_gap(clock, as_user, referee, event, people):
    client = as_user(referee)
    battle = _battle_over(clock, event, people, referee, client)
    clock.move_to(at(20))
    assert undo(client, battle, reason="ended by mistake").status_code == 200
    st = battle_state(battle)
    assert not st.ended and st.phase == B.TURNS
    assert 'id="end-box"' in page(client, "duels:battle", battle)


def test_S2_a_stale_tap_on_a_battle_the_gap_closed_after_its_end_is_told_the_gap(
    clock, as_user, referee, event, people
):
    """The battle ended by the referee, then the gap closed its situation: the tap is told S2's gap."""
    client = as_user(referee)
    battle = _battle_over(clock, event, people, referee, client)
    battle.refresh_from_db()
    seen = battle.version
    clock.move_to(at(after_the_gap(event)))
    response = client.post(
        reverse("duels:battle-act", args=[battle.pk]),
        {"version": seen, "nonce": nonce(), "action": "next_turn"},
        headers=HX,
    )
    html = response.content.decode()
    assert response.status_code in (409, 422), html
    assert GAP_OVER in html and ">S2</a>" in html
    assert Situation.objects.get(pk=battle.pk).version == seen + 1  # only the gap's own entry (S2)


def test_S2_a_mass_battle_over_is_a_situation_over_gap_or_not(clock, as_user, referee, event):
    """The mass battle's magic phase keeps no clock (M1-M8): its end closes the situation at once, for good."""
    mass = _mass_battle(event, referee)
    client = as_user(referee)
    mass.refresh_from_db()
    client.post(
        reverse("duels:mass-act", args=[mass.pk]),
        {"action": "end_battle", "version": mass.version, "nonce": nonce(), "reason": "the armies parted"},
        headers=HX,
    )
    for seconds in (10, after_the_gap(event)):
        clock.move_to(at(seconds))
        shown = page(client, "duels:mass", mass)
        assert "This mass battle is over." in shown
        assert 'id="mass-undo"' not in shown and 'id="end-form"' not in shown
        row = Situation.objects.get(pk=mass.pk)
        assert row.ended and kind_of(row).is_ended(services.state_of(row))


def test_S2_a_duel_grown_into_a_battle_is_not_told_the_gap_passed(clock, as_user, referee, event, people):
    """The referee closes a duel's situation when it grows into a battle (AG1): no 3 minutes passed (S2)."""
    anna, boris, vera, _gleb = people
    duel = declare_aggression(event, anna, vera, None, user=referee, nonce=nonce()).situation  # T0
    clock.move_to(at(5))
    duel.refresh_from_db()
    grow_into_battle(duel, boris, declarer=boris, user=referee, seen_version=duel.version, nonce=nonce(), now=at(5))
    assert Situation.objects.get(pk=duel.pk).ended
    grown = page(as_user(referee), "duels:situation", duel)
    assert "This combat situation went on as a battle." in grown
    assert GAP_OVER not in grown

"""The battle and mass tablets speak as the duel's (issue 20): "Take back", the event's one-tap reasons for
take back, end and override; and no rule code on a player's battle page (the referee's keeps them)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from duels.models import LogEntry, Situation
from events.models import Event
from rules import battle as B
from tests.services.battle_kit import battle_state, buid, top
from tests.services.kit import nonce
from tests.web.battle_page_kit import HX, attack, drive, post, to_round, undo

pytestmark = pytest.mark.django_db
RULE_CODE = re.compile(r"\((?:R|D|M|CR|AG|F|S)\d+\)")


@pytest.fixture
def reasons(event):
    Event.objects.filter(pk=event.pk).update(quick_reasons="misheard\nplayers agreed")
    event.refresh_from_db()
    return ["misheard", "players agreed"]


def test_the_battle_tablet_says_take_back_and_offers_the_events_reasons(as_user, referee, battle, reasons):
    page = as_user(referee).get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert "Take back the last action" in page and "Undo the last action" not in page
    for box in ("undo-box", "end-box"):
        part = page[page.index(f'id="{box}"') :]
        part = part[: part.index("</details>")]
        assert all(f'name="quick_reason" value="{r}"' in part for r in reasons), box


def test_one_tap_reasons_take_back_and_end_a_battle(as_user, referee, battle, people, reasons):
    anna = people[0]
    client = as_user(referee)
    post(client, battle, action="act", who=anna.pk, act="pass")
    response = undo(client, battle, quick_reason="misheard", reason="")
    assert response.status_code == 200 and battle_state(battle).stack == []
    assert LogEntry.objects.filter(situation=battle, kind=LogEntry.Kind.UNDO, reason="misheard").exists()
    post(client, battle, action="end", quick_reason="players agreed", reason="dusk")
    state = battle_state(battle)
    assert state.ended and state.end_reason == "players agreed — dusk"


def test_CR2_an_override_with_a_one_tap_reason(as_user, referee, battle, people, reasons):
    anna, _boris, vera, _gleb = people
    client = as_user(referee)
    drive(battle, referee, B.Act(actor=anna.pk, act=B.ATTACK, cards=(buid(battle, anna, "Blade"),), targets=(vera.pk,)))
    frame = top(battle)
    post(client, battle, action="answer", frame=frame.number, who=vera.pk, card=buid(battle, vera, "Shield"))
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    override = page[page.index('class="override-box') :]
    assert 'name="quick_reason" value="misheard"' in override[: override.index("</details>")]
    post(client, battle, action="confirm", frame=frame.number, who=vera.pk, outcome="parried", quick_reason="misheard")
    record = battle_state(battle).records[-1]
    assert (record.outcome, record.override_reason) == ("parried", "misheard")


def test_no_rule_code_on_the_players_battle_page(as_user, player, referee, battle, people):
    anna, _boris, vera, _gleb = people
    vera.player = player
    vera.save()
    drive(battle, referee, B.Act(actor=anna.pk, act=B.ATTACK, cards=(buid(battle, anna, "Blade"),), targets=(vera.pk,)))
    mine = as_user(player).get(reverse("duels:player-live", args=[vera.pk])).content.decode()
    assert 'id="my-battle"' in mine
    assert not RULE_CODE.findall(mine[mine.index('id="my-battle"') :])


def test_the_mass_tablet_says_take_back_and_ends_with_a_one_tap_reason(as_user, referee, event, reasons):
    from tests.web.no_server_errors_kit import _mass_battle

    mass = _mass_battle(event, referee)
    client = as_user(referee)
    page = client.get(reverse("duels:mass", args=[mass.pk])).content.decode()
    assert "Take back the last action" in page and "Undo the last action" not in page
    assert page.count('name="quick_reason" value="misheard"') == 2  # take back, end
    mass.refresh_from_db()
    client.post(
        reverse("duels:mass-act", args=[mass.pk]),
        {"action": "end_battle", "version": mass.version, "nonce": nonce(), "quick_reason": "players agreed"},
        headers=HX,
    )
    assert Situation.objects.get(pk=mass.pk).ended


def test_R1_R2_the_reaction_bar_lists_what_is_allowed_first_and_the_reasons_behind_one_tap(
    as_user, referee, battle, people
):
    anna, _boris, vera, _gleb = people
    client = as_user(referee)
    to_round(battle, referee, 2)
    attack(client, battle, anna, "Bolt", vera, engaged=[vera.pk])
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    bar = page[page.index('id="reaction-bar"') : page.index("</aside>")]
    allowed, why_not = bar.split('id="reactions-why-not"')
    assert 'data-action="opportunity"' in allowed and f'data-reactor="{vera.pk}"' in allowed
    assert "reaction-refused" not in allowed  # no wall of grey crosses before the buttons
    assert "reaction-form" not in why_not and "own turn" in why_not
    assert bar.index("<details") > bar.index("reaction-form")

"""The battle tablet as a page test drives it (tests/web/test_battle_pages.py, test_kind_tablet_words.py,
test_battle_new_arsenal.py): posts with the version the page carries and a fresh nonce, and the engine's
commands for what the test only needs to have happened."""

from __future__ import annotations

from typing import Any

from django.test import Client
from django.urls import reverse

from duels import services
from duels.models import Situation
from events.models import Character
from rules import battle as B
from tests.services.battle_kit import battle_state, buid, passes
from tests.services.kit import nonce

HX = {"HX-Request": "true"}


def post(client: Client, situation: Situation, **data: Any):
    """One tap on the tablet's action form (``duels:battle-act``), as htmx sends it."""
    situation.refresh_from_db()
    payload = {"version": situation.version, "nonce": nonce(), **data}
    return client.post(reverse("duels:battle-act", args=[situation.pk]), payload, headers=HX)


def attack(client: Client, situation: Situation, attacker: Character, card: str, *targets: Character, **data: Any):
    """The tablet's attack: ``attacker`` plays their ``card`` at ``targets`` (extra fields such as ``engaged``)."""
    return post(
        client,
        situation,
        action="act",
        who=attacker.pk,
        act="attack",
        cards=[buid(situation, attacker, card)],
        targets=[t.pk for t in targets],
        **data,
    )


def undo(client: Client, situation: Situation, **data: Any):
    """The tablet's take-back form with its reason fields."""
    situation.refresh_from_db()
    payload = {"version": situation.version, "nonce": nonce(), **data}
    return client.post(reverse("duels:battle-undo", args=[situation.pk]), payload, headers=HX)


def drive(situation: Situation, user: Any, *commands: Any) -> None:
    """Perform engine commands as the referee, each at the situation's current version."""
    for command in commands:
        situation.refresh_from_db()
        services.perform(situation.pk, command, user=user, seen_version=situation.version, nonce=nonce())


def to_round(situation: Situation, user: Any, n: int) -> None:
    """Everyone passes until round ``n`` has begun (R0: reactions open from round 2)."""
    while battle_state(situation).round < n:
        st = battle_state(situation)
        if st.phase == B.BETWEEN_ROUNDS:
            drive(situation, user, B.StartRound())
        else:
            drive(situation, user, passes(st), B.NextTurn())


def to_round_break(situation: Situation, user: Any) -> None:
    """Everyone passes until the round (a bout, D3/D12) breaks."""
    while battle_state(situation).phase != B.BETWEEN_ROUNDS:
        drive(situation, user, passes(battle_state(situation)), B.NextTurn())


def to_turn_of(situation: Situation, user: Any, character: Character) -> None:
    """Everyone passes until it is ``character``'s turn."""
    while battle_state(situation).turn_of != character.pk:
        drive(situation, user, passes(battle_state(situation)), B.NextTurn())

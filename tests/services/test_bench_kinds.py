"""The benchmark's battles and mass battles (bench/kinds.py) are fights a referee could run (issue 24).

Played by their engines, extended in chunks as the bench game builds them:
the log replays exactly to the stored state, the battle has its area attacks
and reactions (R0-R8) and its round breaks (D3), the mass battle its magic
cycles (M4-M6); and the steps prepared for the load go through the real
forms one after another, each moving the version by one.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from bench import kinds
from duels import services
from duels.models import LogEntry
from tests.services.mass_kit import armies, start

pytestmark = pytest.mark.django_db


def _types(situation) -> list[str]:
    return [e.command["type"] for e in LogEntry.objects.filter(situation=situation).order_by("seq") if e.command]


def _post_steps(client, url: str, situation, steps: list[dict]) -> None:
    for fields in steps:
        situation.refresh_from_db()
        before = situation.version
        response = client.post(
            url, {**fields, "version": before, "nonce": kinds.secrets_hex()}, headers={"HX-Request": "true"}
        )
        assert response.status_code == 200, (fields, response.content[:400])
        assert 'role="alert"' not in response.content.decode(), fields
        situation.refresh_from_db()
        assert situation.version == before + 1, fields


@pytest.fixture
def bout_battle(event, people, referee):
    """The conftest battle on an event where every round is a bout (D3), as bench/kinds.py's battles are."""
    from tests.services.battle_kit import begin

    event.every_round_a_bout = True
    event.save(update_fields=["every_round_a_bout"])
    return begin(event, people, referee)


def test_a_bench_battle_has_area_attacks_reactions_and_round_breaks_and_replays_exactly(as_user, bout_battle, referee):
    battle = bout_battle
    state, memo = None, None
    for _chunk in range(3):
        state, memo = kinds.extend(battle, "battle", 60, memo)
    battle.refresh_from_db()
    assert services.replayed(battle) == services.state_of(battle)
    types = _types(battle)
    assert len(types) > 150
    assert "immediate" in types and "new_arsenal" in types and "start_round" in types, set(types)
    area = [
        e.command
        for e in LogEntry.objects.filter(situation=battle)
        if e.command and e.command["type"] == "act" and len(e.command.get("targets") or []) > 1
    ]
    assert area, "an area attack on several targets"
    assert state is not None and memo is not None
    at = kinds._last_at(battle) + kinds.STEP
    steps = kinds.steps("battle", state, 12, at, memo)
    assert steps
    _post_steps(as_user(referee), reverse("duels:battle-act", args=[battle.pk]), battle, steps)
    battle.refresh_from_db()
    assert services.replayed(battle) == services.state_of(battle)


def test_a_bench_mass_battle_runs_magic_cycles_and_replays_exactly(as_user, event, referee, cards):
    red, blue = armies(event)
    situation = start(event, referee, red, blue)
    state, memo = None, None
    for _chunk in range(3):
        state, memo = kinds.extend(situation, "mass", 40, memo)
    situation.refresh_from_db()
    assert services.replayed(situation) == services.state_of(situation)
    types = _types(situation)
    assert types.count("next_cycle") >= 8 and "carry_out" in types and "use_points" in types, set(types)
    assert memo is not None
    at = kinds._last_at(situation) + kinds.STEP
    steps = kinds.steps("mass", state, 12, at, memo)
    assert len(steps) == 12
    _post_steps(as_user(referee), reverse("duels:mass-act", args=[situation.pk]), situation, steps)
    situation.refresh_from_db()
    assert services.replayed(situation) == services.state_of(situation)

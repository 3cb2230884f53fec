"""The benchmark's battles and mass battles (bench/kinds.py) are fights a referee could run (issue 24).

Played by their engines, extended in chunks as the bench game builds them:
the log replays exactly to the stored state, the battle has its area attacks
and reactions (R0-R8) and its round breaks (D3), the mass battle its magic
cycles (M4-M6); and the steps prepared for the load go through the real
forms one after another, each moving the version by one - all 120 of a
bench fight, across its round breaks (the tablet's "start round").
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from bench import game, kind_battle, kind_mass, kinds
from duels import services
from duels.models import LogEntry, Situation
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
    at = kinds.last_at(battle) + kinds.STEP
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
    at = kinds.last_at(situation) + kinds.STEP
    steps = kinds.steps("mass", state, 12, at, memo)
    assert len(steps) == 12
    _post_steps(as_user(referee), reverse("duels:mass-act", args=[situation.pk]), situation, steps)
    situation.refresh_from_db()
    assert services.replayed(situation) == services.state_of(situation)


@pytest.fixture
def bench_event(event):
    """``event`` with the bench game's catalogue and four of its characters' arsenals (bench/game.py)."""
    catalogue, attacks, defences = game._catalogue()
    event.catalogue = catalogue
    event.mass_battles_on = True
    event.save(update_fields=["catalogue", "mass_battles_on"])
    game._people(event, attacks, defences, count=4)
    return event


@pytest.mark.parametrize("length", kind_battle.LENGTHS)
def test_a_bench_battles_prepared_steps_cross_round_breaks_and_each_is_accepted(as_user, bench_event, referee, length):
    people = list(bench_event.characters.order_by("pk"))
    (battle,) = kind_battle.build(bench_event, referee, people, kinds.AHEAD, lengths=(length,))
    steps = battle["steps"]
    assert len(steps) == kinds.AHEAD, "a bench battle has every prepared step the load may send"
    assert [s["action"] for s in steps].count("start_round") >= 2, "the steps cross round breaks"
    situation = Situation.objects.get(pk=battle["id"])
    assert situation.version == battle["version"]
    rounds = services.state_of(situation).round
    _post_steps(as_user(referee), reverse("duels:battle-act", args=[situation.pk]), situation, steps)
    situation.refresh_from_db()
    assert services.state_of(situation).round >= rounds + 2
    assert services.replayed(situation) == services.state_of(situation)


@pytest.mark.parametrize("length", kind_mass.LENGTHS)
def test_a_bench_mass_battles_prepared_steps_are_each_accepted(as_user, bench_event, referee, length):
    (mass,) = kind_mass.build(bench_event, referee, kinds.AHEAD, lengths=(length,))
    steps = mass["steps"]
    assert len(steps) == kinds.AHEAD
    situation = Situation.objects.get(pk=mass["id"])
    cycle = services.state_of(situation).cycle
    _post_steps(as_user(referee), reverse("duels:mass-act", args=[situation.pk]), situation, steps)
    situation.refresh_from_db()
    assert services.state_of(situation).cycle >= cycle + 10
    assert services.replayed(situation) == services.state_of(situation)

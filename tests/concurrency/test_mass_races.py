"""Two tablets on one mass battle: exactly one roll counts (M4, M8; DESIGN.md §4 lock, version, nonce)."""

import pytest

import rules.mass as magic
from duels import services
from duels.models import LogEntry, Situation
from tests.concurrency.race_kit import race
from tests.services.mass_kit import armies, magic_cards, nonce, start

pytestmark = pytest.mark.concurrency

TRIALS = 15


def test_M8_two_referees_roll_the_initiative_at_once_one_roll_counts(event, referee):
    magic_cards(event)
    red, blue = armies(event)
    for _ in range(TRIALS):
        Situation.objects.filter(kind="mass_battle").update(ended=True)  # the armies are free again (issue 20)
        situation = start(event, referee, red, blue)
        version = Situation.objects.get(pk=situation.pk).version

        def roll(command, situation=situation, version=version):
            return services.perform(situation.pk, command, user=referee, seen_version=version, nonce=nonce())

        results = race(
            lambda: roll(magic.RollInitiative(source=magic.SERVER)),
            lambda: roll(magic.RollInitiative(source=magic.REFEREE, dice=(5, 2))),
        )
        won = [r for r in results if isinstance(r, services.Performed)]
        stale = [r for r in results if isinstance(r, services.StaleVersion)]
        assert (len(won), len(stale)) == (1, 1), results
        fresh = Situation.objects.get(pk=situation.pk)
        assert fresh.version == version + 1
        assert LogEntry.objects.filter(situation=situation, command__type="roll_initiative").count() == 1
        assert magic.to_dict(services.replayed(fresh)) == fresh.state


def test_issue20_two_starts_of_the_same_armies_at_once_exactly_one_is_accepted(event, referee):
    """Issue 20: the same two armies started in two mass battles at once - one accepted, one refused by name."""
    from duels.mass.start import ArmyInMassBattle, start_mass_battle

    magic_cards(event)
    red, blue = armies(event)
    event.mass_battles_on = True
    event.save(update_fields=["mass_battles_on"])
    for _ in range(TRIALS):
        Situation.objects.filter(kind="mass_battle").update(ended=True)
        results = race(
            lambda: start_mass_battle(event, red, blue, user=referee, nonce=nonce()),
            lambda: start_mass_battle(event, blue, red, user=referee, nonce=nonce()),
        )
        won = [r for r in results if isinstance(r, services.Performed)]
        refused = [r for r in results if isinstance(r, ArmyInMassBattle)]
        assert (len(won), len(refused)) == (1, 1), results
        assert Situation.objects.filter(kind="mass_battle", ended=False).count() == 1

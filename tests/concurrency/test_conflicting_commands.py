"""Different conflicting commands at the same moment, over HTTP, on PostgreSQL (issue 13).

Answer against undo, confirmation against override, an answer against the
closing of its window: exactly one applies, the other is told nothing of it was
applied, and the log replays to the state (tests/concurrency/http_race.py).
The same races on the embedded SQLite: tests/test_sqlite_races.py.
"""

import pytest

from tests.concurrency import http_race

pytestmark = pytest.mark.concurrency

TRIALS = 12


@pytest.mark.parametrize("scenario", http_race.SCENARIOS, ids=lambda s: s.__name__)
def test_D7_D8_conflicting_commands_one_applies_the_others_are_refused(scenario, live_server):
    world = http_race.build_world(1 if scenario is http_race.answer_against_timeout else 600)
    for n in range(TRIALS):
        scenario(live_server.url, world, n)

"""A 10,000-row import does not stall the game on PostgreSQL (issue 27; tests/concurrency/import_stall.py).

The same scenario on the embedded SQLite: tests/test_import_stall_sqlite.py.
"""

import pytest

from tests.concurrency import import_stall

pytestmark = pytest.mark.concurrency


def test_a_10000_row_import_lets_logins_and_referees_through(live_server):
    import_stall.run(live_server.url, import_stall.build_world())

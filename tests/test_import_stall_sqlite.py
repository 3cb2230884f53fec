"""A 10,000-row import does not stall the game on the embedded SQLite (issue 27).

The scenario (tests/concurrency/import_stall.py) runs against a threaded server over
an SQLite file in its own process: logins and a referee's answers in another event
succeed within 2 s while the import checks and writes. The same on PostgreSQL:
tests/concurrency/test_import_stall.py.
"""

import pytest

from tests.concurrency.import_stall import ROWS
from tests.concurrency.sqlite_server_kit import run_in_own_process

# Real processes racing against the clock: never beside another test (scripts/test.sh).
pytestmark = pytest.mark.serial


def test_a_10000_row_import_lets_logins_and_referees_through_on_sqlite(tmp_path):
    out = run_in_own_process("tests.concurrency.import_stall_sqlite", tmp_path / "stall.sqlite3", ROWS, timeout=900)
    assert "requests:" in out

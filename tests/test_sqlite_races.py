"""The conflicting-command races of tests/concurrency/http_race.py on the embedded SQLite (issue 13).

SQLite has no row locks: two referees' commands are kept apart by IMMEDIATE
transactions, which take the database's write lock at BEGIN. This runs the
HTTP races against a threaded server over an SQLite file in its own process.
"""

import pytest

from tests.concurrency.sqlite_server_kit import run_in_own_process

# Real processes racing against the clock: never beside another test (scripts/test.sh).
pytestmark = pytest.mark.serial

TRIALS = 8


def test_D7_D8_conflicting_commands_on_sqlite_one_applies(tmp_path):
    out = run_in_own_process("tests.concurrency.sqlite_race", tmp_path / "race.sqlite3", TRIALS, timeout=600)
    assert f"races passed: {TRIALS * 3}" in out

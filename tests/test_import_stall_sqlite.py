"""A 10,000-row import does not stall the game on the embedded SQLite (issue 27).

The scenario (tests/concurrency/import_stall.py) runs against a threaded server over
an SQLite file in its own process: logins and a referee's answers in another event
succeed within 2 s while the import checks and writes. The same on PostgreSQL:
tests/concurrency/test_import_stall.py.
"""

import os
import subprocess
import sys

from django.conf import settings

from tests.concurrency.import_stall import ROWS


def test_a_10000_row_import_lets_logins_and_referees_through_on_sqlite(tmp_path):
    env = {**os.environ, "DEBUG": "true"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "tests.concurrency.import_stall_sqlite", str(tmp_path / "stall.sqlite3"), str(ROWS)],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    assert "requests:" in done.stdout

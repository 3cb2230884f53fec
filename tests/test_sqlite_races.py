"""The conflicting-command races of tests/concurrency/http_race.py on the embedded SQLite (issue 13).

SQLite has no row locks: two referees' commands are kept apart by IMMEDIATE
transactions, which take the database's write lock at BEGIN. This runs the
HTTP races against a threaded server over an SQLite file in its own process.
"""

import os
import subprocess
import sys

from django.conf import settings

TRIALS = 8


def test_D7_D8_conflicting_commands_on_sqlite_one_applies(tmp_path):
    env = {**os.environ, "DEBUG": "true"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "tests.concurrency.sqlite_race", str(tmp_path / "race.sqlite3"), str(TRIALS)],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    assert f"races passed: {TRIALS * 3}" in done.stdout

"""The HTTP races of http_race.py on the embedded default: a server over an SQLite file.

Run in its own process by tests/test_sqlite_races.py (the test run's SQLite
database lives in memory, where threads cannot hold separate connections):
``python -m tests.concurrency.sqlite_race DBFILE TRIALS``. It migrates the
file, serves the project with Django's threaded server (one connection per
request thread, IMMEDIATE transactions; tests/concurrency/sqlite_server_kit.py),
runs every scenario TRIALS times and prints ``races passed: N``; any failed
check ends it with a traceback.
"""

import sys

from tests.concurrency.sqlite_server_kit import served


def main(db_file: str, trials: int) -> None:
    with served(db_file) as base:
        from tests.concurrency import http_race

        long_window, short_window = http_race.build_world(600), http_race.build_world(1)
        for n in range(trials):
            http_race.answer_against_undo(base, long_window, n)
            http_race.confirm_against_override(base, long_window, n)
            http_race.answer_against_timeout(base, short_window, n)
    print(f"races passed: {trials * len(http_race.SCENARIOS)}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

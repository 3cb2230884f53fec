"""The import-stall scenario (import_stall.py) on the embedded default: a server over an SQLite file.

Run in its own process by tests/test_import_stall_sqlite.py (the test run's SQLite database
lives in memory, where threads cannot hold separate connections; tests/concurrency/sqlite_server_kit.py):
``python -m tests.concurrency.import_stall_sqlite DBFILE ROWS``. Prints ``requests: N, slowest: S``.
"""

import sys

from tests.concurrency.sqlite_server_kit import served

# As in the test run (tests/conftest.py): a real password hash costs a second by design, and
# what is measured here is the database's write lock, not the hash.
FAST_HASH = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def main(db_file: str, rows: int) -> None:
    with served(db_file, PASSWORD_HASHERS=FAST_HASH) as base:
        from django.db import connections

        from tests.concurrency import import_stall

        # New connections (the server's request threads, the importer) give up waiting for the write lock
        # after LOCK_WAIT_SECONDS instead of 20 s: a request that waited longer for the import is a 503.
        connections.settings["default"]["OPTIONS"]["timeout"] = import_stall.LOCK_WAIT_SECONDS
        seen = import_stall.run(base, import_stall.build_world(), rows)
    slowest = max(seconds for _what, _status, seconds, _code in seen.requests)
    print(f"requests: {len(seen.requests)}, slowest: {slowest:.2f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

"""The import-stall scenario (import_stall.py) on the embedded default: a server over an SQLite file.

Run in its own process by tests/test_import_stall_sqlite.py (the test run's SQLite database
lives in memory, where threads cannot hold separate connections):
``python -m tests.concurrency.import_stall_sqlite DBFILE ROWS``. Prints ``requests: N, slowest: S``.
"""

import os
import sys
import threading
from pathlib import Path


def main(db_file: str, rows: int) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db_file}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SUMRAK_VAR_DIR", str(Path(db_file).parent / "var"))
    import django

    django.setup()
    from django.conf import settings

    # As in the test run (tests/conftest.py): a real password hash costs a second by design, and
    # what is measured here is the database's write lock, not the hash.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.management import call_command
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler

    from tests.concurrency import import_stall

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    call_command("migrate", verbosity=0)
    server = ThreadedWSGIServer(("127.0.0.1", 0), Quiet)
    server.set_app(WSGIHandler())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        seen = import_stall.run(f"http://127.0.0.1:{server.server_port}", import_stall.build_world(), rows)
    finally:
        server.shutdown()
    slowest = max(seconds for _what, _status, seconds, _code in seen.requests)
    print(f"requests: {len(seen.requests)}, slowest: {slowest:.2f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

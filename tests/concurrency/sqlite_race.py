"""The HTTP races of http_race.py on the embedded default: a server over an SQLite file.

Run in its own process by tests/test_sqlite_races.py (the test run's SQLite
database lives in memory, where threads cannot hold separate connections):
``python -m tests.concurrency.sqlite_race DBFILE TRIALS``. It migrates the
file, serves the project with Django's threaded server (one connection per
request thread, IMMEDIATE transactions), runs every scenario TRIALS times and
prints ``races passed: N``; any failed check ends it with a traceback.
"""

import os
import sys
import threading
from pathlib import Path


def main(db_file: str, trials: int) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{db_file}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SUMRAK_VAR_DIR", str(Path(db_file).parent / "var"))
    import django

    django.setup()
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.management import call_command
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler

    from tests.concurrency import http_race

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    call_command("migrate", verbosity=0)
    server = ThreadedWSGIServer(("127.0.0.1", 0), Quiet)
    server.set_app(WSGIHandler())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    long_window, short_window = http_race.build_world(600), http_race.build_world(1)
    try:
        for n in range(trials):
            http_race.answer_against_undo(base, long_window, n)
            http_race.confirm_against_override(base, long_window, n)
            http_race.answer_against_timeout(base, short_window, n)
    finally:
        server.shutdown()
    print(f"races passed: {trials * len(http_race.SCENARIOS)}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))

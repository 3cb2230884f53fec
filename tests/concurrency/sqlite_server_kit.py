"""A scenario against the project served over an SQLite file, in a process of its own.

The test run's SQLite database lives in memory, where threads cannot hold separate
connections; so tests/test_sqlite_races.py and tests/test_import_stall_sqlite.py start
``python -m <scenario> DBFILE ...`` (``run_in_own_process``), and the scenario serves the
project there (``served``): migrated, Django's threaded server, one connection per request
thread. Only the standard library is imported here before Django is set up.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


def run_in_own_process(module: str, db_file: Path, *args: object, timeout: float) -> str:
    """Run ``python -m module db_file args...`` on the embedded default (no PostgreSQL, no Redis); its stdout."""
    from django.conf import settings

    env = {**os.environ, "DEBUG": "true"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", module, str(db_file), *(str(a) for a in args)],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-5000:]
    return done.stdout


@contextmanager
def served(db_file: str, **setting_values: Any) -> Iterator[str]:
    """In the scenario's process: Django over ``db_file`` (``setting_values`` applied), migrated and served.

    Yields the server's base URL; the server stops when the block ends.
    """
    os.environ["DATABASE_URL"] = f"sqlite:///{db_file}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("SUMRAK_VAR_DIR", str(Path(db_file).parent / "var"))
    import django

    django.setup()
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler
    from django.core.management import call_command
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler

    for name, value in setting_values.items():
        setattr(settings, name, value)

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

    call_command("migrate", verbosity=0)
    server = ThreadedWSGIServer(("127.0.0.1", 0), Quiet)
    server.set_app(WSGIHandler())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()

"""A 10,000-row import does not stall the game on PostgreSQL (issue 27; tests/concurrency/import_stall.py).

The same scenario on the embedded SQLite: tests/test_import_stall_sqlite.py.
"""

import pytest
from django.db import connection, connections

from tests.concurrency import import_stall

pytestmark = pytest.mark.concurrency


@pytest.fixture
def lock_timeout():
    """The live server's new connections give up a lock wait longer than ``LOCK_WAIT_SECONDS`` (a 503)."""
    connection.ensure_connection()  # this thread's own stays as it is; the importer's is bounded too
    dicts = {id(d): d for d in (connection.settings_dict, connections.settings["default"])}
    kept = [(d, d.get("OPTIONS")) for d in dicts.values()]
    for d in dicts.values():
        d["OPTIONS"] = {**(d.get("OPTIONS") or {}), "options": f"-c lock_timeout={import_stall.LOCK_WAIT_SECONDS}s"}
    try:
        yield
    finally:
        for d, kept_options in kept:
            d["OPTIONS"] = kept_options


def test_a_10000_row_import_lets_logins_and_referees_through(live_server, lock_timeout):
    import_stall.run(live_server.url, import_stall.build_world())

"""Real parallel commands against PostgreSQL (DESIGN.md §7).

``select_for_update`` is a no-op on SQLite, so these tests need PostgreSQL:
skipped without it locally, a failure in CI (``CI=true``).
"""

import os

import pytest
from django.db import connection


@pytest.fixture(autouse=True)
def postgresql_only(transactional_db):
    if connection.vendor != "postgresql":
        message = "concurrency tests need PostgreSQL: set DATABASE_URL=postgres://..."
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)

"""docs/security.md lists each bound with its number, and the number is the code's (issue 27).

Each row of the bounds table names its constant in backticks; the number in
that row must be the constant's value, so a bound changed in the code and not
in the docs (or the other way round) fails here.
"""

from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings

import config.login_throttle
import config.settings
import duels.archive
import helpers.table_limits as tables
from events.models import new_link_token

DOC = Path(settings.BASE_DIR) / "docs" / "security.md"
MB = 1024 * 1024


def megabytes(n: int) -> str:
    assert n % MB == 0, "a bound in bytes is documented in whole megabytes"
    return f"{n // MB} MB"


def plain(n: float) -> str:
    return f"{n:,}"


def seconds(n: float) -> str:
    return f"{n:g} s"


BOUNDS: list[tuple[str, object, Callable[..., str]]] = [
    ("SUMRAK_MAX_REQUEST_BYTES", settings.SUMRAK_MAX_REQUEST_BYTES, megabytes),
    ("DATA_UPLOAD_MAX_MEMORY_SIZE", settings.DATA_UPLOAD_MAX_MEMORY_SIZE, megabytes),
    ("DATA_UPLOAD_MAX_NUMBER_FILES", settings.DATA_UPLOAD_MAX_NUMBER_FILES, plain),
    ("MAX_BYTES", tables.MAX_BYTES, megabytes),
    ("MAX_ROWS", tables.MAX_ROWS, plain),
    ("MAX_COLUMNS", tables.MAX_COLUMNS, plain),
    ("MAX_CELLS", tables.MAX_CELLS, plain),
    ("MAX_CELL_CHARS", tables.MAX_CELL_CHARS, plain),
    ("MAX_LINE_CHARS", tables.MAX_LINE_CHARS, plain),
    ("MAX_UNZIPPED_BYTES", tables.MAX_UNZIPPED_BYTES, megabytes),
    ("MAX_ZIP_RATIO", tables.MAX_ZIP_RATIO, plain),
    ("MAX_SECONDS", tables.MAX_SECONDS, seconds),
    ("MAX_DEPTH", duels.archive.MAX_DEPTH, lambda n: f"{n} levels"),
    ("MAX_KEYS", duels.archive.MAX_KEYS, plain),
    ("MAX_VALUES", duels.archive.MAX_VALUES, plain),
    ("AXES_FAILURE_LIMIT", settings.AXES_FAILURE_LIMIT, plain),
    ("AXES_COOLOFF_TIME", settings.AXES_COOLOFF_TIME.total_seconds() // 60, lambda n: f"{n:g} minutes"),
    ("MAX_USERNAME", config.login_throttle.MAX_USERNAME, lambda n: f"{n} characters"),
    ("new_link_token", len(new_link_token()), lambda n: f"{n} characters"),
    ("MIN_SECRET_KEY_LENGTH", config.settings.MIN_SECRET_KEY_LENGTH, lambda n: f"at least {n} characters"),
]


def row_naming(name: str) -> str:
    rows = [
        line for line in DOC.read_text(encoding="utf-8").splitlines() if line.startswith("|") and f"`{name}`" in line
    ]
    assert len(rows) == 1, f"docs/security.md has {len(rows)} rows naming `{name}`"
    return rows[0]


@pytest.mark.parametrize(("name", "value", "shown"), BOUNDS, ids=[b[0] for b in BOUNDS])
def test_the_documented_number_is_the_codes(name, value, shown):
    """The number cell reads "<number> (`NAME`…)": the words before the constant end with its value."""
    cell = next(cell for cell in row_naming(name).split("|") if f"`{name}`" in cell)
    number = cell.split(" (`")[0].strip()
    assert number == shown(value) or number.endswith(" " + shown(value)), (number, shown(value))


def test_the_site_upload_of_an_event_file_is_bounded_by_the_request_body():
    """The event file has no bound of its own on the site: the request body's is the one the docs name."""
    assert megabytes(settings.SUMRAK_MAX_REQUEST_BYTES) in row_naming("SUMRAK_MAX_REQUEST_BYTES")
    row = next(
        line for line in DOC.read_text(encoding="utf-8").splitlines() if "event file uploaded on the site" in line
    )
    assert megabytes(settings.SUMRAK_MAX_REQUEST_BYTES) in row

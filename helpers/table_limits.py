"""The limits of every table import, and the budget that enforces them (docs/import.md).

A leaf module: ``helpers.tables`` and ``helpers.workbooks`` both read it.
"""

import time

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# The documented limits (docs/import.md). A real game has hundreds of characters and
# cards; an arsenal file has one row per character and card, a few thousand at most.
MAX_BYTES = 2 * 1024 * 1024
MAX_ROWS = 10_000
MAX_COLUMNS = 50
MAX_CELLS = 200_000
MAX_CELL_CHARS = 10_000
MAX_LINE_CHARS = 100_000
MAX_UNZIPPED_BYTES = 25 * 1024 * 1024
MAX_ZIP_RATIO = 200
MAX_SECONDS = 10.0
# The delimiter is sniffed in at most this much of the header line (helpers/tables.py).
SNIFF_CHARS = 64 * 1024
# A table in JSON is a list of objects of values: two levels; a third is a cell holding a list,
# read so that its refusal names the cell rather than the nesting (helpers/json_limits.py).
JSON_MAX_DEPTH = 3


class TableError(ValueError):
    """The file as a whole cannot be imported; nothing was changed."""


class Budget:
    """Rows, cells and seconds spent reading one file; refuses the file when one runs out."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.cells = 0
        self.rows = 0

    def row(self, width: int) -> None:
        self.rows += 1
        self.cells += width
        if self.rows > MAX_ROWS + 1:  # + the header
            raise TableError(
                ngettext(
                    "The file has more than %(limit)d row; split it into smaller files.",
                    "The file has more than %(limit)d rows; split it into smaller files.",
                    MAX_ROWS,
                )
                % {"limit": MAX_ROWS}
            )
        if width > MAX_COLUMNS:
            raise TableError(
                _("Row %(row)d has more than %(limit)d columns.") % {"row": self.rows, "limit": MAX_COLUMNS}
            )
        if self.cells > MAX_CELLS:
            raise TableError(_("The file has more than %(limit)d cells in all.") % {"limit": MAX_CELLS})
        if self.rows % 100 == 0:
            self.check_time()

    def check_time(self) -> None:
        if time.monotonic() - self.started > MAX_SECONDS:
            raise TableError(_("Reading the file took too long; make it smaller or simpler."))

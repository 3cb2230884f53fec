"""Reading the first table of an HTML file, bounded: allrpg.info's «Excel» export (issue 22).

allrpg.info sends its applications as an HTML ``<table>`` in a file named ``.xls``; tablib's
HTML reader would read it, but whole and without bounds. This one is Python's HTML parser
with the import's budget (rows, columns, cells, characters, time): cells are ``<th>``/``<td>``,
``<br>`` is a line break, a link is its text, everything after the first table is skipped. An
entity declaration (``<!ENTITY``, the "billion laughs") refuses the file; HTML parsers never
expand one, but no table needs one.
"""

from __future__ import annotations

from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any

from django.utils.translation import gettext as _

from helpers.table_limits import MAX_CELL_CHARS, Budget, TableError
from helpers.xml_limits import refused

_ENTITY = "<!ENTITY"


class _Table(HTMLParser):
    def __init__(self, budget: Budget) -> None:
        super().__init__(convert_charrefs=True)
        self.budget = budget
        self.rows: list[list[str]] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.depth = 0  # tables open (a table inside a cell is read as its text)
        self.done = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.done:
            return
        if tag == "table":
            self.depth += 1
        elif self.depth == 1 and tag == "tr":
            self._end_row()
            self.row = []
        elif self.depth == 1 and tag in ("td", "th"):
            self._end_cell()
            if self.row is None:
                self.row = []
            self.cell = []
        elif tag == "br" and self.cell is not None:
            self.cell.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self.done:
            return
        if tag == "table":
            self.depth -= 1
            if self.depth == 0:
                self._end_row()
                self.done = True
        elif self.depth == 1 and tag in ("td", "th"):
            self._end_cell()
        elif self.depth == 1 and tag == "tr":
            self._end_row()

    def handle_data(self, data: str) -> None:
        if self.cell is not None and not self.done:
            self.cell.append(data)
            if sum(len(part) for part in self.cell) > MAX_CELL_CHARS:
                raise TableError(_("A cell holds more than %(limit)d characters.") % {"limit": MAX_CELL_CHARS})

    def handle_decl(self, decl: str) -> None:
        if "ENTITY" in decl.upper():
            raise refused()

    def unknown_decl(self, data: str) -> None:
        if "ENTITY" in data.upper():
            raise refused()

    def _end_cell(self) -> None:
        if self.cell is not None and self.row is not None:
            text = "".join(self.cell)
            self.row.append("\n".join(" ".join(line.split()) for line in text.split("\n")).strip())
        self.cell = None

    def _end_row(self) -> None:
        self._end_cell()
        if self.row is not None:
            self.budget.row(len(self.row))
            self.rows.append(self.row)
        self.row = None


def html_rows(text: str, budget: Budget) -> Iterator[list[Any]]:
    """The rows of the document's first table, each a list of its cells' text."""
    if _ENTITY in text:
        raise refused()
    parser = _Table(budget)
    step = 64 * 1024
    for start in range(0, len(text), step):
        parser.feed(text[start : start + step])
        budget.check_time()
        if parser.done:
            break
    parser.close()
    parser._end_row()
    if not parser.rows:
        raise TableError(_("The file has no table to read."))
    return iter(parser.rows)

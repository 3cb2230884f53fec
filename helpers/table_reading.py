"""Reading an uploaded table within its bounds: CSV, XLSX, JSON and HTML (helpers/tables.py re-exports it).

Every reader streams its rows through one ``Budget`` (helpers/table_limits.py); the rows
then become a ``Table``: under the import's own columns (``read_table``, which refuses
unknown ones), or under the file's header as written (``read_raw``, for the column-mapping
step of events/imports/mapping.py, which keeps every column, even an unnamed one).
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import tablib
from django.utils.translation import gettext as _

from helpers.html_tables import html_rows
from helpers.json_limits import load_bounded
from helpers.table_limits import (
    JSON_MAX_DEPTH,
    MAX_BYTES,
    MAX_CELL_CHARS,
    MAX_CELLS,
    MAX_COLUMNS,
    MAX_LINE_CHARS,
    SNIFF_CHARS,
    Budget,
    TableError,
)
from helpers.workbooks import xlsx_rows

# Spreadsheets run a cell starting with one of these as a formula (OWASP's CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
Cell = str | int | float | bool | None


@dataclass
class Table:
    """The rows of a file under normalised column names, each with its row number."""

    headers: list[str]
    rows: list[list[Any]]
    numbers: list[int]
    encoding: str = ""
    # The header cells as the file writes them (``headers`` are their normalised names).
    labels: list[str] = field(default_factory=list)

    def dataset(self) -> tablib.Dataset:
        data = tablib.Dataset(headers=self.headers)
        for row in self.rows:
            data.append(row)
        return data

    def records(self) -> Iterator[tuple[int, dict[str, Any]]]:
        for number, row in zip(self.numbers, self.rows, strict=True):
            yield number, dict(zip(self.headers, row, strict=True))


def decode(content: bytes) -> tuple[str, str]:
    """The text of a CSV or JSON file and the encoding found."""
    if content.startswith(b"\xef\xbb\xbf"):
        return content[3:].decode("utf-8", errors="strict"), "utf-8-sig"
    if content.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return content.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            raise TableError(_("The file is not readable text.")) from None
    try:
        return content.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        # cp1251 decodes every byte but one (0x98); a file that is not Cyrillic text then reads as gibberish
        # and its columns are refused by name.
        try:
            return content.decode("cp1251"), "cp1251"
        except UnicodeDecodeError:
            raise TableError(_("The file is not readable text.")) from None


_LONG_LINE = re.compile(rf"[^\r\n]{{{MAX_LINE_CHARS + 1}}}")
DELIMITERS = (",", ";", "\t")


def sniff_delimiter(text: str) -> str:
    """Comma, semicolon or tab: the one found most often outside quotes in the header line.

    Linear in a bounded sample (``SNIFF_CHARS``): ``csv.Sniffer``'s regular expressions
    backtrack without end on a crafted 99 KB line (issue 27: the worker was killed while
    holding the interpreter). A header with none of them is one column: a comma.
    """
    sample = text.lstrip("\r\n")[:SNIFF_CHARS]
    counts = dict.fromkeys(DELIMITERS, 0)
    quoted = False
    for char in sample:
        if char == '"':
            quoted = not quoted
        elif char == "\n" and not quoted:
            break
        elif not quoted and char in counts:
            counts[char] += 1
    best = max(DELIMITERS, key=lambda d: counts[d])
    return best if counts[best] else ","


def _csv_rows(content: bytes, budget: Budget) -> tuple[Iterator[list[Any]], str]:
    text, encoding = decode(content)
    if _LONG_LINE.search(text):
        raise TableError(_("A line of the file is longer than %(limit)d characters.") % {"limit": MAX_LINE_CHARS})
    delimiter = sniff_delimiter(text)
    budget.check_time()

    def rows() -> Iterator[list[Any]]:
        # newline="": the csv module itself reads line breaks, also those inside quoted cells.
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        try:
            for row in reader:
                while row and row[-1] == "":
                    row.pop()  # a spreadsheet's trailing empty cells
                budget.row(len(row))
                yield row
        except csv.Error:
            raise TableError(_("The file could not be read as CSV.")) from None

    return rows(), encoding


def _json_rows(content: bytes, budget: Budget) -> tuple[Iterator[list[Any]], str]:
    text, encoding = decode(content)
    # Its shape first (helpers/json_limits.py): a list of objects, at most a column's worth of keys
    # each and a file's worth of cells in all; a cell holding a list still reads as one, and is refused.
    data = load_bounded(text, max_depth=JSON_MAX_DEPTH, max_keys=MAX_COLUMNS, max_items=MAX_CELLS)
    budget.check_time()
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise TableError(_("A JSON file must be a list of objects, one per row."))
    seen: dict[str, None] = {}
    for item in data:
        seen.update((str(key), None) for key in item)
        if len(seen) > MAX_COLUMNS:
            raise TableError(_("The JSON file names more than %(limit)d columns.") % {"limit": MAX_COLUMNS})
    headers = list(seen)

    def rows() -> Iterator[list[Any]]:
        budget.row(len(headers))
        yield list(headers)
        for item in data:
            budget.row(len(headers))
            yield [item.get(h) for h in headers]

    return rows(), encoding


def _blank(row: Sequence[Any]) -> bool:
    return all(cell is None or (isinstance(cell, str) and not cell.strip()) for cell in row)


def _clean(value: object) -> Cell:
    if isinstance(value, str):
        if "\x00" in value:
            # NUL bytes are no text (a binary file): SQLite would store them in names, PostgreSQL refuses them.
            raise TableError(_("The file is not readable text."))
        if len(value) > MAX_CELL_CHARS:
            raise TableError(_("A cell holds more than %(limit)d characters.") % {"limit": MAX_CELL_CHARS})
        value = value.strip()
        if len(value) > 1 and value[0] == "'" and value[1] in FORMULA_STARTS:
            value = value[1:].strip()  # an exported cell neutralized against formula injection
        return value
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, list | dict):
        raise TableError(_("A cell holds a list or an object; each cell must be a single value."))
    return str(value)  # dates and times of a spreadsheet


def header_name(value: Any) -> str:
    return str(value or "").strip().lower().replace(" ", "_")


_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # a binary Excel 97 .xls


def _html_rows(content: bytes, budget: Budget) -> tuple[Iterator[list[Any]], str]:
    if content.startswith(_OLE2):
        raise TableError(_("An Excel 97 .xls file is not read; save it as .xlsx or CSV, or upload an HTML table."))
    text, encoding = decode(content)
    return html_rows(text, budget), encoding


def _source(content: bytes, file_format: str, budget: Budget) -> tuple[Iterator[list[Any]], str]:
    if len(content) > MAX_BYTES:
        raise TableError(_("The file is too large (at most %(limit)d MB).") % {"limit": MAX_BYTES // (1024 * 1024)})
    if file_format == "xlsx":
        return xlsx_rows(content, budget), ""
    if file_format == "json":
        return _json_rows(content, budget)
    if file_format == "html":
        return _html_rows(content, budget)
    return _csv_rows(content, budget)


def _read(content: bytes, file_format: str, on_header: Any) -> Table:
    budget = Budget()
    source, encoding = _source(content, file_format, budget)
    labels: list[str] | None = None
    rows: list[list[Any]] = []
    numbers: list[int] = []
    for number, raw in enumerate(source, start=1):
        if labels is None:
            if _blank(raw):
                continue
            labels = [str(_clean(cell) or "") for cell in raw]
            on_header(labels)
            continue
        if _blank(raw):
            continue
        cells = [_clean(cell) for cell in raw[: len(labels)]]
        if any(cell not in (None, "") for cell in raw[len(labels) :]):
            raise TableError(_("Row %(row)d has more cells than the header has columns.") % {"row": number})
        rows.append(cells + [None] * (len(labels) - len(cells)))
        numbers.append(number)
    budget.check_time()
    if labels is None:
        raise TableError(_("The file is empty."))
    if not rows:
        raise TableError(_("The file has no rows to import."))
    return Table([header_name(label) for label in labels], rows, numbers, encoding, labels)


def read_table(content: bytes, file_format: str, *, columns: Sequence[str], required: Sequence[str] = ()) -> Table:
    """The file's rows under its header, checked against the import's columns. Raises ``TableError``."""
    table = _read(
        content, file_format, lambda labels: _check_headers([header_name(x) for x in labels], columns, required)
    )
    keep = [i for i, h in enumerate(table.headers) if h]
    return Table(
        [table.headers[i] for i in keep],
        [[row[i] for i in keep] for row in table.rows],
        table.numbers,
        table.encoding,
        [table.labels[i] for i in keep],
    )


def read_raw(content: bytes, file_format: str) -> Table:
    """The file's rows under its header as written, every column kept (an unnamed one too). Raises ``TableError``."""
    return _read(content, file_format, lambda labels: None)


def fits(table: Table, columns: Sequence[str], required: Sequence[str]) -> bool:
    """Whether the file is in the import's own columns (an export of ours): then it needs no mapping."""
    named = [h for h in table.headers if h]
    return (
        bool(named)
        and all(h in columns for h in named)
        and all(c in named for c in required)
        and len(set(named)) == len(named)
        and all(h or all(row[i] in (None, "") for row in table.rows) for i, h in enumerate(table.headers))
    )


def _check_headers(headers: list[str], columns: Sequence[str], required: Sequence[str]) -> None:
    named = [h for h in headers if h]
    unknown = [h for h in named if h not in columns]
    if unknown:
        raise TableError(
            _("Unknown columns: %(unknown)s. The columns are: %(columns)s.")
            % {"unknown": ", ".join(unknown[:10]), "columns": ", ".join(columns)}
        )
    missing = [c for c in required if c not in named]
    if missing:
        raise TableError(
            _("The header row needs the columns %(missing)s (the columns are: %(columns)s).")
            % {"missing": ", ".join(missing), "columns": ", ".join(columns)}
        )
    if len(set(named)) != len(named):
        raise TableError(_("A column appears twice in the file."))

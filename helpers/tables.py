"""One pipeline for every table an organizer imports or exports (CSV, XLSX, JSON).

Used by the character import (events/resources.py), the catalogue import
(cards/resources.py) and the arsenal import (cards/arsenal_import.py); it lives
in ``events`` so that both apps may import it under the layers rule
(rules <- events <- cards) and imports nothing of the project itself.

What every import shares (docs/import.md):

- **Encodings:** UTF-8 with or without a byte order mark, UTF-16 with one
  (Excel's "Unicode text"), else Windows Cyrillic cp1251 (what a Russian Excel
  saves as "CSV"), detected from the bytes.
- **Delimiters:** comma, semicolon or tab, sniffed from the header line.
- **Row numbers** are the ones a spreadsheet program shows: the header is row 1,
  the first data row is row 2; blank rows are skipped but keep their number. In
  a JSON list the first object is row 2, as if the list were a sheet.
- **Bounded reading:** a file is refused, with a message that names the limit,
  before it can exhaust the server: at most ``MAX_BYTES`` uploaded,
  ``MAX_ROWS`` rows, ``MAX_COLUMNS`` columns, ``MAX_CELLS`` cells in all,
  ``MAX_LINE_CHARS`` characters on one line of a CSV, ``MAX_UNZIPPED_BYTES``
  inside an XLSX (and a compression ratio of ``MAX_ZIP_RATIO``), and
  ``MAX_SECONDS`` of reading. An XLSX sheet's declared dimension is never
  trusted: the sheet's XML is streamed cell by cell (openpyxl's read-only parser).
- **All or nothing, one error format:** ``run_import`` checks every row in a dry
  run, then imports all rows in one transaction, or nothing; errors are
  ``(row number or None for the whole file, message)`` pairs, shown by
  ``templates/_import_errors.html``.
- **Formula injection:** exported text cells that a spreadsheet would run as a
  formula get a leading apostrophe (``neutralize``); the import takes it off.
"""

import csv
import io
import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import tablib
from django.db import transaction
from django.utils.translation import gettext as _

# The limits and TableError live in a leaf module shared with the workbook reader; they are
# part of this module's interface too (the forms read tables.MAX_BYTES).
from helpers.table_limits import (
    MAX_BYTES,
    MAX_CELL_CHARS,
    MAX_CELLS,
    MAX_COLUMNS,
    MAX_LINE_CHARS,
    MAX_ROWS,
    MAX_SECONDS,
    MAX_UNZIPPED_BYTES,
    MAX_ZIP_RATIO,
    Budget,
    TableError,
)
from helpers.workbooks import xlsx_rows

__all__ = [
    "CONTENT_TYPES",
    "FORMATS",
    "FORMULA_STARTS",
    "MAX_BYTES",
    "MAX_CELLS",
    "MAX_CELL_CHARS",
    "MAX_COLUMNS",
    "MAX_LINE_CHARS",
    "MAX_ROWS",
    "MAX_SECONDS",
    "MAX_UNZIPPED_BYTES",
    "MAX_ZIP_RATIO",
    "Budget",
    "ImportReport",
    "Table",
    "TableError",
    "decode",
    "export_bytes",
    "format_of",
    "neutralize",
    "neutralized",
    "page_limits",
    "read_table",
    "result_errors",
    "run_import",
]
FORMATS = ("csv", "xlsx", "json")
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

    def dataset(self) -> tablib.Dataset:
        data = tablib.Dataset(headers=self.headers)
        for row in self.rows:
            data.append(row)
        return data

    def records(self) -> Iterator[tuple[int, dict[str, Any]]]:
        for number, row in zip(self.numbers, self.rows, strict=True):
            yield number, dict(zip(self.headers, row, strict=True))


@dataclass
class ImportReport:
    errors: list[tuple[int | None, str]] = field(default_factory=list)
    created: int = 0
    updated: int = 0


def neutralize(value: Any) -> Any:
    """A text cell that a spreadsheet would run as a formula, made plain text with a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def neutralized(dataset: tablib.Dataset) -> tablib.Dataset:
    """A copy of an export's dataset that is safe to open in a spreadsheet: every export goes through here."""
    safe = tablib.Dataset(headers=[neutralize(h) for h in (dataset.headers or [])])
    for row in dataset:
        safe.append([neutralize(cell) for cell in row])
    return safe


def export_bytes(dataset: tablib.Dataset, file_format: str) -> bytes:
    """An export as a file: CSV (UTF-8 with a byte order mark, for Excel), XLSX or JSON."""
    if file_format == "json":
        return json.dumps(dataset.dict, ensure_ascii=False, default=str, indent=1).encode()
    safe = neutralized(dataset)
    if file_format == "xlsx":
        return bytes(safe.export("xlsx"))
    return ("\ufeff" + str(safe.export("csv"))).encode()


_SHEET_TITLE_BANNED = str.maketrans({c: " " for c in "[]:*?/\\"})


def export_workbook(sheets: Sequence[tuple[str, tablib.Dataset]]) -> bytes:
    """Several exports as one XLSX, each its own sheet (titles cut to Excel's 31 characters), neutralized."""
    book = tablib.Databook()
    for title, dataset in sheets:
        safe = neutralized(dataset)
        safe.title = title.translate(_SHEET_TITLE_BANNED)[:31]
        book.add_sheet(safe)
    return bytes(book.export("xlsx"))


CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "json": "application/json",
}


# --- reading -------------------------------------------------------------------------


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


def _csv_rows(content: bytes, budget: Budget) -> tuple[Iterator[list[Any]], str]:
    text, encoding = decode(content)
    if _LONG_LINE.search(text):
        raise TableError(_("A line of the file is longer than %(limit)d characters.") % {"limit": MAX_LINE_CHARS})
    first_line = text.lstrip("\r\n").split("\n", 1)[0]
    try:
        delimiter = csv.Sniffer().sniff(first_line, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","

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
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise TableError(_("The file could not be read as JSON.")) from None
    if not isinstance(data, list) or not all(isinstance(item, dict) for item in data):
        raise TableError(_("A JSON file must be a list of objects, one per row."))
    headers: list[str] = []
    for item in data:
        headers.extend(str(key) for key in item if str(key) not in headers)
        if len(headers) > MAX_COLUMNS:
            break

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


def read_table(content: bytes, file_format: str, *, columns: Sequence[str], required: Sequence[str] = ()) -> Table:
    """The file's rows under its header, checked against the import's columns. Raises ``TableError``."""
    if len(content) > MAX_BYTES:
        raise TableError(_("The file is too large (at most %(limit)d MB).") % {"limit": MAX_BYTES // (1024 * 1024)})
    budget = Budget()
    encoding = ""
    source: Iterator[list[Any]]
    if file_format == "xlsx":
        source = xlsx_rows(content, budget)
    elif file_format == "json":
        source, encoding = _json_rows(content, budget)
    else:
        source, encoding = _csv_rows(content, budget)
    headers: list[str] | None = None
    rows: list[list[Any]] = []
    numbers: list[int] = []
    for number, raw in enumerate(source, start=1):
        if headers is None:
            if _blank(raw):
                continue
            headers = [header_name(_clean(cell)) for cell in raw]
            _check_headers(headers, columns, required)
            continue
        if _blank(raw):
            continue
        cells = [_clean(cell) for cell in raw[: len(headers)]]
        if any(cell not in (None, "") for cell in raw[len(headers) :]):
            raise TableError(_("Row %(row)d has more cells than the header has columns.") % {"row": number})
        rows.append(cells + [None] * (len(headers) - len(cells)))
        numbers.append(number)
    budget.check_time()
    if headers is None:
        raise TableError(_("The file is empty."))
    if not rows:
        raise TableError(_("The file has no rows to import."))
    keep = [i for i, h in enumerate(headers) if h]
    return Table([headers[i] for i in keep], [[row[i] for i in keep] for row in rows], numbers, encoding)


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


# --- importing through django-import-export ----------------------------------------------


def result_errors(result: Any, numbers: Sequence[int]) -> list[tuple[int | None, str]]:
    """An import-export result's errors as (row number, message), in row order."""
    errors: list[tuple[int | None, str]] = [(None, str(error.error)) for error in result.base_errors]
    for index, row_errors in result.row_errors():
        errors.extend((numbers[index - 1], str(error.error)) for error in row_errors)
    for invalid in result.invalid_rows:
        for column, messages in invalid.error_dict.items():
            prefix = "" if column == "__all__" else f"{column}: "
            errors.extend((numbers[invalid.number - 1], prefix + str(message)) for message in messages)
    errors.sort(key=lambda item: item[0] or 0)
    return errors


def run_import(make_resource: Callable[[], Any], table: Table) -> ImportReport:
    """Check every row in a dry run, then import them all in one transaction — or nothing if any is wrong."""
    dataset = table.dataset()
    options = {"use_transactions": True, "rollback_on_validation_errors": True, "raise_errors": False}
    checked = make_resource().import_data(dataset, dry_run=True, **options)
    report = ImportReport(errors=result_errors(checked, table.numbers))
    if report.errors:
        return report
    with transaction.atomic():
        result = make_resource().import_data(dataset, dry_run=False, **options)
        report.errors = result_errors(result, table.numbers)
        if report.errors:
            # The data changed between the check and the import: undo it all.
            transaction.set_rollback(True)
            return report
    report.created = result.totals.get("new", 0)
    report.updated = result.totals.get("update", 0)
    return report


def format_of(filename: str, chosen: str = "") -> str | None:
    """The format chosen on the form, else the one the file's name tells; None if neither does."""
    if chosen in FORMATS:
        return chosen
    suffix = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return suffix if suffix in FORMATS else None


def page_limits() -> dict[str, int]:
    """The limits as the import pages state them (templates/_import_rules.html)."""
    return {
        "megabytes": MAX_BYTES // (1024 * 1024),
        "rows": MAX_ROWS,
        "columns": MAX_COLUMNS,
        "cells": MAX_CELLS,
        "cell_chars": MAX_CELL_CHARS,
        "seconds": int(MAX_SECONDS),
    }

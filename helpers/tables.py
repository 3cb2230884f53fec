"""One pipeline for every table an organizer imports or exports (CSV, XLSX, JSON; an HTML table on import).

The readers live in helpers/table_reading.py (re-exported here); the runner that checks and
writes an import in batches in events/imports/, the column-mapping step in
events/imports/mapping.py.

Used by every import and export (characters, the catalogue, pools and arsenals,
mass-battle data); a bottom-layer helper, it imports nothing of the apps.

What every import shares (docs/import.md):

- **Encodings:** UTF-8 with or without a byte order mark, UTF-16 with one
  (Excel's "Unicode text"), else Windows Cyrillic cp1251 (what a Russian Excel
  saves as "CSV"), detected from the bytes.
- **Delimiters:** comma, semicolon or tab, counted outside quotes in the header line
  (at most ``SNIFF_CHARS`` characters of it: linear, unlike ``csv.Sniffer``).
- **Row numbers** are the ones a spreadsheet program shows: the header is row 1,
  the first data row is row 2; blank rows are skipped but keep their number. In
  a JSON list the first object is row 2, as if the list were a sheet.
- **Bounded reading:** a file is refused, with a message that names the limit,
  before it can exhaust the server: at most ``MAX_BYTES`` uploaded,
  ``MAX_ROWS`` rows, ``MAX_COLUMNS`` columns, ``MAX_CELLS`` cells in all,
  ``MAX_LINE_CHARS`` characters on one line of a CSV, ``MAX_UNZIPPED_BYTES``
  inside an XLSX (and a compression ratio of ``MAX_ZIP_RATIO``), and
  ``MAX_SECONDS`` of reading. An XLSX sheet's declared dimension is never
  trusted: the sheet's XML is streamed cell by cell (openpyxl's sheet parser), its
  shared strings and style sheet by expat within the same budget, and no XML part
  may hold a DTD (helpers/workbooks.py, helpers/xml_limits.py); JSON is scanned for
  its depth and keys before it is parsed (helpers/json_limits.py).
- **All or nothing, one error format:** events/imports/runner.py checks every row,
  then writes them in short batches, and undoes what it wrote if a batch fails;
  errors are ``(row number or None for the whole file, column or None, message)``,
  shown by ``templates/_import_errors.html`` with the column as the file names it.
- **Formula injection:** exported text cells that a spreadsheet would run as a
  formula get a leading apostrophe (``neutralize``); the import takes it off.
"""

import json
from collections.abc import Sequence
from typing import Any

import tablib

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
from helpers.table_reading import (
    FORMULA_STARTS,
    Table,
    decode,
    fits,
    header_name,
    read_raw,
    read_table,
    sniff_delimiter,
)

__all__ = [
    "CONTENT_TYPES",
    "FORMATS",
    "FORMULA_STARTS",
    "IMPORT_FORMATS",
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
    "Table",
    "TableError",
    "decode",
    "export_bytes",
    "fits",
    "format_of",
    "header_name",
    "neutralize",
    "neutralized",
    "page_limits",
    "read_raw",
    "read_table",
    "result_errors",
    "sniff_delimiter",
]
FORMATS = ("csv", "xlsx", "json")


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


# --- importing through django-import-export ----------------------------------------------


def result_errors(result: Any, numbers: Sequence[int]) -> list[tuple[int | None, str | None, str]]:
    """An import-export result's errors as (row number, column or None, message), in row order.

    The column is the resource field's attribute (the caller names it as the file does).
    """
    errors: list[tuple[int | None, str | None, str]] = [(None, None, str(error.error)) for error in result.base_errors]
    for index, row_errors in result.row_errors():
        errors.extend((numbers[index - 1], None, str(error.error)) for error in row_errors)
    for invalid in result.invalid_rows:
        for column, messages in invalid.error_dict.items():
            key = None if column == "__all__" else str(column)
            errors.extend((numbers[invalid.number - 1], key, str(message)) for message in messages)
    errors.sort(key=lambda item: item[0] or 0)
    return errors


# What an import reads: the export formats, and an HTML table (allrpg.info's «Excel» is one, named .xls).
IMPORT_FORMATS = (*FORMATS, "html")
_SUFFIXES = {"csv": "csv", "xlsx": "xlsx", "json": "json", "xls": "html", "html": "html", "htm": "html"}


def format_of(filename: str, chosen: str = "") -> str | None:
    """The format chosen on the form, else the one the file's name tells; None if neither does."""
    if chosen in IMPORT_FORMATS:
        return chosen
    suffix = filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    return _SUFFIXES.get(suffix)


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

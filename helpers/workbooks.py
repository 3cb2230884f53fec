"""Reading the first sheet of an XLSX workbook, bounded (docs/import.md: spreadsheet bombs).

Nothing of the workbook is parsed before its bounds are checked (issue 27: openpyxl's
``load_workbook`` built the whole style sheet and shared strings first, 25 s and 300 MB
for a 308 KB file):

- the zip's declared sizes (Python's zip reader never inflates a member past them);
- the workbook and its relationships: small parts, parsed whole under ``SMALL_PART``;
- the shared strings, streamed: at most ``MAX_CELLS`` strings, ``MAX_SHARED_CHARS``
  characters in all and ``MAX_CELL_CHARS`` in one, within the reading time;
- the style sheet, streamed for its number formats only (which cells are dates): at
  most ``MAX_STYLE_ELEMENTS`` elements, within the reading time;
- every XML part read without a DTD (helpers/xml_limits.py: no entity expansion);
- the sheet's declared dimension against the limits, then its XML streamed cell by
  cell with openpyxl's sheet parser: no row is ever built from the declared dimension
  or padded out to a far-away cell.
"""

from __future__ import annotations

import io
import posixpath
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree
from xml.parsers import expat

from django.utils.translation import gettext as _

from helpers.table_limits import (
    MAX_CELL_CHARS,
    MAX_CELLS,
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_UNZIPPED_BYTES,
    MAX_ZIP_RATIO,
    Budget,
    TableError,
)
from helpers.xml_limits import CHUNK, NoDTD, local, small_tree
from helpers.xml_limits import refused as xml_refused

SMALL_PART = 1024 * 1024
MAX_SHARED_CHARS = 4_000_000
MAX_STYLE_ELEMENTS = 50_000
# A shared string is a few elements (runs, their properties); more than this in all is no sheet.
MAX_SHARED_ELEMENTS = 10 * MAX_CELLS
_OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"


def unreadable() -> TableError:
    return TableError(_("The file could not be read as an XLSX workbook."))


@dataclass
class Book:
    sheet: str
    shared_strings: str | None
    styles: str | None
    epoch: Any


def _open(content: bytes) -> zipfile.ZipFile:
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise unreadable() from None
    # Python's zip reader stops at each member's declared size, so checking the declared
    # sizes bounds what decompression can produce (a zip bomb is refused unopened).
    unzipped = sum(m.file_size for m in members)
    packed = max(1, sum(m.compress_size for m in members))
    if unzipped > MAX_UNZIPPED_BYTES:
        raise TableError(
            _("The workbook unpacks to %(size)d MB, more than an import may read (%(limit)d MB).")
            % {"size": unzipped // (1024 * 1024), "limit": MAX_UNZIPPED_BYTES // (1024 * 1024)}
        )
    if unzipped > 1024 * 1024 and unzipped / packed > MAX_ZIP_RATIO:
        # Real sheets pack 5 to 50 times; hundreds of times is a file built to unpack huge.
        raise TableError(_("The workbook is packed far more tightly than a real spreadsheet; it is not read."))
    return archive


def _relations(archive: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    """A part's relationships: id -> (type, the target's path in the package)."""
    folder, name = posixpath.split(part)
    tree = small_tree(archive, posixpath.join(folder, "_rels", name + ".rels"), SMALL_PART)
    found: dict[str, tuple[str, str]] = {}
    for item in tree if tree is not None else []:
        target = item.get("Target", "")
        if local(item.tag) != "Relationship" or item.get("TargetMode") == "External" or not target:
            continue
        path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
        found[item.get("Id", "")] = (item.get("Type", ""), path)
    return found


def _book(archive: zipfile.ZipFile) -> Book:
    from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900

    root = {kind: path for kind, path in _relations(archive, "").values()}
    workbook = root.get(_OFFICE + "officeDocument", "xl/workbook.xml")
    tree = small_tree(archive, workbook, SMALL_PART)
    if tree is None:
        raise unreadable()
    relations = _relations(archive, workbook)
    sheet_id = epoch = None
    for element in tree.iter():
        name = local(element.tag)
        if name == "workbookPr":
            epoch = CALENDAR_MAC_1904 if element.get("date1904") in ("1", "true") else None
        elif name == "sheet" and sheet_id is None:
            sheet_id = next((v for k, v in element.attrib.items() if k.endswith("}id")), None)
    by_type = {kind.rsplit("/", 1)[-1]: path for kind, path in relations.values()}
    sheet = relations.get(sheet_id or "", ("", ""))[1]
    if not sheet or sheet not in archive.namelist():
        raise unreadable()
    return Book(sheet, by_type.get("sharedStrings"), by_type.get("styles"), epoch or CALENDAR_WINDOWS_1900)


def _parse(
    archive: zipfile.ZipFile,
    name: str | None,
    budget: Budget,
    start: Callable[[str, dict[str, str]], None],
    end: Callable[[str], None],
    text: Callable[[str], None] | None = None,
) -> None:
    """Stream a part through expat's callbacks (no tree is built), without a DTD, within the time budget."""
    if not name or name not in archive.namelist():
        return
    parser = expat.ParserCreate()
    parser.buffer_text = True

    def no_dtd(*_args: Any) -> None:
        raise xml_refused()

    parser.StartDoctypeDeclHandler = no_dtd
    parser.EntityDeclHandler = no_dtd
    parser.StartElementHandler = lambda tag, attrs: start(local(tag), attrs)
    parser.EndElementHandler = lambda tag: end(local(tag))
    if text is not None:
        parser.CharacterDataHandler = text
    try:
        with NoDTD(archive.open(name)) as source:
            while chunk := source.read(CHUNK):
                parser.Parse(chunk, False)
                budget.check_time()
            parser.Parse(b"", True)
    except expat.ExpatError:
        raise unreadable() from None


class _SharedStrings:
    """The shared strings part, as expat reads it: the text of each <si> (its <t>, or its runs' <t>)."""

    def __init__(self) -> None:
        self.strings: list[str] = []
        self.parts: list[str] = []
        self.chars = self.elements = 0
        self.in_text = self.in_phonetic = False

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        self.elements += 1
        if self.elements > MAX_SHARED_ELEMENTS:
            raise self.too_many()
        if tag == "sst":
            declared = max(_number(attrs.get("count")), _number(attrs.get("uniqueCount")))
            if declared > MAX_CELLS:
                raise self.too_many()
        elif tag == "si":
            self.parts = []
        elif tag == "rPh":
            self.in_phonetic = True  # a reading hint above the text, not the text
        elif tag == "t":
            self.in_text = not self.in_phonetic

    def end(self, tag: str) -> None:
        if tag == "t":
            self.in_text = False
        elif tag == "rPh":
            self.in_phonetic = False
        elif tag == "si":
            value = "".join(self.parts).replace("x005F_", "")
            self.chars += len(value)
            if len(value) > MAX_CELL_CHARS:
                raise TableError(_("A cell holds more than %(limit)d characters.") % {"limit": MAX_CELL_CHARS})
            if len(self.strings) >= MAX_CELLS or self.chars > MAX_SHARED_CHARS:
                raise self.too_many()
            self.strings.append(value)

    def text(self, data: str) -> None:
        if self.in_text:
            self.parts.append(data)

    @staticmethod
    def too_many() -> TableError:
        return TableError(
            _("The workbook holds more than %(limit)d shared texts or %(chars)d characters; it is not read.")
            % {"limit": MAX_CELLS, "chars": MAX_SHARED_CHARS}
        )


def _number(value: str | None) -> int:
    try:
        return int(value or 0)
    except ValueError:
        return 0


def shared_strings(archive: zipfile.ZipFile, name: str | None, budget: Budget) -> list[str]:
    reader = _SharedStrings()
    _parse(archive, name, budget, reader.start, reader.end, reader.text)
    return reader.strings


def date_styles(archive: zipfile.ZipFile, name: str | None, budget: Budget) -> tuple[set[int], set[int]]:
    """Which cell styles show dates and which durations: all a value reader needs of the style sheet."""
    from openpyxl.styles.numbers import builtin_format_code, is_date_format, is_timedelta_format

    custom: dict[int, str] = {}
    cell_formats: list[int] = []
    elements = [0]
    where: list[str] = []

    def too_many() -> TableError:
        return TableError(
            _("The workbook's style sheet has more than %(limit)d entries; no spreadsheet needs so many.")
            % {"limit": MAX_STYLE_ELEMENTS}
        )

    def start(tag: str, attrs: dict[str, str]) -> None:
        elements[0] += 1
        if elements[0] > MAX_STYLE_ELEMENTS or _number(attrs.get("count")) > MAX_STYLE_ELEMENTS:
            raise too_many()
        if tag == "numFmt":
            custom[_number(attrs.get("numFmtId"))] = attrs.get("formatCode") or ""
        elif tag == "xf" and where and where[-1] == "cellXfs":
            cell_formats.append(_number(attrs.get("numFmtId")))
        where.append(tag)

    def end(tag: str) -> None:
        where.pop()

    _parse(archive, name, budget, start, end)
    dates, durations = set(), set()
    for index, number in enumerate(cell_formats):
        code = custom.get(number) or builtin_format_code(number) or "General"
        if is_date_format(code):
            dates.add(index)
        if is_timedelta_format(code):
            durations.add(index)
    return dates, durations


def xlsx_rows(content: bytes, budget: Budget) -> Iterator[list[Any]]:
    from openpyxl.worksheet._reader import WorkSheetParser

    archive = _open(content)
    try:
        book = _book(archive)
        shared = shared_strings(archive, book.shared_strings, budget)
        dates, durations = date_styles(archive, book.styles, budget)
        with NoDTD(archive.open(book.sheet)) as head:
            declared = WorkSheetParser(head, []).parse_dimensions()
    except TableError:
        raise
    except (ValueError, KeyError, zipfile.BadZipFile, ElementTree.ParseError, OSError):
        raise unreadable() from None
    if declared is not None and (declared[2] > MAX_COLUMNS or declared[3] > MAX_ROWS + 1):
        # A sheet that says it is A1:XFD1048576 is a bomb or a broken file: refused unread.
        raise TableError(
            _(
                "The sheet declares %(rows)d rows and %(columns)d columns; an import reads at most %(max_rows)d rows "
                "and %(max_columns)d columns."
            )
            % {"rows": declared[3], "columns": declared[2], "max_rows": MAX_ROWS, "max_columns": MAX_COLUMNS}
        )
    return _rows(archive, book, shared, dates, durations, budget)


def _rows(
    archive: zipfile.ZipFile, book: Book, shared: list[str], dates: set[int], durations: set[int], budget: Budget
) -> Iterator[list[Any]]:
    # The sheet's XML, row by row and cell by cell: neither the declared dimension
    # (A1:XFD1048576 in a 5 KB file) nor a far-away cell makes us build empty rows.
    from openpyxl.worksheet._reader import WorkSheetParser

    expected = 1
    try:
        with NoDTD(archive.open(book.sheet)) as source:
            parser = WorkSheetParser(
                source, shared, data_only=True, epoch=book.epoch, date_formats=dates, timedelta_formats=durations
            )
            for index, cells in parser.parse():
                while expected < index:  # rows the file skips are blank rows
                    budget.row(0)
                    yield []
                    expected += 1
                width = max((cell["column"] for cell in cells), default=0)
                budget.row(width)
                row: list[Any] = [None] * width
                for cell in cells:
                    row[cell["column"] - 1] = cell["value"]
                yield row
                expected = index + 1
    except TableError:
        raise
    except Exception as exc:
        raise unreadable() from exc
    finally:
        archive.close()

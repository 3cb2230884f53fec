"""Reading the first sheet of an XLSX workbook, bounded (docs/import.md: spreadsheet bombs).

The zip's declared sizes are checked before any member is opened (Python's zip
reader never inflates a member past its declared size), the sheet's declared
dimension against the limits, and then the sheet's XML is streamed cell by cell
with openpyxl's read-only parser: no row is ever built from the declared
dimension or padded out to a far-away cell.
"""

import io
import zipfile
from collections.abc import Iterator
from typing import Any

from django.utils.translation import gettext as _

from helpers.table_limits import MAX_COLUMNS, MAX_ROWS, MAX_UNZIPPED_BYTES, MAX_ZIP_RATIO, Budget, TableError


def xlsx_rows(content: bytes, budget: Budget) -> Iterator[list[Any]]:
    from openpyxl import load_workbook
    from openpyxl.worksheet._reader import WorkSheetParser

    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise TableError(_("The file could not be read as an XLSX workbook.")) from None
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
    try:
        book = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        sheet = book.worksheets[0]
        source = book._archive.open(sheet._worksheet_path)
        shared = sheet._shared_strings
    except Exception as exc:  # openpyxl raises many kinds for a broken file
        raise TableError(_("The file could not be read as an XLSX workbook.")) from exc

    try:
        with book._archive.open(sheet._worksheet_path) as head:
            declared = WorkSheetParser(head, []).parse_dimensions()
    except Exception:
        declared = None
    if declared is not None and (declared[2] > MAX_COLUMNS or declared[3] > MAX_ROWS + 1):
        # A sheet that says it is A1:XFD1048576 is a bomb or a broken file: refused unread.
        source.close()
        book.close()
        raise TableError(
            _(
                "The sheet declares %(rows)d rows and %(columns)d columns; an import reads at most %(max_rows)d rows "
                "and %(max_columns)d columns."
            )
            % {"rows": declared[3], "columns": declared[2], "max_rows": MAX_ROWS, "max_columns": MAX_COLUMNS}
        )

    def rows() -> Iterator[list[Any]]:
        # The sheet's XML, row by row and cell by cell: neither the declared dimension
        # (A1:XFD1048576 in a 5 KB file) nor a far-away cell makes us build empty rows.
        expected = 1
        try:
            with source:
                parser = WorkSheetParser(
                    source, shared, data_only=True, epoch=book.epoch, date_formats=book._date_formats
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
            raise TableError(_("The file could not be read as an XLSX workbook.")) from exc
        finally:
            book.close()

    return rows()

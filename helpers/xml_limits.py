"""XML inside an uploaded workbook, read with no document type definition (issues 22 and 27).

A spreadsheet's XML never carries a DTD; a file that does is built to make the parser
expand entities ("billion laughs": ten entities of ten, 10⁹ copies of a word from 1 KB) or
fetch something. ``NoDTD`` wraps a zip member as the parser reads it and refuses the file at
the first ``<!DOCTYPE`` or ``<!ENTITY``, before the parser sees the chunk that holds it; the
scan is linear and bounded by what is read. ``small_tree`` parses a small part (the
workbook, its relationships) whole, after the same check and a size bound.
"""

from __future__ import annotations

import zipfile
from typing import IO, Any
from xml.etree import ElementTree

from django.utils.translation import gettext as _

from helpers.table_limits import TableError

CHUNK = 64 * 1024
_MARKS = tuple(
    mark.encode(encoding) for mark in ("<!DOCTYPE", "<!ENTITY") for encoding in ("utf-8", "utf-16-le", "utf-16-be")
)
_OVERLAP = max(len(mark) for mark in _MARKS)


def refused() -> TableError:
    return TableError(_("The file holds an XML document type definition (entities), which no spreadsheet has."))


def check_no_dtd(data: bytes) -> None:
    if any(mark in data for mark in _MARKS):
        raise refused()


class NoDTD:
    """A binary stream that refuses its content at the first sign of a DTD (what ``iterparse`` reads)."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.tail = b""

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            parts = []
            while chunk := self.read(CHUNK):
                parts.append(chunk)
            return b"".join(parts)
        chunk = self.raw.read(min(size, CHUNK))
        check_no_dtd(self.tail + chunk)
        self.tail = chunk[-_OVERLAP:]
        return chunk

    def close(self) -> None:
        self.raw.close()

    def __enter__(self) -> NoDTD:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def local(tag: str) -> str:
    """An element's or attribute's name without its namespace (strict and transitional OOXML alike)."""
    return tag.rsplit("}", 1)[-1]


def small_tree(archive: zipfile.ZipFile, name: str, limit: int) -> ElementTree.Element | None:
    """A small part of the package parsed whole (None if absent); refused if larger than ``limit``."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    if info.file_size > limit:
        raise TableError(_("The workbook's part %(name)s is larger than a spreadsheet's.") % {"name": name})
    data = archive.read(info)
    check_no_dtd(data)
    try:
        return ElementTree.fromstring(data)
    except ElementTree.ParseError:
        raise TableError(_("The file could not be read as an XLSX workbook.")) from None

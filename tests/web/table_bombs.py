"""Hostile table files of issues 22 and 27, built in memory (tests/web/test_import_bounds.py).

Each is small enough to pass the upload limit, so only the reader's bounds can stop it.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable

import openpyxl

SHEET_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def workbook(rows: list[list]) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def with_part(template: bytes, name: str, write: Callable[[Callable[[bytes], object]], None]) -> bytes:
    """A copy of a workbook whose part ``name`` is written (streamed, deflated) by ``write``."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(template)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        names = src.namelist()
        for item in src.infolist():
            if item.filename == name:
                continue
            dst.writestr(item, src.read(item.filename))
        with dst.open(name, "w", force_zip64=True) as part:
            write(part.write)
        if name not in names and name == "xl/sharedStrings.xml":
            pass  # openpyxl's own template always has its shared strings part
    return out.getvalue()


def sniffer_csv() -> bytes:
    """A 99 KB header line on which csv.Sniffer's quote regex backtracks for minutes (~4x per doubling)."""
    return (',"x' * 33_000 + "\n").encode()


def wide_json() -> bytes:
    """One object of 150,000 keys in 1.99 MB: reading its header was quadratic (203 s)."""
    keys = 150_000
    return json.dumps([{f"k{n:06d}": n % 10 for n in range(keys)}], separators=(",", ":")).encode()


def deep_json() -> bytes:
    """Lists nested 200,000 deep (400 KB)."""
    return b"[" * 200_000 + b"]" * 200_000


def styles_workbook(declared: bool = True) -> bytes:
    """A workbook whose style sheet has 250,000 cell formats, 21 MB unpacked from some 200 KB.

    Within the zip bounds (25 MB, 200 times); openpyxl's ``load_workbook`` built every one of them
    before any budget applied (the issue's 308 KB styles.xlsx: 25 s, 300 MB).
    """
    xf = b'<xf numFmtId="%d" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'

    def styles(write: Callable[[bytes], object]) -> None:
        write(
            f'<styleSheet xmlns="{SHEET_NS}"><numFmts count="1"><numFmt numFmtId="164" formatCode="0.0"/></numFmts>'
            '<fonts count="1"><font/></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders>'
            '<cellStyleXfs count="1"><xf/></cellStyleXfs>'.encode()
        )
        write(b'<cellXfs count="250000">' if declared else b"<cellXfs>")
        for n in range(250_000):
            write(xf % (n % 50))
        write(b"</cellXfs></styleSheet>")

    return with_part(workbook([["name"], ["Olga"]]), "xl/styles.xml", styles)


def shared_strings_workbook(declared: bool = True) -> bytes:
    """A workbook whose shared strings hold 700,000 texts (the sheet uses one), within the zip bounds."""

    def strings(write: Callable[[bytes], object]) -> None:
        count = 700_000
        counts = f' count="{count}" uniqueCount="{count}"' if declared else ""
        write(f'<sst xmlns="{SHEET_NS}"{counts}><si><t>name</t></si>'.encode())
        for n in range(count):
            write(b"<si><t>%d</t></si>" % n)
        write(b"</sst>")

    def sheet(write: Callable[[bytes], object]) -> None:
        write(f'<worksheet xmlns="{SHEET_NS}"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row>'.encode())
        write(b"</sheetData></worksheet>")

    book = with_part(workbook([["name"]]), "xl/worksheets/sheet1.xml", sheet)
    book = with_part(book, "xl/sharedStrings.xml", strings)
    return _with_shared_strings_registered(book)


def _with_shared_strings_registered(book: bytes) -> bytes:
    """openpyxl writes no shared strings part for a sheet of inline strings: register the one added."""
    out = io.BytesIO()
    relation = (
        '<Relationship Id="rIdSst" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
        'sharedStrings" Target="sharedStrings.xml"/></Relationships>'
    )
    content_type = (
        '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.'
        'spreadsheetml.sharedStrings+xml"/></Types>'
    )
    with zipfile.ZipFile(io.BytesIO(book)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "xl/_rels/workbook.xml.rels" and b"sharedStrings" not in data:
                data = data.replace(b"</Relationships>", relation.encode())
            if item.filename == "[Content_Types].xml" and b"sharedStrings" not in data:
                data = data.replace(b"</Types>", content_type.encode())
            dst.writestr(item, data)
    return out.getvalue()


LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + "".join(f'<!ENTITY lol{n} "{("&lol" + (str(n - 1) if n > 1 else "") + ";") * 10}">' for n in range(1, 10))
    + "]>"
)


def billion_laughs_workbook(part: str = "xl/worksheets/sheet1.xml") -> bytes:
    """A workbook one of whose XML parts expands ten entities of ten: 10^9 "lol"s from under 1 KB."""

    def write_part(write: Callable[[bytes], object]) -> None:
        if part.endswith("sheet1.xml"):
            body = f'<worksheet xmlns="{SHEET_NS}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>&lol9;</t>'
            write((LAUGHS + body + "</is></c></row></sheetData></worksheet>").encode())
        elif part.endswith("sharedStrings.xml"):
            write((LAUGHS + f'<sst xmlns="{SHEET_NS}"><si><t>&lol9;</t></si></sst>').encode())
        else:
            original = zipfile.ZipFile(io.BytesIO(workbook([["name"]]))).read(part).decode()
            _head, rest = original.split("?>", 1) if original.startswith("<?xml") else ("", original)
            write((LAUGHS + rest.replace("</", "<x>&lol9;</x></", 1)).encode())

    book = with_part(workbook([["name"]]), part, write_part)
    return _with_shared_strings_registered(book) if part.endswith("sharedStrings.xml") else book


def billion_laughs_html() -> bytes:
    """allrpg's «Excel» is an HTML table: the same entities in a file named .xls."""
    return (LAUGHS + "<html><body><table><tr><th>Имя</th></tr><tr><td>&lol9;</td></tr></table></body></html>").encode()


def dimension_bomb(header: str = "name") -> bytes:
    """The 4.7 KB workbook of issues 13 and 22: one real row, a declared sheet of A1:XFD1048576."""

    def sheet(write: Callable[[bytes], object]) -> None:
        write(f'<worksheet xmlns="{SHEET_NS}"><dimension ref="A1:XFD1048576"/><sheetData>'.encode())
        write(f'<row r="1"><c r="A1" t="inlineStr"><is><t>{header}</t></is></c></row>'.encode())
        write(b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData></worksheet>')

    return with_part(workbook([[header]]), "xl/worksheets/sheet1.xml", sheet)

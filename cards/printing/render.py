"""Prints as HTML (always) and as PDF (when WeasyPrint and its Pango libraries are installed).

The HTML of a print is the same document a browser prints with its own dialog, so a
machine without WeasyPrint's system libraries still prints; the PDF views then say so
instead of failing (``PdfUnavailable``).
"""

from __future__ import annotations

import io
from collections.abc import Iterable
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string

from cards.printing import content, layout
from cards.printing.content import CharacterSheet

PRINT_CSS = "css/print.css"


class PdfUnavailable(RuntimeError):
    """WeasyPrint or its system libraries (Pango) are missing on this server."""


@lru_cache(maxsize=1)
def _weasyprint() -> Any:
    try:
        import weasyprint
    except (ImportError, OSError) as error:  # OSError: the Python package is there, Pango is not
        raise PdfUnavailable(str(error)) from error
    return weasyprint


@lru_cache(maxsize=1)
def _stylesheet() -> Any:
    path = finders.find(PRINT_CSS)
    return _weasyprint().CSS(filename=path)


def pdf_available() -> bool:
    try:
        _weasyprint()
    except PdfUnavailable:
        return False
    return True


@lru_cache(maxsize=1)
def _fetcher_class() -> Any:
    urls = _weasyprint().urls

    class Fetcher(urls.URLFetcher):  # type: ignore[name-defined,misc]
        """WeasyPrint's URL fetcher, which also answers ``qr:<address>`` with its QR code (content.qr_image)."""

        def fetch(self, url: str, headers: Any = None) -> Any:
            if url.startswith(content.QR_SCHEME):
                png = content.qr_png(url.removeprefix(content.QR_SCHEME))
                return urls.URLFetcherResponse(url, png, {"Content-Type": "image/png"})
            return super().fetch(url, headers)

    return Fetcher


def html_to_pdf(html: str) -> bytes:
    weasyprint = _weasyprint()
    fetcher = _fetcher_class()()
    document = weasyprint.HTML(string=html, base_url=str(settings.BASE_DIR), url_fetcher=fetcher)
    out = io.BytesIO()
    document.write_pdf(out, stylesheets=[_stylesheet()])
    return out.getvalue()


def card_pages(cards: list[Any], first_number: int = 1) -> list[layout.Page[Any]]:
    return list(layout.sheets(cards, duplex=True, first_number=first_number))


def render_document(
    *,
    title: str,
    event: Any,
    sheets: Iterable[CharacterSheet] = (),
    cards: list[Any] | None = None,
    pages: list[layout.Page[Any]] | None = None,
    rosters: Iterable[Any] = (),
    pad_to_even: bool = False,
    first_number: int = 1,
    blank_only: bool = False,
    for_pdf: bool = False,
    stamped: bool = False,
    divider: tuple[str, int] | None = None,
    envelopes: Iterable[Any] = (),
) -> str:
    """One printable document: character sheets first, then card fronts and backs, then army rosters.

    The cards are ``cards`` laid out nine to a sheet from ``first_number``, or ``pages``
    already laid out (``layout.sheets``); each printed item names its ``front_template`` and
    ``back_template`` (content.PrintedCard, mass.PrintedMagicCard). ``stamped``: a PDF whose
    card faces pdf.document_pdf draws in afterwards, so the fronts hold only their foot.
    ``pad_to_even`` adds a blank page after an odd number of sheets, so that in a
    duplex print the card fronts start on the front of a paper sheet. ``divider``: a grouped
    run's page naming a group and its count (a blank page behind it); ``envelopes``: a page of
    a DL envelope each, last (cards/printing/groups.py).
    """
    sheets = list(sheets)
    if pages is None:
        pages = card_pages(cards or [], first_number)
    context = {
        "title": title,
        "event": event,
        "sheets": sheets,
        "blank_after_sheets": blank_after(len(sheets), bool(pages), pad_to_even, blank_only),
        "pages": pages,
        "rosters": list(rosters),
        "divider": divider,
        "envelopes": list(envelopes),
        "for_pdf": for_pdf,
        "stamped": stamped,
        "emblem": emblem_letters(event.name if event else ""),
    }
    return render_to_string("print/document.html", context)


def render_faces(faces: list[Any], event: Any) -> str:
    """One page of a card's size for each item's face (pdf.document_pdf stamps them on the fronts)."""
    context = {"title": "", "event": event, "faces": faces, "for_pdf": True}
    return render_to_string("print/faces.html", context)


def blank_after(sheets: int, cards: bool, pad_to_even: bool, blank_only: bool) -> bool:
    return blank_only or (pad_to_even and sheets % 2 == 1 and cards)


def emblem_letters(name: str) -> str:
    """The event's emblem on the card backs: the initials of its name's first two words."""
    words = [w for w in name.replace("«", " ").replace("»", " ").split() if w[:1].isalnum()]
    return "".join(w[0].upper() for w in words[:2]) or "S"

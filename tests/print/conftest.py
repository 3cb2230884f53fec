"""Looking at printed PDFs as a print shop would: pages, size, text, QR codes, positions.

The tools are Debian's poppler-utils (pdfinfo, pdftoppm, pdftotext) and zbar-tools
(zbarimg); scripts/test.sh installs them in CI, where a skip for lack of them fails.
"""

from __future__ import annotations

import logging

import pytest

from tests.print.pdf_kit import Pdf
from tests.print.print_kit import PUBLIC


@pytest.fixture(autouse=True)
def public_address(settings):
    settings.SUMRAK_PUBLIC_URL = PUBLIC
    logging.getLogger("weasyprint").setLevel(logging.WARNING)
    logging.getLogger("fontTools").setLevel(logging.WARNING)


@pytest.fixture
def weasyprint_ready():
    from cards.printing import render

    if not render.pdf_available():
        pytest.skip("WeasyPrint's libraries (Pango) are not installed")


@pytest.fixture
def save_pdf(tmp_path):
    def save(content: bytes, name: str = "print.pdf") -> Pdf:
        assert content.startswith(b"%PDF"), content[:200]
        path = tmp_path / name
        path.write_bytes(content)
        return Pdf(path)

    return save

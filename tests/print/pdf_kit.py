"""A printed PDF read back as a print shop would: pages, sizes, text, words' boxes, fonts, QR codes.

Shared by tests/print (through its conftest's fixtures) and the browser tests that print.
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from tests.print.print_kit import tool

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@dataclass
class Pdf:
    path: Path

    def info(self) -> dict[str, str]:
        out = subprocess.run([tool("pdfinfo"), str(self.path)], capture_output=True, text=True, check=True).stdout
        return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)

    @property
    def pages(self) -> int:
        return int(self.info()["Pages"].strip())

    def page_sizes(self) -> set[tuple[float, float]]:
        out = subprocess.run(
            [tool("pdfinfo"), "-f", "1", "-l", str(self.pages), str(self.path)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        sizes = re.findall(r"size:\s+([\d.]+) x ([\d.]+) pts", out)
        return {(round(float(w), 1), round(float(h), 1)) for w, h in sizes}

    def text(self, page: int | None = None) -> str:
        args = [tool("pdftotext"), "-layout"]
        if page is not None:
            args += ["-f", str(page), "-l", str(page)]
        return subprocess.run([*args, str(self.path), "-"], capture_output=True, text=True, check=True).stdout

    def words(self, page: int) -> list[tuple[str, float, float, float, float]]:
        """Every word of a page with its box in points: (word, x_min, y_min, x_max, y_max)."""
        html = subprocess.run(
            [tool("pdftotext"), "-bbox", "-f", str(page), "-l", str(page), str(self.path), "-"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        found = re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', html
        )
        return [(w, float(a), float(b), float(c), float(d)) for a, b, c, d, w in found]

    def fonts(self) -> set[str]:
        """The names of the fonts the PDF embeds, without their subset prefix (pdffonts)."""
        out = subprocess.run([tool("pdffonts"), str(self.path)], capture_output=True, text=True, check=True).stdout
        return {line.split()[0].split("+")[-1] for line in out.splitlines()[2:] if line.strip()}

    def _render(self, page: int, dpi: int, stem: Path) -> Path:
        """Page ``page`` rendered by pdftoppm to ``stem``.png."""
        subprocess.run(
            [
                tool("pdftoppm"),
                "-png",
                "-r",
                str(dpi),
                "-f",
                str(page),
                "-l",
                str(page),
                "-singlefile",
                str(self.path),
                str(stem),
            ],
            check=True,
        )
        return stem.with_suffix(".png")

    def png(self, page: int, name: str, dpi: int = 110) -> Path:
        """Page ``page`` as a PNG under test-artifacts/ (the screenshot of a layout)."""
        ARTIFACTS.mkdir(exist_ok=True)
        return self._render(page, dpi, ARTIFACTS / name)

    def qr_codes(self, page: int, dpi: int = 150) -> list[str]:
        """Every QR code zbarimg finds on a page (rendered to a temporary PNG)."""
        image = self._render(page, dpi, self.path.with_name(f"{self.path.stem}-qr-{page}"))
        decoded = subprocess.run([tool("zbarimg"), "-q", "--raw", str(image)], capture_output=True, text=True)
        # zbarimg exits 4 when it finds no code at all: that is an empty list, not an error.
        assert decoded.returncode in (0, 4), decoded.stderr
        return [line for line in decoded.stdout.splitlines() if line.strip()]

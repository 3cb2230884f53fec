"""Small SVG charts drawn on the server (issue 15): no chart library, nothing loaded from outside.

Each chart is plain SVG text with its numbers also written as labels, so it
reads on a tablet in the sun, prints in black and white, and a screen reader
gets the same figures from the table next to it.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe


def bars(values: Sequence[tuple[str, float]], *, title: str, height: int = 180, unit: str = "") -> SafeString:
    """A vertical bar chart: one bar per (label, value)."""
    if not values:
        return mark_safe("")
    width = max(640, 48 * len(values) + 40)
    top = max(v for _label, v in values) or 1
    inner = height - 50
    bar = min(64.0, (width - 40) / len(values))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" viewBox="0 0 {width} {height}" '
        f'width="100%" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    for i, (label, value) in enumerate(values):
        h = inner * value / top
        x = 30 + i * bar
        y = 20 + inner - h
        parts.append(
            f'<rect x="{x + 3:.1f}" y="{y:.1f}" width="{bar - 6:.1f}" height="{h:.1f}" class="chart-bar"/>'
            f'<text x="{x + bar / 2:.1f}" y="{y - 4:.1f}" text-anchor="middle" class="chart-value">'
            f"{value:g}{escape(unit)}</text>"
            f'<text x="{x + bar / 2:.1f}" y="{height - 12}" text-anchor="middle" class="chart-label">'
            f"{escape(label)}</text>"
        )
    parts.append(f'<line x1="28" y1="{20 + inner}" x2="{width - 8}" y2="{20 + inner}" class="chart-axis"/></svg>')
    return mark_safe("".join(parts))  # every text inside was escaped above


def heat_colour(share: float) -> str:
    """A cell's background for a win share: red (0) through white (0.5) to green (1), readable in print."""
    share = min(1.0, max(0.0, share))
    if share >= 0.5:
        k = (share - 0.5) * 2
        red, green, blue = int(255 - 120 * k), int(255 - 40 * k), int(255 - 120 * k)
    else:
        k = (0.5 - share) * 2
        red, green, blue = int(255 - 30 * k), int(255 - 130 * k), int(255 - 130 * k)
    return f"#{red:02x}{green:02x}{blue:02x}"


def heat_map(labels: Sequence[str], share: dict[tuple[str, str], float | None], *, title: str) -> SafeString:
    """Rows: the arsenal that declared the fight; columns: its opponent; a cell: the row's win share.

    Drawn as SVG because the site's CSP allows no inline styles: colours are SVG
    attributes here, and every cell also carries its number.
    """
    if not labels:
        return mark_safe("")
    cell, left, head = 64, 250, 170
    size = len(labels)
    width, height = left + cell * size + 10, head + cell * size + 10
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart heat" role="img" viewBox="0 0 {width} {height}" '
        f'width="100%" aria-label="{escape(title)}"><title>{escape(title)}</title>'
    ]
    for j, label in enumerate(labels):
        x = left + j * cell + cell / 2
        parts.append(
            f'<text transform="translate({x:.0f},{head - 6}) rotate(-45)" class="chart-label">'
            f"{escape(_short(label))}</text>"
        )
    for i, row in enumerate(labels):
        y = head + i * cell
        parts.append(
            f'<text x="{left - 6}" y="{y + cell / 2 + 4:.0f}" text-anchor="end" class="chart-label">'
            f"{escape(_short(row))}</text>"
        )
        for j, column in enumerate(labels):
            value = share.get((row, column))
            x = left + j * cell
            fill = "#eeeeee" if value is None else heat_colour(value)
            text = "—" if value is None else f"{round(100 * value)}%"
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell - 2}" height="{cell - 2}" fill="{fill}" stroke="#888"/>'
                f'<text x="{x + cell / 2 - 1:.0f}" y="{y + cell / 2 + 4:.0f}" text-anchor="middle" '
                f'fill="#111" class="chart-value">{text}</text>'
            )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text inside was escaped above


def _short(label: str, limit: int = 30) -> str:
    return label if len(label) <= limit else label[: limit - 1] + "…"

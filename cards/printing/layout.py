"""The printed sheet: A4 portrait, 3 x 3 cards of 63 x 88 mm (the common playing-card size).

Cards touch each other, so one cut serves two cards; the cut marks sit in the
margins on every grid line. Duplex backs are printed for a long-edge flip: the
paper turns over around its vertical axis, so the card in column 0 of the front
has its back in the last column of the back page, on the same row. The grid is
centred on the page, so a mirrored column lands exactly behind its front.
Positions are CSS classes (``slot-r{row}c{col}``, static/css/print.css), not
inline styles: the browser version of a print runs under the site's CSP.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

PAGE_W_MM = 210.0
PAGE_H_MM = 297.0
CARD_W_MM = 63.0
CARD_H_MM = 88.0
COLS = 3
ROWS = 3
PER_SHEET = COLS * ROWS
MARGIN_X_MM = (PAGE_W_MM - COLS * CARD_W_MM) / 2  # 10.5
MARGIN_Y_MM = (PAGE_H_MM - ROWS * CARD_H_MM) / 2  # 16.5


@dataclass(frozen=True)
class Slot[T]:
    item: T
    number: int  # 1-based across the whole print: the same on the front and on the back
    row: int
    col: int

    @property
    def key(self) -> str:
        return f"r{self.row}c{self.col}"

    @property
    def css(self) -> str:
        return f"slot-{self.key}"

    @property
    def left_mm(self) -> float:
        return MARGIN_X_MM + self.col * CARD_W_MM

    @property
    def top_mm(self) -> float:
        return MARGIN_Y_MM + self.row * CARD_H_MM


@dataclass(frozen=True)
class Page[T]:
    side: str  # "front" or "back"
    slots: list[Slot[T]]


def front_slot[T](item: T, number: int, index: int) -> Slot[T]:
    return Slot(item, number, index // COLS, index % COLS)


def back_slot[T](front: Slot[T]) -> Slot[T]:
    """Behind ``front`` after a long-edge flip: same row, mirrored column."""
    return Slot(front.item, front.number, front.row, COLS - 1 - front.col)


def sheets[T](items: Sequence[T], duplex: bool = True, first_number: int = 1) -> Iterator[Page[T]]:
    """Fronts of up to nine cards, each followed (duplex) by their backs."""
    for start in range(0, len(items), PER_SHEET):
        chunk = items[start : start + PER_SHEET]
        fronts = [front_slot(item, first_number + start + i, i) for i, item in enumerate(chunk)]
        yield Page("front", fronts)
        if duplex:
            yield Page("back", [back_slot(slot) for slot in fronts])


def sheet_count(cards: int, duplex: bool = True) -> int:
    """Pages needed for ``cards`` cards."""
    sheets_needed = -(-cards // PER_SHEET)
    return sheets_needed * (2 if duplex else 1)


# Cut marks: short strokes in the margins on each grid line, off the cards themselves (cut_marks_svg).
CUT_X_MM = [MARGIN_X_MM + c * CARD_W_MM for c in range(COLS + 1)]
CUT_Y_MM = [MARGIN_Y_MM + r * CARD_H_MM for r in range(ROWS + 1)]


FOOT_INSET_MM = 3.0  # the owner and number: 3 mm from a card's left and bottom edges

# Where the cut marks run: 9 mm strokes above and below the grid, 5.5 mm strokes beside it.
CUT_V_MM = ((5.0, 14.0), (283.0, 292.0))
CUT_H_MM = ((4.0, 9.5), (200.5, 206.0))
CUT_STROKE_MM = 0.2


def cut_marks_svg() -> str:
    """static/css/print-cut-marks.svg: the cut marks of a card page as one A4 background image.

    One image per page instead of sixteen bordered boxes: WeasyPrint lays out and
    draws none of them (bench/print_run.py). ``test_print_layout`` checks the file.
    """
    lines = [f'<line x1="{x:g}" y1="{y0:g}" x2="{x:g}" y2="{y1:g}"/>' for x in CUT_X_MM for y0, y1 in CUT_V_MM] + [
        f'<line x1="{x0:g}" y1="{y:g}" x2="{x1:g}" y2="{y:g}"/>' for y in CUT_Y_MM for x0, x1 in CUT_H_MM
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{PAGE_W_MM:g}mm" height="{PAGE_H_MM:g}mm" '
        f'viewBox="0 0 {PAGE_W_MM:g} {PAGE_H_MM:g}">'
        f'<g stroke="#000" stroke-width="{CUT_STROKE_MM:g}">{"".join(lines)}</g></svg>\n'
    )


def print_css() -> str:
    """The slot and foot rules of static/css/print.css, generated from the constants above.

    Kept in the static file (the CSP forbids inline styles); ``test_print_layout`` checks
    the file still says what this returns.
    """
    lines = []
    for row in range(ROWS):
        for col in range(COLS):
            left, top = MARGIN_X_MM + col * CARD_W_MM, MARGIN_Y_MM + row * CARD_H_MM
            lines.append(f".slot-r{row}c{col} {{ left: {left:g}mm; top: {top:g}mm; }}")
    # A stamped front's foot, placed on the page as it sits in its card (pdf.py).
    for row in range(ROWS):
        for col in range(COLS):
            left = MARGIN_X_MM + col * CARD_W_MM + FOOT_INSET_MM
            bottom = PAGE_H_MM - (MARGIN_Y_MM + (row + 1) * CARD_H_MM) + FOOT_INSET_MM
            lines.append(f".foot-r{row}c{col} {{ left: {left:g}mm; bottom: {bottom:g}mm; }}")
    return "\n".join(lines) + "\n"

"""Printed cards that read at a game's dusk and tell their kind in black and white (issue 23).

The sizes are read from the print CSS and from the PDF's own words (pdftotext -bbox);
the kinds from the page rendered in grey (pdftoppm -gray): the band across the top of
an attack, a defence and a magic card must look different without colour.
"""

import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from PIL import Image

from cards.models import Card, PoolEntry
from cards.printing import layout
from tests.print.print_kit import add_magic_cards, tool

pytestmark = pytest.mark.django_db

CSS = Path(settings.BASE_DIR) / "static" / "css" / "print.css"
MIN_PT = 8.0
DPI = 150
RULES = "Parry: the attack is lost."


def css_font_sizes() -> dict[str, float]:
    sizes = {}
    for selector, body in re.findall(r"([^{}]+)\{([^}]*)\}", CSS.read_text()):
        found = re.search(r"font-size:\s*([\d.]+)pt", body)
        if found:
            for name in selector.split(","):
                sizes[name.strip().split("\n")[-1].strip()] = float(found.group(1))
    return sizes


def test_every_text_of_a_card_is_at_least_8_pt_in_the_print_css():
    sizes = css_font_sizes()
    for selector in (".card-name", ".card-meta", ".card-effects", ".card-text", ".card-foot", ".kind-band"):
        assert sizes[selector] >= MIN_PT, (selector, sizes[selector])


@pytest.fixture
def three_kinds(event, character, catalogue):
    """Anton's cards: an attack and a defence (attack first when printed); a magic card of deck 2."""
    attack = Card.objects.create(
        catalogue=catalogue, name_ru="Удар", name_en="Strike", kind="attack", full_effect="heavily_wounded"
    )
    defence = Card.objects.create(
        catalogue=catalogue, name_ru="Щит", name_en="Shield", kind="defence", rules_text=RULES
    )
    for card in (attack, defence):
        PoolEntry.objects.create(character=character, card=card)
    add_magic_cards(catalogue, 1)
    return character


def _pdfs(as_user, organizer, event, character, save_pdf):
    client = as_user(organizer)
    cards = save_pdf(client.get(reverse("cards:print-cards", args=[character.pk])).content, "kinds.pdf")
    magic = save_pdf(
        client.get(reverse("cards:print-magic-decks", args=[event.pk]), {"deck": "2"}).content, "magic.pdf"
    )
    return cards, magic


def _grey(pdf, page: int) -> Image.Image:
    target = pdf.path.with_name(f"{pdf.path.stem}-grey-{page}")
    subprocess.run(
        [
            tool("pdftoppm"),
            "-gray",
            "-png",
            "-r",
            str(DPI),
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            str(pdf.path),
            str(target),
        ],
        check=True,
    )
    return Image.open(target.with_suffix(".png")).convert("L")


def _band(image: Image.Image, row: int, col: int) -> list[int]:
    """The grey pixels of the band of the card in slot (row, col): its top 5 mm, inside the cut lines."""
    px = DPI / 25.4
    left = layout.MARGIN_X_MM + col * layout.CARD_W_MM
    top = layout.MARGIN_Y_MM + row * layout.CARD_H_MM
    box = (
        round((left + 1) * px),
        round((top + 0.5) * px),
        round((left + layout.CARD_W_MM - 1) * px),
        round((top + 5) * px),
    )
    return list(image.crop(box).tobytes())


def _mean(pixels: list[int]) -> float:
    return sum(pixels) / len(pixels)


@pytest.mark.usefixtures("weasyprint_ready")
def test_attack_defence_and_magic_bands_differ_in_black_and_white(as_user, organizer, event, three_kinds, save_pdf):
    cards, magic = _pdfs(as_user, organizer, event, three_kinds, save_pdf)
    page = _grey(cards, 1)
    attack, defence = _band(page, 0, 0), _band(page, 0, 1)
    spell = _band(_grey(magic, 1), 0, 0)
    blank = _band(page, 0, 2)  # no card in the third slot: the paper itself
    means = {"attack": _mean(attack), "defence": _mean(defence), "magic": _mean(spell), "paper": _mean(blank)}
    # Solid black, a black frame on white, black stripes: three greys far apart, none of them paper.
    assert means["attack"] < 60, means
    assert 60 + 30 < means["magic"] < means["defence"] - 30, means
    assert means["defence"] < means["paper"] - 25, means
    # The stripes alternate along the band; the frame is dark only at its edges.
    assert max(spell) - min(spell) > 150 and max(defence) - min(defence) > 150
    cards.png(1, "print-card-kinds")
    magic.png(1, "print-magic-kind")


@pytest.mark.usefixtures("weasyprint_ready")
def test_the_printed_rules_text_and_owner_line_are_at_least_8_pt(as_user, organizer, event, three_kinds, save_pdf):
    cards, _magic = _pdfs(as_user, organizer, event, three_kinds, save_pdf)
    words = cards.words(1)

    # pdftotext's box of a word is the font's full height: DejaVu Sans draws 1.16 em (ascent + descent).
    def height(word: str) -> float:
        return next(y1 - y0 for w, _x0, y0, _x1, y1 in words if w == word)

    em = 1.16
    assert height("Parry:") / em >= MIN_PT - 0.1  # the rules text
    assert height("Anton") / em >= MIN_PT - 0.1  # the owner line (· #1)
    assert height("ATTACK") / em >= MIN_PT - 0.1 and height("DEFENCE") / em >= MIN_PT - 0.1  # the bands


@pytest.mark.usefixtures("weasyprint_ready")
def test_the_backs_still_tell_nothing(as_user, organizer, event, three_kinds, save_pdf):
    """D4: the arsenal is held backs to the opponent; the kind's band is on the fronts only."""
    cards, _magic = _pdfs(as_user, organizer, event, three_kinds, save_pdf)
    back = _grey(cards, 2)
    # Mirrored: the attack's back is in column 2, the defence's in column 1 (long-edge flip).
    assert abs(_mean(_band(back, 0, 2)) - _mean(_band(back, 0, 1))) < 3
    assert "ATTACK" not in cards.text(2) and "DEFENCE" not in cards.text(2)

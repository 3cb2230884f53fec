"""The printed PDFs, read back as a print shop would (issue 14).

Each test renders real PDFs with WeasyPrint and checks them with poppler and zbar:
A4 pages, the page count for a known number of cards, the text, every QR code
decoded to its public address, and duplex backs behind their fronts. A PNG of each
layout is saved under test-artifacts/.
"""

from __future__ import annotations

from typing import Any, cast

import pytest
from django.urls import reverse
from django.utils import translation

import demo
from cards.models import ArsenalCard, Card, PreparedArsenal, PreparedArsenalCard
from cards.printing import layout, runs
from events.models import Character
from events.public_url import secret_link
from tests.print.print_kit import A4_PT, PUBLIC, add_cards

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("weasyprint_ready")]

MM = 72 / 25.4


def _entry(card: Card) -> str:
    return PUBLIC + reverse("cards:card-entry", args=[card.pk])


def _cards_pdf(as_user, organizer, character, save_pdf, **headers):
    response = as_user(organizer).get(reverse("cards:print-cards", args=[character.pk]), **headers)
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    return save_pdf(response.content)


def test_a_characters_cards_nine_to_an_A4_sheet_with_backs(as_user, organizer, character, catalogue, save_pdf):
    cards = add_cards(character, catalogue, 10)
    pdf = _cards_pdf(as_user, organizer, character, save_pdf)
    # 10 cards: two sheets (9 + 1), each a front page and a back page.
    assert pdf.pages == layout.sheet_count(10) == 4
    assert pdf.page_sizes() == {(round(A4_PT[0], 1), round(A4_PT[1], 1))}
    front = pdf.text(1)
    for card in cards[:9]:
        assert card.name_en in front
    assert "Heavily wounded".lower() in front.lower() and "Rules of card 01." in front
    assert "Anton" in front  # whose card it is, for sorting the cut cards
    assert "Card 10" in pdf.text(3) and "Card 10" not in front
    assert "Night Watch" in pdf.text(2) and "#" not in pdf.text(2)  # the back: the event's name, no card number
    # Every card's QR code opens its public entry on the public address.
    assert sorted(pdf.qr_codes(1)) == sorted(_entry(card) for card in cards[:9])
    assert pdf.qr_codes(3) == [_entry(cards[9])]
    assert pdf.qr_codes(2) == []  # backs hide what the card is
    pdf.png(1, "print-cards-front")
    pdf.png(2, "print-cards-back")


def test_what_is_alike_is_laid_out_once_and_drawn_again(as_user, organizer, character, catalogue, save_pdf):
    """cards/printing/pdf.py: one face per catalogue card, one page per kind of back, drawn wherever they belong."""
    from pypdf import PdfReader

    (card,) = add_cards(character, catalogue, 1)
    character.pool.update(copies=18)  # two full sheets of the same card
    pdf = _cards_pdf(as_user, organizer, character, save_pdf)
    assert pdf.pages == 4
    assert pdf.text(1).count(card.name_en) == 9 and pdf.text(3).count(card.name_en) == 9
    assert pdf.qr_codes(3) == [_entry(card)] * 9
    # Each copy's own foot, in its own card: #10 opens the second sheet, #18 closes it.
    feet = {w: _cell((x0 + x1) / 2, (y0 + y1) / 2) for w, x0, y0, x1, y1 in pdf.words(3) if w.startswith("#")}
    assert feet["#10"] == (0, 0) and feet["#18"] == (2, 2) and len(feet) == 9
    pages = PdfReader(pdf.path).pages
    # Both back pages are one content stream; both fronts draw the same face object nine times.
    assert pages[1].raw_get("/Contents") == pages[3].raw_get("/Contents")
    faces = [dict(cast(Any, page["/Resources"])["/XObject"]) for page in (pages[0], pages[2])]
    stamped = {name: ref for face in faces for name, ref in face.items() if name.startswith("/SumrakFace")}
    assert len(stamped) == 1
    # The faces are set in the print's own fonts (a face without them fell back to a serif).
    assert pdf.fonts() <= {"DejaVu-Sans", "DejaVu-Sans-Bold"}


def test_a_second_print_lays_out_only_its_own_fronts(monkeypatch, event, character, rival, catalogue, save_pdf):
    """Faces and back pages are kept, by their HTML, for the next part the same process prints."""
    from cards.models import PoolEntry
    from cards.printing import content, pdf, render

    cards = add_cards(character, catalogue, 10)
    PoolEntry.objects.bulk_create(PoolEntry(character=rival, card=card) for card in cards)
    pdf._FACES.clear()
    pdf._laid_out.cache_clear()
    laid_out: list[str] = []
    real = render.html_to_pdf

    def counted(html: str) -> bytes:
        laid_out.append(html)
        return real(html)

    monkeypatch.setattr(render, "html_to_pdf", counted)

    def print_cards_of(holder):
        return pdf.document_pdf(title="", event=event, cards=content.printed_cards(content.with_cards([holder])))

    print_cards_of(character)
    # The fronts, the ten faces together, the back of a full sheet and of a sheet with one card.
    assert len(laid_out) == 4
    laid_out.clear()
    second = save_pdf(print_cards_of(rival))
    assert len(laid_out) == 1  # only the fronts: the faces and backs were kept
    assert "Zavulon" in second.text(1) and "Card 09" in second.text(1) and "Card 10" in second.text(3)
    assert second.qr_codes(3) == [_entry(cards[9])] and "Night Watch" in second.text(4)


def test_copies_are_printed_as_separate_cards(as_user, organizer, character, catalogue, save_pdf):
    (card,) = add_cards(character, catalogue, 1)
    character.pool.update(copies=3)
    pdf = _cards_pdf(as_user, organizer, character, save_pdf)
    assert pdf.pages == 2
    assert pdf.qr_codes(1) == [_entry(card)] * 3


def test_the_cards_in_russian(as_user, organizer, character, catalogue, save_pdf):
    add_cards(character, catalogue, 2)
    client = as_user(organizer)
    client.cookies["django_language"] = "ru"
    pdf = save_pdf(client.get(reverse("cards:print-cards", args=[character.pk])).content)
    text = pdf.text(1)
    assert "Card-ru 01" in text and "Card 01" not in text
    with translation.override("ru"):
        assert str(Card._meta.get_field("full_effect").verbose_name) != "full effect"
    assert "Полный эффект" in text and "Смягчённый эффект" in text
    pdf.png(1, "print-cards-front-ru")


def _cell(x: float, y: float) -> tuple[int, int]:
    """(row, column) of the card slot holding the point (x, y) of a page, in points."""
    col = int((x / MM - layout.MARGIN_X_MM) // layout.CARD_W_MM)
    row = int((y / MM - layout.MARGIN_Y_MM) // layout.CARD_H_MM)
    return row, col


def test_duplex_backs_sit_behind_their_fronts_after_a_long_edge_flip(
    as_user, organizer, character, catalogue, save_pdf
):
    """The first and the last card of a sheet: the back is the front mirrored around the page's vertical axis.

    Every back is alike (D4: nothing on a back tells one card from another), so a back
    is found by where it is: seven cards leave two slots of the last row empty, and a
    back printed in its front's own column would fill other slots than the mirrored ones.
    """
    add_cards(character, catalogue, 7, prefix="Duplex")
    pdf = _cards_pdf(as_user, organizer, character, save_pdf)
    assert pdf.pages == 2
    width = A4_PT[0] / MM
    names = {word: ((x0 + x1) / 2, (y0 + y1) / 2) for word, x0, y0, x1, y1 in pdf.words(1)}
    fronts = [_cell(*names[f"{i:02d}"]) for i in range(1, 8)]  # "Duplex 01" ... "Duplex 07"
    assert fronts == [(i // layout.COLS, i % layout.COLS) for i in range(7)]
    backs = [_cell((x0 + x1) / 2, (y0 + y1) / 2) for word, x0, y0, x1, y1 in pdf.words(2) if word == "NW"]
    assert sorted(backs) == sorted((row, layout.COLS - 1 - col) for row, col in fronts)
    for row, col in (fronts[0], fronts[-1]):  # the first and the last card of the sheet
        assert (row, layout.COLS - 1 - col) in backs
        # The card's box mirrored: the card's left edge on the front is the right edge of its back.
        front_left = layout.MARGIN_X_MM + col * layout.CARD_W_MM
        back_left = layout.MARGIN_X_MM + (layout.COLS - 1 - col) * layout.CARD_W_MM
        assert abs((width - (front_left + layout.CARD_W_MM)) - back_left) < 0.01
    # Card 1 is top left on the front, so its back is top right; card 7 (bottom left) bottom right.
    assert (0, 2) in backs and (2, 2) in backs and (2, 0) not in backs and (2, 1) not in backs
    # Nothing on a back tells the cards apart: no name, no number, no code.
    assert "Duplex" not in pdf.text(2) and "#" not in pdf.text(2) and pdf.qr_codes(2) == []


def test_the_character_sheet(as_user, organizer, character, catalogue, attack_card, defence_card, save_pdf):
    ArsenalCard.objects.create(character=character, card=attack_card, copies=2)
    plan = PreparedArsenal.objects.create(character=character, name="Night plan")
    PreparedArsenalCard.objects.create(arsenal=plan, card=defence_card)
    response = as_user(organizer).get(reverse("cards:print-sheet", args=[character.pk]))
    pdf = save_pdf(response.content)
    assert pdf.pages == 1
    text = pdf.text(1)
    for expected in ("Anton", "Night Watch", "Light", "player", "Fit", "Fireball", "Night plan", "Mage Shield"):
        assert expected.lower() in text.lower(), expected
    link = secret_link(character)
    assert link.startswith(PUBLIC)
    assert pdf.qr_codes(1) == [link]
    assert link.replace(" ", "") in text.replace("\n", "").replace(" ", "")
    pdf.png(1, "print-character-sheet")


def test_a_revoked_link_prints_no_qr_code(as_user, organizer, character, save_pdf):
    character.revoke_link()
    pdf = save_pdf(as_user(organizer).get(reverse("cards:print-sheet", args=[character.pk])).content)
    assert pdf.qr_codes(1) == []
    assert "No secret link" in pdf.text(1)


def test_the_demo_events_whole_print_run_is_one_click(client, save_pdf, settings):
    """Issue 14: the demo's characters (8 of the duel demo, 5 more for battles), sheets and cards, in one PDF
    that downloads from the print button."""
    event = demo.load()
    client.force_login(event.staff.get(role="organizer").user)
    response = client.post(
        reverse("cards:print-event", args=[event.pk]), {"everyone": "on", "with_sheets": "on", "with_cards": "on"}
    )
    assert response.status_code == 302
    download = client.get(response["Location"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    pdf = save_pdf(b"".join(download.streaming_content), "demo.pdf")
    characters = list(Character.objects.filter(event=event, status="accepted").order_by("name", "pk"))
    assert 8 <= len(characters) <= runs.INLINE_LIMIT
    from cards.printing.content import physical_cards, with_cards

    total_cards = sum(copies for c in with_cards(characters) for _, copies in physical_cards(c))
    assert pdf.pages == len(characters) + len(characters) % 2 + layout.sheet_count(total_cards)
    assert pdf.page_sizes() == {(round(A4_PT[0], 1), round(A4_PT[1], 1))}
    assert pdf.qr_codes(1) == [secret_link(characters[0])]
    assert characters[0].name in pdf.text(1)
    first_cards = pdf.qr_codes(len(characters) + len(characters) % 2 + 1)
    assert len(first_cards) == 9 and all(code.startswith(PUBLIC + "/cards/") for code in first_cards)
    pdf.png(1, "print-demo-run-sheet")
    pdf.png(len(characters) + len(characters) % 2 + 1, "print-demo-run-cards")

"""The mass battles' prints, read back as a print shop would (issue 14, M1-M3).

Magic decks: every copy a card, nine to an A4 sheet, the deck's number on every back
and nothing else of the card there (M1: the decks lie face down), backs mirrored
behind their fronts. Army rosters: warriors, types, protections, the commander's QR
code on the public address. Both in the event's print run. A PNG of each layout
is saved under test-artifacts/.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

import demo
from cards.models_mass import Army, MagicCard
from cards.printing import layout, mass, runs
from cards.printing.models import PrintRun
from events.models import Character
from tests.print.print_kit import A4_PT, PUBLIC, add_army, add_magic_cards

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("weasyprint_ready")]

MM = 72 / 25.4
A4 = {(round(A4_PT[0], 1), round(A4_PT[1], 1))}


def _entry(card: MagicCard) -> str:
    return PUBLIC + reverse("cards:magic-card-entry", args=[card.pk])


def _pdf(client, url, save_pdf, **query):
    response = client.get(url, query)
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    return save_pdf(response.content)


def _decks_pdf(as_user, organizer, event, save_pdf, **query):
    return _pdf(as_user(organizer), reverse("cards:print-magic-decks", args=[event.pk]), save_pdf, **query)


def test_M1_a_magic_deck_every_copy_a_card_with_the_decks_number_on_the_back(as_user, organizer, event, save_pdf):
    cards = add_magic_cards(event.catalogue, 10, deck=2)
    MagicCard.objects.filter(pk=cards[0].pk).update(copies=2, keepable=True)
    pdf = _decks_pdf(as_user, organizer, event, save_pdf)
    # 11 physical cards: two sheets (9 + 2), each a front page and a back page.
    assert pdf.pages == layout.sheet_count(11) == 4
    assert pdf.page_sizes() == A4
    front = pdf.text(1)
    assert front.count("Spell2x01") == 2 and "Spell2x08" in front and "Spell2x09" not in front
    assert "Spell2x09" in pdf.text(3) and "Spell2x10" in pdf.text(3)
    assert "Effect of spell 2-01." in front
    for words in ("Fire magic", "deck 2", "protected from Fire ignore it", "Use when you see fit", "one cycle"):
        assert words in front, words
    # Every copy's QR code opens the card's public entry on the public address.
    assert sorted(pdf.qr_codes(1)) == sorted([_entry(cards[0])] * 2 + [_entry(c) for c in cards[1:8]])
    # The backs: the deck's number on each, nothing that tells one card from another (no name, no code).
    back = pdf.text(2)
    assert not re.search(r"Spell|Effect", back) and pdf.qr_codes(2) == []
    assert [w for w, *_box in pdf.words(2) if w.isdigit()] == ["2"] * 9
    assert [w for w, *_box in pdf.words(4) if w.isdigit()] == ["2"] * 2
    assert "Night Watch" in back
    pdf.png(1, "print-magic-front")
    pdf.png(2, "print-magic-back")


def test_M1_each_deck_starts_on_a_fresh_sheet_and_one_deck_prints_alone(as_user, organizer, event, save_pdf):
    add_magic_cards(event.catalogue, 3, deck=2)
    fives = add_magic_cards(event.catalogue, 2, deck=5, acts_on_protected=True)
    pdf = _decks_pdf(as_user, organizer, event, save_pdf)
    assert pdf.pages == 4  # deck 2 on one sheet, deck 5 on the next: not the five cards on one sheet
    assert {w for w, *_ in pdf.words(2) if w.isdigit()} == {"2"}
    assert {w for w, *_ in pdf.words(4) if w.isdigit()} == {"5"}
    assert "Acts on protected warriors too" in pdf.text(3) and "Spell2x01" not in pdf.text(3)  # M3
    only_five = _decks_pdf(as_user, organizer, event, save_pdf, deck="5")
    assert only_five.pages == 2 and sorted(only_five.qr_codes(1)) == sorted(_entry(c) for c in fives)


def _cell(x: float, y: float) -> tuple[int, int]:
    """(row, column) of the card slot holding the point (x, y) of a page, in points."""
    col = int((x / MM - layout.MARGIN_X_MM) // layout.CARD_W_MM)
    row = int((y / MM - layout.MARGIN_Y_MM) // layout.CARD_H_MM)
    return row, col


def _centre(box: tuple[float, float, float, float]) -> tuple[float, float]:
    x0, y0, x1, y1 = box
    return (x0 + x1) / 2, (y0 + y1) / 2


def test_M1_deck_backs_sit_behind_their_fronts_after_a_long_edge_flip(as_user, organizer, event, save_pdf):
    """Seven cards on a sheet: the backs fill the mirrored slots, the first card's and the last card's included.

    All backs of a deck are alike, so a back is found by where it is: a back printed
    in the front's own column (no mirroring) would fill other slots of the last row.
    """
    cards = add_magic_cards(event.catalogue, 7, deck=4)
    pdf = _decks_pdf(as_user, organizer, event, save_pdf)
    assert pdf.pages == 2
    names = {w: _centre(box) for w, *box in pdf.words(1)}
    fronts = [_cell(*names[card.name_en]) for card in cards]
    assert fronts == [(i // layout.COLS, i % layout.COLS) for i in range(7)]
    backs = [_cell(*_centre(box)) for w, *box in pdf.words(2) if w == "4"]
    assert sorted(backs) == sorted((row, layout.COLS - 1 - col) for row, col in fronts)
    width = A4_PT[0] / MM
    for index in (0, 6):  # the first and the last card of the sheet
        row, col = fronts[index]
        mirrored = (row, layout.COLS - 1 - col)
        assert mirrored in backs
        front_left = layout.MARGIN_X_MM + col * layout.CARD_W_MM
        back_left = layout.MARGIN_X_MM + mirrored[1] * layout.CARD_W_MM
        assert abs((width - (front_left + layout.CARD_W_MM)) - back_left) < 0.01
    # The first card is top left on the front, so its back is top right; the last (row 2, column 0) bottom right.
    assert (0, 2) in backs and (2, 2) in backs and (2, 0) not in backs and (2, 1) not in backs


def test_the_magic_cards_in_russian(as_user, organizer, event, save_pdf):
    add_magic_cards(event.catalogue, 2, deck=6, magic_type="water")
    client = as_user(organizer)
    client.cookies["django_language"] = "ru"
    pdf = _pdf(client, reverse("cards:print-magic-decks", args=[event.pk]), save_pdf)
    text = pdf.text(1)
    assert "Spell-ru 6-01" in text and "Spell6x01" not in text
    assert "колода 6" in text and "Вод" in text and "не выполняют" in text
    assert "Магия" in pdf.text(2)
    pdf.png(1, "print-magic-front-ru")


def _roster_url(event) -> str:
    return reverse("cards:print-armies", args=[event.pk])


def test_M3_an_armys_roster_with_its_commanders_qr_code(as_user, organizer, event, save_pdf):
    red = add_army(event, "Red", 6, commander_name="Gesar")
    add_army(event, "Blue", 4)
    pdf = _pdf(as_user(organizer), _roster_url(event), save_pdf, army=red.pk)
    assert pdf.pages == 1 and pdf.page_sizes() == A4
    text = pdf.text(1)
    for words in ("Red", "Gesar", "Night Watch", "Red-001", "Red-006", "Salamander", "Spearman", "Fire, Water"):
        assert words in text, words
    assert "Blue-001" not in text
    assert re.search(r"Salamander\s+Fire, Water\s+3\b", text) and re.search(r"Spearman\s+—\s+3\b", text)
    assert "hospital" in text and "on the field" in text  # each warrior's state when printed
    link = PUBLIC + reverse("duels:mass-army-link", args=[red.link_token])
    assert pdf.qr_codes(1) == [link]
    assert link in text.replace("\n", "").replace(" ", "")
    pdf.png(1, "print-army-roster")


def test_every_army_on_its_own_pages_and_a_long_roster_runs_on(as_user, organizer, event, save_pdf):
    add_army(event, "Blue", 3)
    long = add_army(event, "Red", 90)
    pdf = _pdf(as_user(organizer), _roster_url(event), save_pdf)
    pages = [pdf.text(n) for n in range(1, pdf.pages + 1)]
    assert pdf.pages >= 3 and pdf.page_sizes() == A4
    assert "Blue-003" in pages[0] and "Red" not in pages[0].replace("Red-", "")  # Blue first, alone on its page
    everything = "".join(pages[1:])
    assert all(f"Red-{i:03d}" in everything for i in range(1, 91))
    assert pdf.qr_codes(2) == [PUBLIC + reverse("duels:mass-army-link", args=[long.link_token])]
    assert "When printed" in pages[2]  # the table's header again on the page it runs on to
    pdf.png(3, "print-army-roster-continued")


def test_the_event_print_run_holds_the_decks_and_rosters_and_counts_pages(organizer, event, character, save_pdf):
    add_magic_cards(event.catalogue, 3, deck=2)
    add_army(event, "Red", 2)
    run = runs.start_run(
        event, organizer, [character], with_sheets=True, with_cards=False, with_magic_decks=True, with_rosters=True
    )
    run = runs.execute(run.pk)
    assert run.status == PrintRun.Status.DONE, run.error
    # One sheet, a blank page so the deck starts on a fresh sheet, the deck's two pages, one roster.
    assert [p["kind"] for p in run.parts] == ["sheets", "blank", "decks", "rosters"]
    assert run.pages == run.total == 1 + 1 + 2 + 1 and run.done == run.total
    path = runs.file_of(run)
    assert path is not None
    pdf = save_pdf(path.read_bytes())
    assert pdf.pages == 5 and pdf.page_sizes() == A4
    assert "Anton" in pdf.text(1) and pdf.text(2).strip() == ""
    assert "Spell2x01" in pdf.text(3) and "Red-001" in pdf.text(5)


def test_the_demo_events_whole_print_run_with_its_mass_battle_is_one_click(client, save_pdf):
    event = demo.load()
    client.force_login(event.staff.get(role="organizer").user)
    page = client.get(reverse("cards:print-event", args=[event.pk])).text
    assert re.search(r'<input[^>]*name="with_magic_decks"[^>]*checked', page)  # mass battles on: ticked
    response = client.post(
        reverse("cards:print-event", args=[event.pk]),
        {"everyone": "on", "with_magic_decks": "on", "with_rosters": "on"},
    )
    assert response.status_code == 302
    download = client.get(response["Location"])
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    pdf = save_pdf(b"".join(download.streaming_content), "demo-mass.pdf")
    decks = mass.deck_page_count(event)
    armies = Army.objects.filter(event=event).count()
    assert decks == 8 and armies == 2  # four decks of 8, 7, 5 and 5 cards: a sheet each; two armies
    assert pdf.pages == decks + armies and pdf.page_sizes() == A4
    codes = pdf.qr_codes(1)
    assert len(codes) == 8 and all(c.startswith(PUBLIC + "/magic-cards/") for c in codes)
    # The characters were not asked for: no sheet, no card of theirs.
    assert Character.objects.filter(event=event).exists() and "Arsenal size limit" not in pdf.text()
    assert "/cards/" not in " ".join(pdf.qr_codes(n)[0] for n in (1, 3, 5, 7))
    assert "Гесер" in pdf.text(decks + 1)
    pdf.png(decks + 1, "print-demo-run-roster")

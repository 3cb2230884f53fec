"""The print run grouped by side or group, with an envelope per character (issue 22), read back as a print shop would.

pdftotext for the order and the words, pdfinfo for the page sizes, zbarimg for the QR codes.
"""

import pytest
from django.urls import reverse

from cards.printing import runs
from cards.printing.groups import groups_of
from events.models import Character, Handout
from events.public_url import secret_link
from tests.print.print_kit import A4_PT, add_cards

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("weasyprint_ready")]

DL_PT = (623.6, 311.8)  # 220 x 110 mm
A4 = (round(A4_PT[0], 1), round(A4_PT[1], 1))


@pytest.fixture
def cast(event, character, rival, bystander, catalogue):
    """Anton (Light, 2 cards), Zavulon (Dark, 1 card), Olga (Light, none); groups for the group run."""
    add_cards(character, catalogue, 2, prefix="Light")
    add_cards(rival, catalogue, 1, prefix="Dark")
    Character.objects.filter(pk=character.pk).update(groups="Night Watch, Mages")
    Character.objects.filter(pk=rival.pk).update(groups="Day Watch")
    return [character, rival, bystander]


def print_run(org, event, save_pdf, **fields):
    data = {"everyone": "on", "with_sheets": "on", "with_cards": "on", "with_envelopes": "on", **fields}
    response = org.post(reverse("cards:print-event", args=[event.pk]), data)
    assert response.status_code == 302, response.content[:500]
    download = org.get(response["Location"])
    assert download["Content-Type"] == "application/pdf"
    return save_pdf(b"".join(download.streaming_content), "grouped.pdf")


def pages_text(pdf):
    return [pdf.text(page) for page in range(1, pdf.pages + 1)]


def test_by_side_each_side_has_its_page_sheets_and_cards_then_an_envelope_each(org, event, cast, save_pdf):
    anton, zavulon, olga = cast
    pdf = print_run(org, event, save_pdf, group_by="side")
    text = pages_text(pdf)
    # Light: its page, a blank, Anton's and Olga's sheets, one card sheet (front, back);
    # Dark: its page, a blank, Zavulon's sheet, a blank, one card sheet; then three envelopes.
    assert len(text) == 2 + 2 + 2 + 2 + 1 + 1 + 2 + 3
    assert "Light" in text[0] and "2 characters" in text[0] and text[1].strip() == ""
    assert "Anton" in text[2] and "Olga" in text[3]
    assert "Light 01" in text[4] and "Zavulon" not in text[4]
    assert "Dark" in text[6] and "1 character" in text[6]
    assert "Zavulon" in text[8] and text[9].strip() == "" and "Dark 01" in text[10]
    sizes = pdf.page_sizes()
    assert sizes == {A4, DL_PT}
    envelopes = text[-3:]
    assert ["Anton" in envelopes[0], "Olga" in envelopes[1], "Zavulon" in envelopes[2]] == [True, True, True]
    assert "Player: player" in envelopes[0] and "Light" in envelopes[0]
    for offset, who in enumerate((anton, olga, zavulon)):
        assert pdf.qr_codes(pdf.pages - 2 + offset) == [secret_link(who)]
    pdf.png(pdf.pages, "print-envelope")
    pdf.png(1, "print-group-page")


def test_by_group_the_first_group_listed_counts_and_those_in_none_come_last(org, event, cast, save_pdf):
    pdf = print_run(org, event, save_pdf, group_by="group", with_cards="", with_envelopes="")
    text = pages_text(pdf)
    # Day Watch (Zavulon), Night Watch (Anton), No group (Olga): each a page and its blank, the sheet,
    # a blank between groups. (The event itself is named "Night Watch": its name heads every page.)
    assert "Day Watch" in text[0] and "1 character" in text[0]
    assert text[4].count("Night Watch") == 2 and "1 character" in text[4]
    assert "No group" in text[8]
    assert "Zavulon" in text[2] and "Anton" in text[6] and "Olga" in text[10]
    assert len(text) == 3 * 4 - 1  # the last group's odd sheet needs no blank
    assert pdf.page_sizes() == {A4}


def test_not_grouped_the_run_is_as_before_with_the_envelopes_at_the_end(org, event, cast, save_pdf):
    pdf = print_run(org, event, save_pdf, with_cards="")
    assert pdf.pages == 3 + 3  # three sheets (nothing after them to pad for), three envelopes
    assert "Anton" in pdf.text(1) and "Olga" in pdf.text(2) and "Zavulon" in pdf.text(3)
    assert "Anton" in pdf.text(4)


def test_the_envelopes_pre_fill_the_qr_link_handout(org, event, cast, save_pdf):
    print_run(org, event, save_pdf, with_sheets="", with_cards="")
    assert set(Handout.objects.values_list("item", flat=True)) == {"qr"}


def test_the_web_page_version_follows_the_same_groups(org, event, cast):
    html = org.post(
        reverse("cards:print-event", args=[event.pk]),
        {"everyone": "on", "with_sheets": "on", "group_by": "side", "with_envelopes": "on", "as_html": "on"},
    ).content.decode()
    sheets = [html.index(f'sheet-name">{name}') for name in ("Anton", "Olga", "Zavulon")]
    assert sheets == sorted(sheets)
    assert html.count('class="envelope"') == 3


def test_groups_of_reads_sides_in_their_order_and_groups_case_insensitively(cast):
    olga = cast[2]
    for c in cast:
        c.refresh_from_db()
    assert [(label, [c.name for c in m]) for label, m in groups_of(cast, "side")] == [
        ("Light", ["Anton", "Olga"]),
        ("Dark", ["Zavulon"]),
    ]
    olga.groups = "night watch"
    assert [label for label, _m in groups_of(cast, "group")] == ["Day Watch", "Night Watch"]
    assert runs.CHUNK >= 3

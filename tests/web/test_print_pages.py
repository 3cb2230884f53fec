"""The print pages (issue 14): who may print, the HTML version, the missing-WeasyPrint message,
the background run with its progress bar, and a card's public catalogue entry."""

import pytest
from django.urls import reverse

from cards.models import CounterRule, PoolEntry
from cards.printing import render, runs
from cards.printing.models import PrintRun


@pytest.fixture(autouse=True)
def public_address(settings):
    settings.SUMRAK_PUBLIC_URL = "http://192.168.7.2:8000"


def _print_urls(character, event):
    return [
        reverse("cards:print-cards", args=[character.pk]),
        reverse("cards:print-sheet", args=[character.pk]),
        reverse("cards:print-event", args=[event.pk]),
    ]


@pytest.mark.parametrize("role", ["player", "other_player", "referee", "other_organizer"])
def test_D4_only_the_events_organizers_print_its_cards(role, personas, as_user, character, event):
    """Printed cards show a hand: nobody but the organizers may print it (D4)."""
    for url in _print_urls(character, event):
        assert as_user(personas[role]).get(url).status_code == 404, url


def test_anonymous_is_sent_to_log_in(as_user, character, event):
    for url in _print_urls(character, event):
        response = as_user(None).get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_html_version_works_without_weasyprint(monkeypatch, as_user, organizer, character, attack_card):
    PoolEntry.objects.create(character=character, card=attack_card, copies=2)

    def missing():
        raise render.PdfUnavailable("cannot load library 'libpango-1.0-0'")

    monkeypatch.setattr(render, "_weasyprint", missing)
    client = as_user(organizer)
    url = reverse("cards:print-cards", args=[character.pk])
    pdf = client.get(url)
    assert pdf.status_code == 503
    assert "PDF printing is not available" in pdf.text and url + "?format=html" in pdf.text
    html = client.get(url + "?format=html")
    assert html.status_code == 200
    assert html.text.count('class="print-card front') == 2 and html.text.count('class="print-card back') == 2
    assert 'style="' not in html.text  # positions are classes: the site's CSP forbids inline styles
    assert "/static/css/print.css" in html.text
    sheet = client.get(reverse("cards:print-sheet", args=[character.pk]) + "?format=html")
    assert sheet.status_code == 200 and "Anton" in sheet.text and 'class="qr"' in sheet.text
    form = client.get(reverse("cards:print-event", args=[character.event.pk]))
    assert 'id="pdf-unavailable"' in form.text


def test_the_event_print_as_a_web_page(as_user, organizer, character, rival, attack_card):
    PoolEntry.objects.create(character=character, card=attack_card)
    response = as_user(organizer).post(
        reverse("cards:print-event", args=[character.event.pk]),
        {"characters": [character.pk], "with_sheets": "on", "with_cards": "on", "as_html": "on"},
    )
    assert response.status_code == 200
    assert "Anton" in response.text and "Zavulon" not in response.text
    assert response.text.count('class="page character-sheet"') == 1
    # One sheet: a blank page follows so the cards start on a fresh sheet of a duplex print.
    assert 'class="page blank-page"' in response.text


@pytest.mark.parametrize(
    "data, message",
    [
        ({"everyone": "on"}, "Choose what to print"),
        ({"with_cards": "on"}, "Choose the characters to print"),
        ({"characters": ["999999"], "with_cards": "on"}, "Select a valid choice"),
    ],
)
def test_a_bad_print_form_is_refused_and_starts_nothing(data, message, as_user, organizer, event, character):
    response = as_user(organizer).post(reverse("cards:print-event", args=[event.pk]), data)
    assert response.status_code == 200 and message in response.text
    assert not PrintRun.objects.exists()


def test_a_large_event_prints_in_the_background_with_a_progress_bar(
    monkeypatch, django_capture_on_commit_callbacks, as_user, organizer, event, character, rival, attack_card
):
    if not render.pdf_available():
        pytest.skip("WeasyPrint's libraries (Pango) are not installed")
    monkeypatch.setattr("cards.printing.views.INLINE_LIMIT", 1)
    queued: list[int] = []
    monkeypatch.setattr("cards.printing.views.print_run.delay", queued.append)
    PoolEntry.objects.create(character=character, card=attack_card)
    client = as_user(organizer)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("cards:print-event", args=[event.pk]), {"everyone": "on", "with_cards": "on"})
    run = PrintRun.objects.get()
    # Queued: not planned yet, so no page count to show.
    assert queued == [run.pk] and run.status == PrintRun.Status.QUEUED and run.total == 0
    assert response["Location"] == reverse("cards:print-run", args=[event.pk, run.pk])
    waiting = client.get(response["Location"], headers={"HX-Request": "true"})
    assert 'hx-trigger="every 2s"' in waiting.text and 'value="0"' in waiting.text
    assert reverse("cards:print-run-download", args=[event.pk, run.pk]) not in waiting.text
    early = client.get(reverse("cards:print-run-download", args=[event.pk, run.pk]))
    assert early.status_code == 302  # not ready: back to the progress page
    run = runs.execute(run.pk)  # what the worker does
    # The progress counts pages: the one card is a front and a back page.
    assert run.total == run.done == run.pages == 2
    done = client.get(response["Location"], headers={"HX-Request": "true"})
    assert "hx-trigger" not in done.text and 'value="100"' in done.text and "2 of 2 pages" in done.text
    download = client.get(reverse("cards:print-run-download", args=[event.pk, run.pk]))
    assert download.status_code == 200 and b"".join(download.streaming_content).startswith(b"%PDF")
    # Another organizer's event does not reach this run.
    assert client.get(reverse("cards:print-run", args=[event.pk + 1000, run.pk])).status_code == 404


def test_a_run_done_twice_prints_once(as_user, organizer, event, character):
    if not render.pdf_available():
        pytest.skip("WeasyPrint's libraries (Pango) are not installed")
    run = runs.start_run(event, organizer, [character], with_sheets=True, with_cards=False)
    first = runs.execute(run.pk)
    second = runs.execute(run.pk)
    assert first.status == second.status == PrintRun.Status.DONE and first.file_name == second.file_name


def test_the_event_and_character_pages_offer_the_prints(as_user, organizer, event, character):
    client = as_user(organizer)
    assert (
        reverse("cards:print-event", args=[event.pk])
        in client.get(reverse("events:organizer-home", args=[event.pk])).text
    )
    page = client.get(reverse("events:character-edit", args=[character.pk])).text
    assert reverse("cards:print-cards", args=[character.pk]) in page
    assert reverse("cards:print-sheet", args=[character.pk]) in page


def test_a_cards_public_entry_needs_no_login_and_shows_its_counter_rules(as_user, character, attack_card, defence_card):
    PoolEntry.objects.create(character=character, card=attack_card)
    CounterRule.objects.create(defence_card=defence_card, attack_card=attack_card, outcome="softened")
    page = as_user(None).get(reverse("cards:card-entry", args=[attack_card.pk]))
    assert page.status_code == 200
    assert "Fireball" in page.text and "Heavily wounded" in page.text
    assert "Mage Shield" in page.text and "softens" in page.text
    assert "Anton" not in page.text  # D4: who holds the card is nobody's business


def test_a_tag_rule_concerns_every_attack_with_the_tag(as_user, attack_card, defence_card):
    CounterRule.objects.create(defence_card=defence_card, attack_tag="fire", outcome="parried")
    page = as_user(None).get(reverse("cards:card-entry", args=[attack_card.pk]))
    assert "Mage Shield" in page.text and "every attack tagged “fire”" in page.text


def test_an_unknown_card_is_a_404(db, as_user):
    assert as_user(None).get(reverse("cards:card-entry", args=[987654])).status_code == 404


def test_the_worker_prints_the_parts_side_by_side_and_joins_them_in_order(
    monkeypatch, event, organizer, character, rival, attack_card, defence_card, settings
):
    """Parts may finish in any order (one per worker process); the last one joins them, in plan order."""
    if not render.pdf_available():
        pytest.skip("WeasyPrint's libraries (Pango) are not installed")
    from cards.printing import tasks

    monkeypatch.setattr(runs, "CHUNK", 1)  # one character per part; two sheets need no blank page
    PoolEntry.objects.create(character=character, card=attack_card)
    PoolEntry.objects.create(character=rival, card=defence_card)
    run = runs.start_run(event, organizer, [character, rival], with_sheets=True, with_cards=True)
    sent = []
    monkeypatch.setattr(tasks.print_part, "delay", lambda run_id, index: sent.append((run_id, index)))
    tasks.print_run(run.pk)
    run.refresh_from_db()
    assert run.status == PrintRun.Status.RUNNING and [p["kind"] for p in run.parts] == [
        "sheets",
        "sheets",
        "cards",
        "cards",
    ]
    assert sent == [(run.pk, i) for i in range(4)]
    tasks.print_run(run.pk)  # a repeated task finds the run claimed
    assert len(sent) == 4
    for run_id, index in reversed(sent):
        tasks.print_part(run_id, index)
    run.refresh_from_db()
    assert run.status == PrintRun.Status.DONE and run.pages == 2 + 2 * 2 and run.percent == 100
    from pypdf import PdfReader

    path = runs.file_of(run)
    assert path is not None
    reader = PdfReader(path)
    texts = [page.extract_text() for page in reader.pages]
    assert "Anton" in texts[0] and "Zavulon" in texts[1]  # sheets in name order, whatever finished first
    assert "Fireball" in texts[2] and "#1" in texts[2] and "Mage Shield" in texts[4] and "#2" in texts[4]


def test_the_print_css_places_the_slots_as_the_layout_says():
    """static/css/print.css holds the generated slot and cut-line rules (the CSP forbids inline positions)."""
    from pathlib import Path

    from cards.printing import layout

    static = Path(__file__).resolve().parents[2] / "static" / "css"
    css = (static / "print.css").read_text()
    assert layout.print_css() in css
    # The cut marks: one background image per card page, on every grid line.
    assert (static / "print-cut-marks.svg").read_text() == layout.cut_marks_svg()
    assert "url(print-cut-marks.svg)" in css
    svg = layout.cut_marks_svg()
    assert all(f'x1="{x:g}"' in svg for x in layout.CUT_X_MM) and all(f'y1="{y:g}"' in svg for y in layout.CUT_Y_MM)
    # The grid is centred: a mirrored column lands behind its front on a long-edge flip.
    assert layout.MARGIN_X_MM * 2 + layout.COLS * layout.CARD_W_MM == layout.PAGE_W_MM
    first = layout.front_slot("a", 1, 0)
    last = layout.front_slot("i", 9, 8)
    assert (layout.back_slot(first).row, layout.back_slot(first).col) == (0, 2)
    assert (layout.back_slot(last).row, layout.back_slot(last).col) == (2, 0)
    assert layout.PAGE_W_MM - (first.left_mm + layout.CARD_W_MM) == layout.back_slot(first).left_mm


def _checkbox(html: str, name: str, value: str | None = None) -> str:
    """The ``<input>`` tag of a checkbox, whatever the order of its attributes."""
    import re

    for tag in re.findall(r"<input[^>]*>", html):
        if f'name="{name}"' in tag and (value is None or f'value="{value}"' in tag):
            return tag
    raise AssertionError(f"no checkbox {name}={value}")


def test_characters_chosen_elsewhere_arrive_ticked(as_user, organizer, event, character, rival):
    """A link such as a bulk action's (?characters=…) preselects those characters, not everyone."""
    url = reverse("cards:print-event", args=[event.pk])
    client = as_user(organizer)
    plain = client.get(url).text
    assert " checked" in _checkbox(plain, "everyone")
    page = client.get(f"{url}?characters={rival.pk}&characters=abc&characters=99999999999999999999999")
    assert page.status_code == 200
    assert " checked" in _checkbox(page.text, "characters", str(rival.pk))
    assert " checked" not in _checkbox(page.text, "characters", str(character.pk))
    assert " checked" not in _checkbox(page.text, "everyone")

"""A referee plays two full cycles of a mass battle's magic phase on a tablet (M1-M8).

Cycle 1 with real dice entered by the referee (M8): the red side draws a card
to keep from deck 2 (M5) and keeps it; the blue side draws a negative Fire
card from deck 6 and the red Salamander, protected from Fire, is greyed,
labelled and not moved (M3). Casualties are recorded between the phases and
one is undone with a reason. Cycle 2 with dice rolled by the server (M4, M8):
the red side uses its kept card in its own turn (M5), the effect of cycle 1
is gone (M6), each side uses whatever points the server gave. A commander's
phone shows its own kept card, the other commander's does not.
"""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

import rules.mass as magic
from duels import services
from duels.models import LogEntry, Situation
from tests.services.mass_kit import armies, in_catalogue_order, magic_cards

pytestmark = pytest.mark.browser


def mass_state(situation_id: int) -> magic.MassBattle:
    return services.state_of(Situation.objects.get(pk=situation_id))


def tap(page, selector: str) -> None:
    """Tap a button of the live fragment and wait for the fragment of the next version."""
    version = int(page.locator("#mass").get_attribute("data-version"))
    page.locator(selector).first.click()
    expect(page.locator("#mass")).to_have_attribute("data-version", str(version + 1))


def play_points(page, situation_id: int, side: str) -> None:
    """Whatever the server's die says (cycle 2): use the points the simplest legal way."""
    state = mass_state(situation_id)
    points = state.points[side]
    if points in (1, 3):
        tap(page, "#points-form button")  # a wounded warrior of the side, or "nothing happens"
    elif points == 2:
        tap(page, "#draw")
    else:
        tap(page, "#decline")
    if mass_state(situation_id).pending is not None:
        page.locator(f"label[for=whole-{state.other(side)}]").click()
        tap(page, "#carry-out-button")


def test_M1_M8_a_referee_plays_two_cycles_with_entered_and_server_dice(
    tablet, phone, log_in_as, url, screenshot, referee, event, monkeypatch
):
    red_khan = User.objects.create_user("red_khan", password="x")
    blue_lord = User.objects.create_user("blue_lord", password="x")
    cards = magic_cards(event)
    in_catalogue_order(monkeypatch, cards["Wind Ward"])  # the live server runs in this process
    red, blue = armies(event, red_khan, blue_lord)
    event.mass_battles_on = True
    event.save()

    ref = tablet()
    log_in_as(ref, referee)
    ref.goto(url("duels:referee-home", event.pk))
    ref.get_by_role("link", name="Mass battles").click()
    ref.select_option("select[name=army_a]", str(red.pk))
    ref.select_option("select[name=army_b]", str(blue.pk))
    ref.get_by_role("button", name="Start the mass battle").click()
    ref.wait_for_url(re.compile(r"/mass/\d+/$"))
    found = re.search(r"/mass/(\d+)/", ref.url)
    assert found is not None
    situation_id = int(found.group(1))
    assert (LogEntry.objects.get(situation_id=situation_id).command or {})["type"] == "shuffle_decks"  # M1
    expect(ref.locator("#mass")).to_have_attribute("data-stage", "initiative")
    expect(ref.locator("#deck-sizes")).to_contain_text("deck 6: 3 cards")
    screenshot(ref, "1-initiative")

    # Cycle 1: the referee enters real dice (M8): red 2, blue 6; blue wins and makes red start (M4).
    ref.locator("label[for=dice-a-2]").click()
    ref.locator("label[for=dice-b-6]").click()
    tap(ref, "#roll-entered button[type=submit]")
    expect(ref.locator(".mass-roll")).to_contain_text("entered by the referee")
    tap(ref, "#other-starts")
    expect(ref.locator("#mass-turn")).to_contain_text("Red")
    expect(ref.locator("#points-meaning")).to_contain_text("2: take a card from deck 2")
    tap(ref, "#draw")
    expect(ref.locator("#pending-card")).to_contain_text("Wind Ward")
    expect(ref.locator("#pending-card")).to_contain_text("use when you see fit")
    tap(ref, "#keep-card")  # M5: kept for a later cycle
    expect(ref.locator("#side-a .kept-cards")).to_contain_text("Wind Ward")
    expect(ref.locator(".use-kept")).to_have_count(0)  # not in the cycle it was drawn
    tap(ref, "#end-turn")

    # Blue: 6, draws Flame Wall (negative Fire); the red Salamander is protected (M3).
    tap(ref, "#draw")
    expect(ref.locator("#pending-card")).to_contain_text("Flame Wall")
    salamander = next(w.wid for w in mass_state(situation_id).warriors.values() if w.name == "Red salamander")
    spear = next(w.wid for w in mass_state(situation_id).warriors.values() if w.name == "Red spear 1")
    protected = ref.locator(f"label[for=target-{salamander}]")
    expect(protected).to_have_class(re.compile("target-protected"))
    expect(protected).to_contain_text("protected from Fire: not affected")
    protected.click()
    ref.locator(f"label[for=target-{spear}]").click()
    ref.locator("label[for=move-hospital]").click()
    screenshot(ref, "2-protected-warrior")
    tap(ref, "#carry-out-button")
    state = mass_state(situation_id)
    assert state.warriors[salamander].place == "field" and state.warriors[spear].place == "hospital"
    expect(ref.locator("#mass-effects")).to_contain_text("ends when cycle 2 begins")
    expect(ref.locator("#mass-effects")).to_contain_text("protected, not affected (M3): Red salamander")
    tap(ref, "#end-turn")
    expect(ref.locator("#mass")).to_have_attribute("data-stage", "over")

    # Commanders' phones: red sees its kept card, blue never does.
    red_phone = phone()
    log_in_as(red_phone, red_khan)
    red_phone.goto(url("duels:mass-commander", situation_id, "a"))
    expect(red_phone.locator(".kept-cards")).to_contain_text("Wind Ward")
    screenshot(red_phone, "3-red-commander")
    blue_phone = phone()
    log_in_as(blue_phone, blue_lord)
    blue_phone.goto(url("duels:mass-commander", situation_id, "b"))
    expect(blue_phone.locator("#mass-commander")).not_to_contain_text("Wind Ward")

    # Between the phases: casualties of the battle, one of them undone with a reason.
    blue_spear = next(w.wid for w in mass_state(situation_id).warriors.values() if w.name == "Blue spear 1")
    tap(ref, f'li[data-warrior="{blue_spear}"] button[value=dead]')
    assert mass_state(situation_id).warriors[blue_spear].place == "dead"
    ref.fill("#mass-undo input[name=reason]", "he was only wounded")
    tap(ref, "#undo-form .reason-submit")
    tap(ref, f'li[data-warrior="{blue_spear}"] button[value=hospital]')
    assert mass_state(situation_id).warriors[blue_spear].place == "hospital"
    screenshot(ref, "4-casualties")
    tap(ref, "#next-cycle")
    expect(ref.locator("#mass-cycle")).to_contain_text("Cycle 2")
    expect(ref.locator("#mass-effects")).to_contain_text("None.")  # M6: one cycle, then gone

    # Cycle 2: the server rolls (M8); a tie is rolled again (M4).
    while mass_state(situation_id).stage == magic.INITIATIVE:
        tap(ref, "#roll-server")
    expect(ref.locator(".mass-roll").last).to_contain_text("rolled by the server")
    tap(ref, "#winner-starts")
    while (side := mass_state(situation_id).whose_turn()) is not None:
        if side == "a":
            expect(ref.locator(".use-kept")).to_have_count(1)  # M5: a later cycle, its own turn
            tap(ref, ".use-kept button")
            expect(ref.locator("#pending-card")).to_contain_text("Kept card in use")
            ref.locator("label[for=whole-a]").click()
            screenshot(ref, "5-kept-card-used")
            tap(ref, "#carry-out-button")
        else:
            expect(ref.locator(".use-kept")).to_have_count(0)  # never in the other side's turn
        play_points(ref, situation_id, side)
        tap(ref, "#end-turn")
    state = mass_state(situation_id)
    assert state.stage == magic.OVER and state.cycle == 2 and state.kept_uids("a") == []
    assert f"{cards['Wind Ward'].pk}.1" in state.decks[2][-2:]  # M7: used, under its own deck
    rolls = LogEntry.objects.filter(situation_id=situation_id, command__type="roll_initiative", undone=False)
    assert {(e.command or {})["source"] for e in rolls} == {"referee", "server"}
    tap(ref, "#next-cycle")
    screenshot(ref, "6-cycle-3")

    watcher = phone()
    watcher.goto(url("duels:mass-watch", situation_id))
    expect(watcher.locator("#mass-watch")).to_contain_text("Cycle 3")
    expect(watcher.locator("#mass-watch .kept-cards")).to_have_count(0)
    screenshot(watcher, "7-spectator")
    assert services.replayed(Situation.objects.get(pk=situation_id)) == mass_state(situation_id)


def test_M1_M7_two_cycles_with_printed_decks_and_a_printed_cards_qr_code_recorded(
    tablet, log_in_as, url, screenshot, referee, organizer, event, tmp_path
):
    """[M1, M7] Printed decks on: the referee records the real draws from the tablet - one by the QR code of the
    product's own printed card (its PDF, decoded with zbarimg), one tapped; a card the record has under its
    deck is refused; the decks' order by the record is printed for the table."""
    import shutil

    from django.test import Client
    from django.urls import reverse

    from cards.printing import render

    if not render.pdf_available() or not shutil.which("zbarimg"):
        pytest.skip("needs WeasyPrint and zbarimg")
    from tests.print.pdf_kit import Pdf

    cards = magic_cards(event)
    red, blue = armies(event)
    event.mass_battles_on = True
    event.magic_printed_decks = True
    event.save()
    warm, flame = cards["Warm Wind"], cards["Flame Wall"]

    # The printed deck 6, as the print shop gets it; the QR code of the Warm Wind card, as a phone reads it.
    office = Client()
    office.force_login(organizer)
    printed = office.get(reverse("cards:print-magic-decks", args=[event.pk]), {"deck": "6"})
    assert printed.status_code == 200 and printed["Content-Type"] == "application/pdf"
    path = tmp_path / "deck-6.pdf"
    path.write_bytes(printed.content)
    codes = Pdf(path).qr_codes(1)
    warm_qr = next(code for code in codes if code.rstrip("/").endswith(f"/magic-cards/{warm.pk}"))

    ref = tablet()
    log_in_as(ref, referee)
    ref.goto(url("duels:mass-start", event.pk))
    ref.select_option("select[name=army_a]", str(red.pk))
    ref.select_option("select[name=army_b]", str(blue.pk))
    ref.get_by_role("button", name="Start the mass battle").click()
    ref.wait_for_url(re.compile(r"/mass/\d+/$"))
    found = re.search(r"/mass/(\d+)/", ref.url)
    assert found is not None
    situation_id = int(found.group(1))
    assert mass_state(situation_id).settings.printed_decks
    expect(ref.locator("#mass")).to_contain_text("shuffled by hand at the table")

    # Cycle 1: red 6 (deck 6), blue 1 (a wounded warrior dies); red starts.
    ref.locator("label[for=dice-a-6]").click()
    ref.locator("label[for=dice-b-1]").click()
    tap(ref, "#roll-entered button[type=submit]")
    tap(ref, "#winner-starts")
    expect(ref.locator("#card-entry")).to_be_visible()
    expect(ref.locator(".drawn-card")).to_have_count(2)  # Flame Wall and Warm Wind: the shuffled part
    ref.fill("#card-entry", warm_qr)
    screenshot(ref, "printed-1-qr-recorded")
    tap(ref, "#record-card")
    expect(ref.locator("#pending-card")).to_contain_text("Warm Wind")
    ref.locator("label[for=whole-a]").click()
    tap(ref, "#carry-out-button")
    tap(ref, "#end-turn")
    tap(ref, "#points-form button")  # blue's 1: a wounded warrior dies
    tap(ref, "#end-turn")
    tap(ref, "#next-cycle")
    expect(ref.locator("#mass-cycle")).to_contain_text("Cycle 2")

    # Cycle 2: red 6 again; Warm Wind lies under deck 6 by the record (M7), so it is refused.
    ref.locator("label[for=dice-a-6]").click()
    ref.locator("label[for=dice-b-2]").click()
    tap(ref, "#roll-entered button[type=submit]")
    tap(ref, "#winner-starts")
    version = ref.locator("#mass").get_attribute("data-version")
    ref.fill("#card-entry", str(warm.pk))
    ref.locator("#record-card").click()
    expect(ref.locator("#mass-alert")).to_contain_text("lies under deck 6")
    expect(ref.locator("#mass")).to_have_attribute("data-version", str(version))
    screenshot(ref, "printed-2-refused")
    tap(ref, f'.drawn-card[value="{flame.pk}"]')
    expect(ref.locator("#pending-card")).to_contain_text("Flame Wall")
    ref.locator("label[for=whole-b]").click()
    tap(ref, "#carry-out-button")
    tap(ref, "#end-turn")
    # Blue's 2: deck 2, tapped among the cards the record allows.
    expect(ref.locator(".drawn-card")).to_have_count(2)
    tap(ref, ".drawn-card")
    if mass_state(situation_id).pending is not None:
        ref.locator("label[for=whole-a]").click()
        tap(ref, "#carry-out-button")
    tap(ref, "#end-turn")
    expect(ref.locator("#mass")).to_have_attribute("data-stage", "over")

    state = mass_state(situation_id)
    assert magic.deck_belief(state, 6) == ([flame.pk], [warm.pk, flame.pk])
    ref.locator("#deck-order-link").click()
    expect(ref.locator("#deck-6")).to_contain_text("shuffled by hand")
    expect(ref.locator("#deck-6 .deck-known")).to_contain_text("Warm Wind")
    screenshot(ref, "printed-3-deck-order")
    log = [e.events for e in LogEntry.objects.filter(situation_id=situation_id, command__type="use_points")]
    assert sum(1 for events in log for e in events if e.get("type") == "mass_card_drawn" and e["recorded"]) == 3

"""Spectators, the gate and the menus on real screens (issue 10): the public list of running fights with
their QR codes, the big screen, the fight history, the Cyrillic search at the gate, the phone menu and a
navigation that stays on one line on tablets - in Russian and English."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from events.models import Character

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]
PORTRAIT = {"viewport": {"width": 768, "height": 1024}}


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_a_spectator_finds_the_running_fights_and_follows_one_on_the_big_screen(
    phone, tablet, url, screenshot, running, event, locale
):
    page = phone(locale=locale)
    page.goto(url("duels:event-fights", event.pk))
    fight = page.locator(f"#fight-{running.pk}")
    expect(fight.locator("svg")).to_be_visible()
    expect(fight).to_contain_text("Zavulon")
    screenshot(page, "list")
    fight.locator(f'a[href="{reverse("duels:watch", args=[running.pk])}"]').click()
    expect(page.locator("#duel-0")).to_be_visible()

    screen = tablet(locale=locale)
    screen.goto(url("duels:big-screen", event.pk))
    expect(screen.locator("#duel-0 .countdown-answer")).to_be_visible()
    screenshot(screen, "big-screen")


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_the_phone_menu_collapses_to_one_line_and_the_tablet_nav_never_wraps(
    phone, tablet, url, log_in_as, screenshot, referee, event, locale
):
    page = phone(locale=locale)
    log_in_as(page, referee)
    page.goto(url("duels:referee-home", event.pk))
    nav = page.locator("nav.navbar")
    assert nav.bounding_box()["height"] < 80  # one line of the screen
    expect(page.locator("#main-menu")).to_be_hidden()
    page.locator(".navbar-toggler").click()
    expect(page.locator("#main-menu")).to_be_visible()
    screenshot(page, "phone-menu-open")
    for options in ({}, PORTRAIT):
        pad = tablet(locale=locale, **options)
        log_in_as(pad, referee)
        pad.goto(url("duels:referee-home", event.pk))
        # One row: the links side by side (landscape) or folded into the menu (portrait), never wider than the screen.
        assert pad.locator("nav.navbar").bounding_box()["height"] < 80, f"the navigation wraps at {pad.viewport_size}"
        assert pad.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        screenshot(pad, f"tablet-{pad.viewport_size['width']}")


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_the_gate_finds_a_cyrillic_name_typed_in_capitals(phone, url, log_in_as, screenshot, organizer, event, locale):
    Character.objects.create(event=event, name="Антон Городецкий")
    Character.objects.create(event=event, name="Завулон")
    page = phone(locale=locale)
    log_in_as(page, organizer)
    page.goto(url("events:check-in", event.pk) + "?q=АНТОН")
    expect(page.locator("main")).to_contain_text("Антон Городецкий")
    expect(page.locator("main")).not_to_contain_text("Завулон")
    screenshot(page, "search")


def test_the_history_shows_a_finished_fight_on_a_tablet(tablet, url, log_in_as, screenshot, referee, running, event):
    page = tablet()
    log_in_as(page, referee)
    page.goto(url("duels:situation", running.pk))
    page.locator("#end-duel-0 summary").click()
    page.locator("#end-duel-0 .quick-reason").first.click()
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "ended")
    page.goto(url("duels:character-history", armed_first(running)))
    expect(page.locator(f"#situation-{running.pk}")).to_contain_text("ended by the referee")
    screenshot(page)


def armed_first(situation) -> int:
    return sorted(situation.participants.values_list("pk", flat=True))[0]

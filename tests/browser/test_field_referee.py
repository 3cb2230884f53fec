"""The referee's fight screen at a real game (issue 10): every control of a step in view without
scrolling at both tablet orientations, the answer window closing by the page's own clock with a
signal that stays (D8), and a tap made without a connection sent once when it returns."""

import re

import pytest
from playwright.sync_api import expect

from cards.models import Card
from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.models import Event
from tests.services.kit import arm, nonce, parries

pytestmark = pytest.mark.browser
PORTRAIT = {"viewport": {"width": 768, "height": 1024}}


@pytest.fixture
def full_hands(character, rival, attack_card, defence_card, spark, catalogue):
    """Two fighters with the hands of a real game: seven cards each."""
    parries(defence_card, "fire")
    extra = [
        Card.objects.create(catalogue=catalogue, name_ru=f"Щит {n}", name_en=f"Ward {n}", kind="defence")
        for n in range(4)
    ]
    arm(character, (attack_card, 2), defence_card, *extra)
    arm(rival, (spark, 2), defence_card, *extra)
    return character, rival


def _in_view(page, locator) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return (
        box is not None
        and box["y"] >= 0
        and box["x"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and (box["x"] + box["width"] <= size["width"])
    )


def _all_in_view(page, selector: str) -> None:
    items = page.locator(selector)
    assert items.count() > 0, selector
    for i in range(items.count()):
        assert _in_view(page, items.nth(i)), f"{selector} #{i} is outside the screen"


def _open(page, url, situation_id):
    page.goto(url("duels:situation", situation_id))
    expect(page.locator("#fight")).to_be_visible()


@pytest.mark.parametrize("orientation", ["landscape", "portrait"])
def test_D6_D7_CR2_every_control_of_a_step_is_on_screen_without_scrolling(
    tablet, log_in_as, url, screenshot, referee, full_hands, event, attack_card, orientation
):
    anton, zavulon = full_hands
    Event.objects.filter(pk=event.pk).update(answer_window_s=120)
    event.refresh_from_db()
    page = tablet(**(PORTRAIT if orientation == "portrait" else {}))
    log_in_as(page, referee)
    situation = declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    _open(page, url, situation.pk)

    # Tap 1: the attacker's card (D6) - the attack buttons are in view.
    _all_in_view(page, "form[data-action=attack] button[name=card]")
    screenshot(page, f"{orientation}-attack")
    page.locator("form[data-action=attack] button[name=card]").first.click()
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "await_answer")
    # Tap 2: the defender's answer (D7): every card, "no answer" and the countdown are in view.
    _all_in_view(page, "form[data-action=answer] button[name=card]")
    assert _in_view(page, page.locator(".countdown-answer"))
    screenshot(page, f"{orientation}-answer")
    page.locator("form[data-action=answer] button.btn-primary").first.click()  # a defence card
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "await_result")
    # Tap 3: confirm - or override: the results, the quick reasons and the button are in view (CR2).
    _all_in_view(page, "form[data-action=confirm] button, form[data-action=override] label.btn")
    _all_in_view(page, "form[data-action=override] .quick-reason, form[data-action=override] button[type=submit]")
    screenshot(page, f"{orientation}-result")
    page.locator("form[data-action=confirm] button").click()
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "await_attack")
    # The hands are folded to their counts; a tap opens one.
    hand = page.locator(f"#hand-0-{anton.pk}")
    expect(hand).not_to_have_attribute("open", "")
    hand.locator("summary").click()
    expect(hand.locator(".card-chip").first).to_be_visible()


def test_D8_the_answer_buttons_close_at_zero_and_the_signal_stays_until_dismissed(
    tablet, log_in_as, url, screenshot, referee, full_hands, event, attack_card
):
    anton, zavulon = full_hands
    Event.objects.filter(pk=event.pk).update(answer_window_s=7)
    event.refresh_from_db()
    page = tablet()
    log_in_as(page, referee)
    situation = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation
    _open(page, url, situation.pk)
    # Until the window has closed, no live update reaches the page: what closes the buttons is its own clock.
    polls = re.compile(r".*/fights/\d+/$")
    page.route(polls, lambda route: route.abort() if route.request.method == "GET" else route.continue_())
    # The last five seconds are urgent.
    expect(page.locator(".countdown-answer.urgent")).to_be_visible(timeout=5000)
    screenshot(page, "urgent")
    banner = page.locator("#signal-banner")
    expect(banner).to_be_visible(timeout=8000)
    expect(banner).to_contain_text("Time is up")
    # The page's own clock closed the buttons at 0, before any answer from the server.
    expect(page.locator("form[data-action=answer] button").first).to_be_disabled()
    screenshot(page, "timed-out")
    page.unroute(polls)
    # The banner outlives the live swap that brings the timed-out step (D8 applied by the server).
    expect(page.locator("#duel-0")).not_to_have_attribute("data-phase", "await_answer", timeout=8000)
    expect(banner).to_be_visible()
    page.locator(".signal-dismiss").click()
    expect(banner).to_be_hidden()


def test_a_tap_without_a_connection_is_kept_and_applied_exactly_once(
    tablet, log_in_as, url, screenshot, referee, full_hands, event
):
    anton, zavulon = full_hands
    Event.objects.filter(pk=event.pk).update(answer_window_s=120)
    event.refresh_from_db()
    page = tablet()
    log_in_as(page, referee)
    situation = declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    _open(page, url, situation.pk)
    commands = LogEntry.objects.filter(situation=situation, kind="command")
    before = commands.count()

    page.context.set_offline(True)
    page.locator("form[data-action=attack] button[name=card]").first.click()
    expect(page.locator("#net-banner")).to_be_visible()
    expect(page.locator("#net-banner [data-net=kept]")).to_be_visible()
    screenshot(page, "offline-kept")
    assert commands.count() == before
    # The polls say how old the page is.
    expect(page.locator("#poll-status")).to_be_visible(timeout=6000)

    page.context.set_offline(False)
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "await_answer", timeout=10000)
    expect(page.locator("#net-banner")).to_be_hidden()
    page.wait_for_timeout(4000)  # another resend round and polls: nothing more may be applied
    attacks = [e for e in commands.order_by("seq") if (e.command or {}).get("type") == "attack"]
    assert len(attacks) == 1
    assert commands.count() == before + 1
    expect(page.locator("#poll-status")).to_be_hidden()
    screenshot(page, "online-applied-once")


def test_a_kept_tap_is_dropped_with_a_message_when_the_fight_moved_on(
    tablet, log_in_as, url, referee, full_hands, event, spark
):
    anton, zavulon = full_hands
    Event.objects.filter(pk=event.pk).update(answer_window_s=120)
    event.refresh_from_db()
    page = tablet()
    log_in_as(page, referee)
    situation = declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    _open(page, url, situation.pk)
    page.context.set_offline(True)
    page.locator("form[data-action=attack] button[name=card]").first.click()
    expect(page.locator("#net-banner [data-net=kept]")).to_be_visible()
    # Meanwhile another referee ends the duel.
    row = Situation.objects.get(pk=situation.pk)
    from rules.duel import EndDuel

    services.perform(row.pk, EndDuel(duel=0, reason="stopped"), user=referee, seen_version=row.version, nonce=nonce())
    page.context.set_offline(False)
    expect(page.locator("#net-banner [data-net=dropped]")).to_be_visible(timeout=10000)
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "ended")
    commands = LogEntry.objects.filter(situation=situation, kind="command")
    assert not [e for e in commands if (e.command or {}).get("type") == "attack"]
    assert re.search("moved on", page.locator("#net-banner").inner_text())


@pytest.mark.parametrize("signals", ["on", "off"])
def test_D8_the_defenders_phone_signals_the_time_out_and_vibrates_only_when_switched_on(
    phone, log_in_as, url, screenshot, referee, other_player, full_hands, event, attack_card, signals
):
    """The defender (Zavulon, other_player's character) gets the banner; vibration follows this device's switch."""
    anton, zavulon = full_hands
    Event.objects.filter(pk=event.pk).update(answer_window_s=6)
    event.refresh_from_db()
    page = phone()
    page.add_init_script(
        "navigator.vibrate = (p) => { window.__vibrated = p; return true; };"
        f"window.localStorage.setItem('sumrak-signals', '{signals}');"
    )
    log_in_as(page, other_player)
    page.goto(url("duels:player-live", zavulon.pk))
    declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce())
    expect(page.locator("#my-duel [data-closes]")).to_be_visible(timeout=6000)
    banner = page.locator("#signal-banner")
    expect(banner).to_be_visible(timeout=8000)
    expect(banner).to_contain_text("Time is up")
    vibrated = page.evaluate("window.__vibrated || null")
    assert (vibrated is not None) == (signals == "on")
    screenshot(page)


def test_D8_a_time_out_that_a_live_update_brings_first_is_still_signalled(
    tablet, log_in_as, url, referee, full_hands, event, attack_card
):
    """A slow network makes the page's clock lag: the poll shows the timed-out step before 0 - signal anyway."""
    anton, zavulon = full_hands
    Event.objects.filter(pk=event.pk).update(answer_window_s=3)
    event.refresh_from_db()
    page = tablet()
    log_in_as(page, referee)
    situation = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation
    _open(page, url, situation.pk)
    page.wait_for_timeout(300)  # the page has seen the window open
    page.evaluate("document.querySelectorAll('[data-closes]').forEach(e => e.removeAttribute('data-closes'))")
    expect(page.locator("#duel-0")).not_to_have_attribute("data-phase", "await_answer", timeout=10000)
    expect(page.locator("#signal-banner")).to_be_visible()
    expect(page.locator("#signal-banner")).to_contain_text("Time is up")

"""A tap made offline survives a reload and a closed tab, and is applied exactly once (issue 23).

On every tablet page - the duel, the battle, the mass battle and the check-in desk - a tap made
without a connection is kept in localStorage with its nonce (static/js/sumrak.js). The tablet
comes back online but the tap's address still fails (its answer cannot come through yet), the
page is reloaded: the tap is still pending, the badge says so; once the address answers, the tap
is applied once, the badge clears and the storage is empty. Only the form's own fields are stored:
never the CSRF token, a hand or a secret link (docs/security.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import expect

from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.models import Character, Event
from tests.services.battle_kit import begin, party
from tests.services.kit import SECRET_ANTON, SECRET_ZAVULON, nonce
from tests.services.mass_kit import armies, magic_cards
from tests.services.mass_kit import start as start_mass

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]
TAPS_KEY = "sumrak-pending-taps"
# Every field a stored tap may carry; anything else (a token, a hand) must never be there.
TAP_FIELDS = {"key", "path", "body", "target", "page", "at", "owner", "persist", "failed"}


@dataclass
class Desk:
    page_url: str
    post: re.Pattern[str]  # the address the tap posts to
    tap: Callable[[Any], None]
    applied: Callable[[], int]  # how many times the tap took effect
    shown: Callable[[Any], None]  # the page shows the tap's result
    nonce: str | None  # the tapped form's nonce (None: the check-in, idempotent by its value)


def _commands(situation: Situation, kind: str) -> int:
    return sum(1 for e in LogEntry.objects.filter(situation=situation, kind="command") if e.command["type"] == kind)


def _desk(kind: str, page, url, referee, organizer, event: Event, armed) -> Desk:
    Event.objects.filter(pk=event.pk).update(answer_window_s=120)
    if kind == "check-in":
        anton = armed[0]
        row = f"#character-{anton.pk}"
        return Desk(
            url("events:check-in", event.pk),
            re.compile(r".*/organize/characters/\d+/arrived/$"),
            lambda p: p.locator(f"{row} button[name=arrived]").click(),
            lambda: int(Character.objects.get(pk=anton.pk).arrived),
            lambda p: expect(p.locator(row)).to_have_class(re.compile("list-group-item-success")),
            None,
        )
    if kind == "duel":
        anton, zavulon = armed
        situation = declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce()).situation
        return Desk(
            url("duels:situation", situation.pk),
            re.compile(r".*/fights/\d+/act/$"),
            lambda p: p.locator("form[data-action=attack] button[name=card]").first.click(),
            lambda: _commands(situation, "attack"),
            lambda p: expect(p.locator("#duel-0")).to_have_attribute("data-phase", "await_answer"),
            "form[data-action=attack]",
        )
    if kind == "battle":
        anna, boris, vera, gleb = party(event)
        situation = begin(event, [anna, boris, vera, gleb], user=referee)

        def attack(p) -> None:
            p.locator("#turn-form label.btn", has_text="Blade").first.click()
            p.locator(f"label[for='target-{vera.pk}']").click()
            p.locator("#act-attack").click()

        return Desk(
            url("duels:battle", situation.pk),
            re.compile(r".*/battles/\d+/act/$"),
            attack,
            lambda: _commands(situation, "act"),
            lambda p: expect(p.locator(f".answer-window[data-defender='{vera.pk}']")).to_be_visible(),
            "#turn-form",
        )
    magic_cards(event)
    red, blue = armies(event)
    situation = start_mass(event, referee, red, blue)
    return Desk(
        url("duels:mass", situation.pk),
        re.compile(r".*/mass/\d+/act/$"),
        lambda p: p.locator("#roll-server").click(),
        lambda: _commands(situation, "roll_initiative"),
        lambda p: expect(p.locator(".mass-roll")).to_have_count(1),
        "form[data-action=roll_server]",
    )


def _stored(page) -> list[dict[str, Any]]:
    return json.loads(page.evaluate(f"window.localStorage.getItem('{TAPS_KEY}') || '[]'"))


def _assert_only_the_forms_fields(taps: list[dict[str, Any]], sent: str | None) -> None:
    assert len(taps) == 1, taps
    tap = taps[0]
    assert set(tap) <= TAP_FIELDS, tap
    text = json.dumps(tap)
    assert "csrf" not in text.lower()
    for secret in (*SECRET_ANTON, *SECRET_ZAVULON):
        assert secret not in text  # never a hand (D4)
    assert "/c/" not in tap["path"]  # never a secret link
    if sent is not None:
        assert f"nonce={sent}" in tap["body"]


@pytest.mark.parametrize("kind", ["duel", "battle", "mass", "check-in"])
def test_a_tap_made_offline_survives_a_reload_and_is_applied_once(
    tablet, log_in_as, url, screenshot, referee, organizer, event, armed, kind
):
    page = tablet()
    log_in_as(page, organizer if kind == "check-in" else referee)
    desk = _desk(kind, page, url, referee, organizer, event, armed)
    page.goto(desk.page_url)
    sent = page.locator(f"{desk.nonce} input[name=nonce]").input_value() if desk.nonce else None

    page.context.set_offline(True)
    desk.tap(page)
    banner = page.locator("#net-banner")
    expect(banner.locator("[data-net=kept]")).to_be_visible()
    expect(banner).to_contain_text("Pending")
    expect(banner.locator("[data-net-cause=offline]")).to_be_visible()
    _assert_only_the_forms_fields(_stored(page), sent)
    assert desk.applied() == 0

    # Back online, but the tap's answers cannot come through yet; the page is reloaded meanwhile.
    page.route(desk.post, lambda route: route.abort())
    page.context.set_offline(False)
    page.reload()
    expect(banner.locator("[data-net=kept]")).to_be_visible()  # still pending after the reload
    assert len(_stored(page)) == 1 and desk.applied() == 0
    screenshot(page, f"{kind}-reloaded-pending")

    page.unroute(desk.post)
    desk.shown(page)
    expect(banner).to_be_hidden(timeout=8000)
    page.wait_for_timeout(4000)  # more resend rounds and polls: nothing more may be applied
    assert desk.applied() == 1
    assert _stored(page) == []
    expect(banner).to_be_hidden()
    screenshot(page, f"{kind}-applied-once")


def test_a_tap_kept_when_its_tab_was_closed_is_sent_by_the_next_page(
    tablet, log_in_as, url, referee, organizer, event, armed
):
    """A killed tab: the tap was on its way when the tab went; the tablet's next page sends it."""
    page = tablet()
    log_in_as(page, referee)
    desk = _desk("duel", page, url, referee, organizer, event, armed)
    page.goto(desk.page_url)
    page.context.set_offline(True)
    desk.tap(page)
    expect(page.locator("#net-banner [data-net=kept]")).to_be_visible()
    context = page.context
    page.close()
    context.set_offline(False)
    again = context.new_page()
    again.goto(desk.page_url)
    desk.shown(again)
    expect(again.locator("#net-banner")).to_be_hidden(timeout=8000)
    again.wait_for_timeout(3500)
    assert desk.applied() == 1


def test_a_logout_forgets_the_kept_taps(tablet, log_in_as, url, referee, organizer, event, armed):
    """The next person on the tablet must not send the last one's taps under their own account."""
    page = tablet()
    log_in_as(page, referee)
    desk = _desk("duel", page, url, referee, organizer, event, armed)
    page.goto(desk.page_url)
    page.route(desk.post, lambda route: route.abort())
    desk.tap(page)
    expect(page.locator("#net-banner [data-net=kept]")).to_be_visible()
    assert len(_stored(page)) == 1
    with page.expect_navigation():
        page.locator("form[action='/accounts/logout/'] button").click()
    assert _stored(page) == []
    page.unroute(desk.post)
    log_in_as(page, referee)
    page.goto(desk.page_url)
    page.wait_for_timeout(3500)
    assert desk.applied() == 0


def test_an_answered_tap_never_shows_the_pending_badge(tablet, log_in_as, url, referee, organizer, event, armed):
    """Online, a tap is answered at once: no "pending" flashes, and nothing stays in storage."""
    page = tablet()
    log_in_as(page, referee)
    desk = _desk("duel", page, url, referee, organizer, event, armed)
    page.goto(desk.page_url)
    page.evaluate(
        """() => { window.__bannerSeen = false;
        new MutationObserver(() => { if (!document.getElementById('net-banner').hidden) window.__bannerSeen = true; })
          .observe(document.getElementById('net-banner'), {attributes: true}); }"""
    )
    desk.tap(page)
    desk.shown(page)
    page.wait_for_timeout(2500)
    assert page.evaluate("window.__bannerSeen") is False
    assert _stored(page) == []
    assert desk.applied() == 1

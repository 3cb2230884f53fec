"""Live polls in a real browser: an unchanged fight answers 304 to every viewer (DESIGN.md §5), without
the browser keeping a copy of a hand (D4), and a change still comes through."""

from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from duels import services
from rules import duel as engine
from tests.services.kit import nonce

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]


def _watch_polls(page, path: str) -> list[int]:
    statuses: list[int] = []
    page.on("response", lambda r: statuses.append(r.status) if r.url.endswith(path) else None)
    return statuses


@pytest.mark.parametrize("who", ["player", "referee", "spectator"])
def test_D4_an_unchanged_fight_polls_304_and_nothing_with_a_hand_is_stored(
    who, phone, tablet, log_in_as, url, screenshot, player, referee, character, rival, shown
):
    page = tablet() if who == "referee" else phone()
    if who == "player":
        log_in_as(page, player)
        address = url("duels:player-live", character.pk)
    elif who == "referee":
        log_in_as(page, referee)
        address = url("duels:situation", shown.pk)
    else:
        address = url("duels:watch", shown.pk)
    path = urlparse(address).path
    full = page.goto(address)
    # A hand reaches the player's and the referee's fragment: no browser may keep a live fragment (D4).
    assert "no-store" in full.headers["cache-control"]
    statuses = _watch_polls(page, path)
    page.wait_for_timeout(4500)  # two polls at least
    assert statuses and set(statuses) == {304}, statuses

    shown.refresh_from_db()
    services.perform(
        shown.pk, engine.Answer(0, rival.pk, None), user=referee, seen_version=shown.version, nonce=nonce()
    )
    answered = "#my-duel >> text=The referee is deciding" if who == "player" else "#duel-0[data-phase=await_result]"
    expect(page.locator(answered)).to_be_visible(timeout=6000)
    assert 200 in statuses
    screenshot(page)


def _set_visibility(page, state: str) -> None:
    page.evaluate(
        """state => {
            Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
        }""",
        state,
    )


def test_polling_pauses_in_a_hidden_tab_and_catches_up_when_it_comes_back(
    tablet, log_in_as, url, screenshot, referee, rival, shown
):
    page = tablet()
    log_in_as(page, referee)
    address = url("duels:situation", shown.pk)
    page.goto(address)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url) if r.url == address else None)
    _set_visibility(page, "hidden")
    shown.refresh_from_db()
    services.perform(
        shown.pk, engine.Answer(0, rival.pk, None), user=referee, seen_version=shown.version, nonce=nonce()
    )
    page.wait_for_timeout(4500)  # two poll intervals
    assert requests == []
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "await_answer")
    # Back in view: one poll at once brings the change, without waiting for the next interval. Checked by
    # the order of events, not a 1.5 s bound (a loaded CI machine): the poll's request is sent by the
    # visibility change itself, before its dispatch returns, not by a later timer.
    sent_by_the_change = page.evaluate(
        """() => {
            let sent = 0;
            const send = XMLHttpRequest.prototype.send;
            XMLHttpRequest.prototype.send = function (...args) { sent += 1; return send.apply(this, args); };
            Object.defineProperty(document, "visibilityState", {value: "visible", configurable: true});
            document.dispatchEvent(new Event("visibilitychange"));
            XMLHttpRequest.prototype.send = send;
            return sent;
        }"""
    )
    assert sent_by_the_change == 1, sent_by_the_change
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "await_result", timeout=10_000)
    assert requests
    screenshot(page)

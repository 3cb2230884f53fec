"""A tap made without a connection on the battle and mass-battle tablets is kept and re-sent
with its nonce when the connection returns, and applied exactly once (DESIGN.md §4: a repeated
nonce changes nothing; docs/field.md, "Flaky Wi-Fi"). The duel page's own test of the same resend
is tests/browser/test_field_referee.py; every command form of these pages opens with the same
header (templates/duels/_action_form.html), so the same static/js/sumrak.js path has to carry them.
"""

import re

import pytest
from playwright.sync_api import expect

from duels.models import LogEntry, Situation
from events.models import Event
from tests.services.battle_kit import begin, party
from tests.services.mass_kit import armies, magic_cards
from tests.services.mass_kit import start as start_mass

pytestmark = pytest.mark.browser
ACT = re.compile(r".*/(battles|mass)/\d+/act/$")
LOST = pytest.mark.parametrize("lost", ["request", "answer"])


def _version(situation_id: int) -> int:
    return Situation.objects.get(pk=situation_id).version


def _tap_without_a_connection(page, screenshot, lost: str, live: str, form: str, tap, situation_id: int) -> str:
    """Tap with the connection lost, see the tap kept; bring the connection back and see the page
    move exactly one version on. ``lost``: "request" - the tablet is offline, nothing reaches the
    server until it is back; "answer" - the tap reaches the server and is applied, but its answer is
    lost, so the resend carries a nonce the server has already seen. Returns the tapped form's nonce."""
    version = _version(situation_id)
    expect(page.locator(live)).to_have_attribute("data-version", str(version))
    sent = page.locator(f"{form} input[name=nonce]").input_value()
    assert sent

    if lost == "request":
        page.context.set_offline(True)
    else:
        reached: list[str] = []

        def lose_the_answer(route) -> None:
            if not reached:  # the first tap reaches the server; its answer does not come back
                reached.append(route.request.url)
                route.fetch()
            route.abort()  # and later tries fail like a dead connection, until unrouted

        page.route(ACT, lose_the_answer)
    tap()
    expect(page.locator("#net-banner")).to_be_visible()
    expect(page.locator("#net-banner [data-net=kept]")).to_be_visible()
    screenshot(page, f"{lost}-lost-kept")
    applied = 0 if lost == "request" else 1
    assert LogEntry.objects.filter(nonce=sent).count() == applied
    assert _version(situation_id) == version + applied

    if lost == "request":
        page.context.set_offline(False)
    else:
        page.unroute(ACT)
    expect(page.locator(live)).to_have_attribute("data-version", str(version + 1), timeout=10000)
    expect(page.locator("#net-banner")).to_be_hidden(timeout=10000)
    page.wait_for_timeout(4000)  # another resend round and polls: nothing more may be applied
    assert _version(situation_id) == version + 1
    assert LogEntry.objects.filter(nonce=sent).count() == 1
    expect(page.locator("#net-banner")).to_be_hidden()
    return sent


@LOST
def test_DESIGN4_a_battle_turn_tapped_offline_is_kept_and_applied_exactly_once(
    tablet, log_in_as, url, screenshot, referee, event, lost
):
    """The turn form's attack (cards, target and the pressed button's act=attack) is re-sent whole."""
    Event.objects.filter(pk=event.pk).update(answer_window_s=120)
    anna, boris, vera, gleb = party(event)
    situation = begin(event, [anna, boris, vera, gleb], user=referee)
    commands = LogEntry.objects.filter(situation=situation, kind="command")
    before = commands.count()
    page = tablet()
    log_in_as(page, referee)
    page.goto(url("duels:battle", situation.pk))
    expect(page.locator("#turn-form")).to_be_visible()
    blade = page.locator("#turn-form label.btn", has_text="Blade").first
    # Choosing the card and the target needs no connection: only the tap on "Attack" is sent.
    blade.click()
    page.locator(f"label[for='target-{vera.pk}']").click()

    sent = _tap_without_a_connection(
        page, screenshot, lost, "#battle", "#turn-form", lambda: page.locator("#act-attack").click(), situation.pk
    )

    command = LogEntry.objects.get(nonce=sent).command or {}
    assert (command.get("type"), command.get("act"), command.get("actor")) == ("act", "attack", anna.pk)
    assert list(command.get("targets", ())) == [vera.pk] and len(command.get("cards", ())) == 1
    assert commands.count() == before + 1
    # The page shows the result: Vera's answer window is open.
    expect(page.locator(f".answer-window[data-defender='{vera.pk}']")).to_be_visible()
    expect(page.locator("#turn-form")).to_have_count(0)
    screenshot(page, "online-applied-once")


@LOST
def test_DESIGN4_M8_a_server_roll_tapped_offline_is_kept_and_rolled_exactly_once(
    tablet, log_in_as, url, screenshot, referee, event, lost
):
    """Initiative rolled by the server (M4, M8): a resend applied twice would roll the dice twice."""
    magic_cards(event)
    red, blue = armies(event)
    situation = start_mass(event, referee, red, blue)
    commands = LogEntry.objects.filter(situation=situation, kind="command")
    before = commands.count()
    page = tablet()
    log_in_as(page, referee)
    page.goto(url("duels:mass", situation.pk))
    expect(page.locator("#mass")).to_have_attribute("data-stage", "initiative")

    sent = _tap_without_a_connection(
        page,
        screenshot,
        lost,
        "#mass",
        "form[data-action=roll_server]",
        lambda: page.locator("#roll-server").click(),
        situation.pk,
    )

    entry = LogEntry.objects.get(nonce=sent)
    assert (entry.command or {}).get("type") == "roll_initiative"
    assert (entry.command or {}).get("source") == "server"
    assert commands.count() == before + 1
    # The page shows the result: one roll, the server's.
    expect(page.locator(".mass-roll")).to_have_count(1)
    expect(page.locator(".mass-roll")).to_contain_text("rolled by the server")
    screenshot(page, "online-applied-once")

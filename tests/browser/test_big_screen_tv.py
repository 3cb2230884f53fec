"""The big screen on a 1080p TV (issue 20): several fights at once, names of 40 px or more, a labelled
countdown in the locale's own decimals, nothing below the fold - light and dark."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cards.models_mass import Army, MagicCard, Warrior, WarriorType
from duels import services
from duels.mass.start import start_mass_battle
from events.models import Event
from rules import battle as B
from tests.browser.axe_kit import axe_violations
from tests.services.battle_kit import begin, buid, party
from tests.services.kit import nonce

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TV = {"viewport": {"width": 1920, "height": 1080}, "device_scale_factor": 1, "is_mobile": False, "has_touch": False}


@pytest.fixture
def three_fights(running, event, referee):
    """A duel and a battle with an answer window open (9 s: the countdown shows tenths), and a mass battle."""
    Event.objects.filter(pk=event.pk).update(answer_window_s=9, battles_on=True, mass_battles_on=True)
    event.refresh_from_db()
    people = party(event, 4, first=4)
    battle = begin(event, people, referee)
    state = services.state_of(battle)
    actor = next(c for c in people if c.pk == state.turn_of)
    target = next(c for c in people if c.side != actor.side)
    battle.refresh_from_db()
    services.perform(
        battle.pk,
        B.Act(actor=actor.pk, act=B.ATTACK, cards=(buid(battle, actor, "Blade"),), targets=(target.pk,)),
        user=referee,
        seen_version=battle.version,
        nonce=nonce(),
    )
    MagicCard.objects.create(catalogue=event.catalogue, name_ru="Огненный дождь", deck=2, magic_type="fire")
    kind = WarriorType.objects.create(event=event, name_ru="Воин")
    armies = [Army.objects.create(event=event, name=name) for name in ("Red", "Blue")]
    for army in armies:
        Warrior.objects.create(army=army, name="1", warrior_type=kind)
    mass = start_mass_battle(event, *armies, user=referee, nonce=nonce()).situation
    return [running, battle, mass]


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("locale", ["ru-RU", "en-GB"])
def test_three_fights_fill_a_1080p_screen(
    new_context, url, live_server, screenshot, event, three_fights, locale, scheme
):
    page = new_context(**TV, locale=locale, color_scheme=scheme).new_page()
    page.goto(url("duels:big-screen", event.pk))
    battle = three_fights[1]
    countdown = page.locator(f"#screen-fight-{battle.pk} [data-deadline]")
    expect(countdown).to_have_text(re.compile(r"\d"))
    sections = page.locator(".big-screen-fight")
    expect(sections).to_have_count(3)
    assert page.evaluate("document.documentElement.scrollHeight") <= 1080
    for i in range(3):
        box = sections.nth(i).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 1080
    sizes = page.eval_on_selector_all(
        ".big-screen-name", "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert sizes and min(sizes) >= 40
    # Labelled: the words next to the number, and for a screen reader.
    label = page.locator(f"#screen-fight-{battle.pk} .countdown-label")
    expect(label).to_be_visible()
    assert countdown.get_attribute("aria-label")
    text = countdown.inner_text()
    decimal = "," if locale.startswith("ru") else "."
    assert re.fullmatch(rf"\d{re.escape(decimal)}\d", text), text
    screenshot(page, f"{locale}-{scheme}")
    assert axe_violations(page, live_server) == []

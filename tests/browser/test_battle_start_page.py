"""[D5] The battle's start page in a 2,000-character game on a 1024x768 tablet (issue 20).

The referee types part of a name, the picker shows only the matches, Enter adds
the first; the page stays within two screens whatever the event's size.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from events.models import Character, Side

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_battle_is_started_by_typing_names_among_two_thousand(tablet, log_in_as, url, screenshot, referee, event):
    sides = [Side.LIGHT, Side.DARK, Side.INQUISITION]
    Character.objects.bulk_create(
        Character(event=event, name=f"Crowd {i:04d}", side=sides[i % 3], arrived=i % 5 == 0) for i in range(2000)
    )
    for name, side in (("Anna Light", Side.LIGHT), ("Boris Light", Side.LIGHT), ("Vera Dark", Side.DARK)):
        Character.objects.create(event=event, name=name, side=side)
    page = tablet()
    log_in_as(page, referee)
    page.goto(url("duels:battle-start", event.pk))
    for name in ("anna", "BORIS", "vera d"):
        page.locator("#pick-filter").fill(name)
        visible = page.locator("#id_pick option:not([hidden])")
        expect(visible).to_have_count(1)
        page.locator("#pick-filter").press("Enter")
        page.wait_for_load_state()
    expect(page.locator("#battle-chosen tbody tr")).to_have_count(3)
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= 2 * 768, f"the page is {height} px long"
    for target in ("#add-combatant", "#begin-battle", "#id_pick", "#pick-filter"):
        box = page.locator(target).bounding_box()
        assert box is not None and box["height"] >= 44, target
    screenshot(page)
    page.locator("#begin-battle").click()
    page.wait_for_url(re.compile(r"/battles/\d+/$"))

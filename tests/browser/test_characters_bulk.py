"""Bulk actions on the characters list in a browser (issue 10): "select all on this page" ticks the rows the
page shows, and one tap on "check in" marks exactly those as arrived and keeps the list's filters."""

import pytest
from playwright.sync_api import expect

from events.models import Character

pytestmark = pytest.mark.browser


def test_select_all_then_check_in_marks_the_shown_page_arrived(tablet_page, log_in_as, url, organizer, event):
    shown = [Character.objects.create(event=event, name=f"Light {i}", side="light") for i in range(3)]
    hidden = Character.objects.create(event=event, name="Dark one", side="dark")
    page = tablet_page
    log_in_as(page, organizer)
    page.goto(url("events:characters", event.pk) + "?side=light")
    page.locator("#select-all").check()
    expect(page.locator('input[name="id"]:checked')).to_have_count(3)
    with page.expect_navigation():
        page.locator('button[name="action"][value="check_in"]').click()
    assert page.url.endswith("?side=light")
    expect(page.locator(".alert, [role=alert]").filter(has_text="3 characters are checked in.")).to_have_count(1)
    assert set(Character.objects.filter(arrived=True).values_list("pk", flat=True)) == {c.pk for c in shown}
    assert not Character.objects.get(pk=hidden.pk).arrived

"""Files from JoinRPG and allrpg.info imported through the pages in a browser (issue 22).

Each file is shaped as its tool writes it (tests/web/foreign_files.py): the organizer uploads
it on the characters import page, sees the mapping page recognise the tool with the columns
and values matched and the first rows previewed, imports, and finds the characters with the
values mapped. A pools file with a misspelt card comes back with its row, its column and a
suggestion, which the organizer ticks.
"""

import pytest
from playwright.sync_api import expect

from cards.models import PoolEntry
from events.models import Character
from tests.web import foreign_files

pytestmark = pytest.mark.browser

FILES = {
    "joinrpg-characters.csv": (
        lambda: foreign_files.joinrpg_csv(foreign_files.joinrpg_characters_rows()),
        "Recognised: a JoinRPG character list.",
        {"Антон Городецкий": ("light", "2", "accepted"), "Завулон": ("dark", "beyond", "accepted")},
    ),
    "joinrpg-characters.xlsx": (
        lambda: foreign_files.joinrpg_xlsx(foreign_files.joinrpg_characters_rows()),
        "Recognised: a JoinRPG character list.",
        {"Антон Городецкий": ("light", "2", "accepted"), "Завулон": ("dark", "beyond", "accepted")},
    ),
    "joinrpg-claims.csv": (
        lambda: foreign_files.joinrpg_csv(foreign_files.joinrpg_claims_rows()),
        "Recognised: a JoinRPG claims list.",
        {
            "Семён": ("light", "7", "accepted"),
            "Алиса": ("dark", "7", "pending"),
            "Светлана": ("light", "7", "rejected"),
        },
    ),
    "joinrpg-claims.xlsx": (
        lambda: foreign_files.joinrpg_xlsx(foreign_files.joinrpg_claims_rows()),
        "Recognised: a JoinRPG claims list.",
        {"Семён": ("light", "7", "accepted"), "Игнат": ("dark", "7", "pending")},
    ),
    "allrpg-applications.xls": (
        foreign_files.allrpg_xls,
        "Recognised: allrpg.info applications.",
        {"Гесер": ("light", "7", "accepted"), "Тигрёнок": ("light", "7", "pending")},
    ),
}


@pytest.mark.parametrize("name", FILES)
def test_a_file_from_another_tool_imports_through_the_mapping_page(
    tablet_page, log_in_as, url, organizer, event, tmp_path, screenshot, name
):
    build, recognised, expected = FILES[name]
    path = tmp_path / name
    path.write_bytes(build())
    page = tablet_page
    log_in_as(page, organizer)
    page.goto(url("events:characters-import", event.pk))
    page.set_input_files("input[name=file]", str(path))
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    expect(page.locator("#import-preset")).to_contain_text(recognised)
    expect(page.locator("#column-0")).to_have_value("name" if "allrpg" not in name else "external_id")
    expect(page.locator("#values-side")).to_be_visible()  # the values of the side's column, matched
    expect(page.locator("#mapping-preview tbody tr").first).to_be_visible()
    assert not Character.objects.filter(event=event).exists()  # nothing written before the import
    screenshot(page, "mapping")
    with page.expect_navigation():
        page.locator("#mapping-import").click()
    expect(page.locator(".alert, [role=alert]").filter(has_text="Imported:")).to_have_count(1)
    found = {c.name: (c.side, c.power_level, c.status) for c in Character.objects.filter(event=event)}
    for character, values in expected.items():
        assert found[character] == values, (character, found.get(character))


def test_a_bad_row_names_its_row_and_column_and_a_suggestion(
    tablet_page, log_in_as, url, organizer, event, character, attack_card, tmp_path, screenshot
):
    path = tmp_path / "pools.csv"
    path.write_text("Персонаж;Где;Карта;Копий\nAnton;пул;Огненый шар;2\n", encoding="utf-8")
    page = tablet_page
    log_in_as(page, organizer)
    page.goto(url("cards:arsenals-import", event.pk))
    page.set_input_files("input[name=file]", str(path))
    with page.expect_navigation():
        page.locator("main form button[type=submit]").click()
    expect(page.locator("#column-2")).to_have_value("card")
    with page.expect_navigation():
        page.locator("#mapping-import").click()
    errors = page.locator("#import-errors")
    expect(errors).to_contain_text("«Карта» (C): No card “Огненый шар” in the event's catalogue.")
    expect(errors.locator("td").first).to_have_text("2")
    expect(errors).to_contain_text("Did you mean «Огненный шар»?")
    screenshot(page, "suggestion")
    assert not PoolEntry.objects.exists()
    errors.locator("input[name=use]").check()
    with page.expect_navigation():
        page.locator("#import-correct").click()
    expect(page.locator(".alert, [role=alert]").filter(has_text="Imported the card lists")).to_have_count(1)
    assert PoolEntry.objects.get(character=character).card == attack_card

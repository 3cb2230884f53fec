"""Every import page refuses the 4.7 KB XLSX bomb and a billion-laughs XML, changing nothing (issues 22 and 27).

The same readers serve every page (events/import_page.py read_upload); here each hostile
file goes through each page the organizer uses, and must come back as the page with the
bound's words (status 400) and no row written. Time and memory of the same reads, measured
in a fresh process: tests/web/test_import_bounds.py.
"""

import pytest
from django.urls import reverse

from cards.models import Card, PoolEntry
from cards.models_mass import MagicCard
from events.imports.models import TableImport
from events.models import Character
from tests.web import table_bombs
from tests.web.mapping_kit import upload

pytestmark = pytest.mark.django_db

PAGES = {
    "characters": ("events:characters-import", {}),
    "arsenals": ("cards:arsenals-import", {}),
    "catalogue": ("cards:catalogue-import", {"what": "cards", "file_format": ""}),
    "mass": ("cards:mass-data", {"what": "magic_cards"}),
}
FILES = {
    "bomb.xlsx": (table_bombs.dimension_bomb, "The sheet declares 1048576 rows and 16384 columns"),
    "laughs.xlsx": (table_bombs.billion_laughs_workbook, "XML document type definition"),
    "laughs-strings.xlsx": (
        lambda: table_bombs.billion_laughs_workbook("xl/sharedStrings.xml"),
        "XML document type definition",
    ),
    "laughs.xls": (table_bombs.billion_laughs_html, "XML document type definition"),
}


def nothing_written(event) -> bool:
    return not (
        Character.objects.filter(event=event).exists()
        or PoolEntry.objects.exists()
        or Card.objects.filter(catalogue=event.catalogue).exists()
        or MagicCard.objects.exists()
    )


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("name", FILES)
def test_every_import_page_refuses_the_bombs(org, event, page, name):
    url_name, extra = PAGES[page]
    build, words = FILES[name]
    response = upload(org, event, url_name, name, build(), **extra)
    assert response.status_code == 400, (response.status_code, response.get("Location"))
    assert words in response.content.decode()
    assert nothing_written(event) and not TableImport.objects.exists()


def test_the_4_7_KB_bomb_is_the_size_the_issue_says():
    assert len(table_bombs.dimension_bomb()) < 5 * 1024


def test_a_real_excel_97_file_is_refused_with_what_to_do(org, event):
    ole2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 512
    response = upload(org, event, "events:characters-import", "old.xls", ole2)
    assert response.status_code == 400 and "save it as .xlsx or CSV" in response.content.decode()


def test_the_mapping_page_is_reached_only_through_a_file_read_within_the_bounds(org, event):
    """A page for an import that does not exist, or of another event, is a 404."""
    assert org.get(reverse("events:import-mapping", args=[event.pk, 987654])).status_code == 404

"""The two table-import pages of an event share one page (events/import_page.py, events/_table_import.html).

Each still shows its own heading, its own columns and links to its own export,
in every file format the import reads back.
"""

import pytest
from django.urls import reverse


@pytest.mark.parametrize(
    ("page", "export", "heading", "column"),
    [
        ("events:characters-import", "events:characters-export", "Import characters", "arsenal_limit"),
        ("cards:arsenals-import", "cards:arsenals-export", "Import pools and arsenals", "copies"),
    ],
)
def test_each_import_page_names_its_columns_and_links_its_own_export(
    as_user, organizer, event, page, export, heading, column
):
    response = as_user(organizer).get(reverse(page, args=[event.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    text = response.content.decode()
    assert f'<h1 class="h3">{heading}</h1>' in text
    assert f"<title>{heading} · {event.name}" in text
    assert column in text.split("<code>")[1].split("</code>")[0]
    export_url = reverse(export, args=[event.pk])
    for file_format in ("csv", "xlsx", "json"):
        assert f'href="{export_url}?format={file_format}"' in text


def test_an_import_page_is_for_the_events_organizers_only(as_user, player, event):
    for page in ("events:characters-import", "cards:arsenals-import"):
        assert as_user(player).get(reverse(page, args=[event.pk])).status_code in (403, 404)

"""Reading the column-mapping page as a browser would submit it (tests of issue 22)."""

from __future__ import annotations

import html
import re

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

_SELECT = re.compile(r'<select class="form-select" name="([^"]+)"[^>]*>(.*?)</select>', re.S)
_SELECTED = re.compile(r'<option value="([^"]*)"[^>]* selected')
_HIDDEN = re.compile(r'<input type="hidden" name="(values-[^"]+)" value="1">')


def shown_form(page: str) -> dict[str, str]:
    """The mapping form's fields with the values the page shows selected."""
    data: dict[str, str] = {}
    for match in _SELECT.finditer(page):
        chosen = _SELECTED.search(match.group(2))
        data[match.group(1)] = html.unescape(chosen.group(1)) if chosen else ""
    for match in _HIDDEN.finditer(page):
        data[match.group(1)] = "1"
    return data


def upload(client, event, url_name: str, name: str, content: bytes, **extra: str):
    return client.post(reverse(url_name, args=[event.pk]), {"file": SimpleUploadedFile(name, content), **extra})


def mapped_import(client, event, name: str, content: bytes, url_name: str = "events:characters-import", **changes):
    """Upload, accept the page's mapping (with ``changes``), import: (the mapping page, the import's answer)."""
    response = upload(client, event, url_name, name, content)
    assert response.status_code == 302 and response["Location"].endswith("/columns/"), response.status_code
    page = client.get(response["Location"])
    assert page.status_code == 200
    data = {**shown_form(page.text), **changes, "action": "import"}
    return page, client.post(response["Location"], data)

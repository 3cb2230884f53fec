"""Helpers of the hot-row tests (issue 24): the whole record by replay, pages without per-response marks."""

from __future__ import annotations

import re
from typing import Any

from django.core.cache import cache
from django.urls import reverse

from duels.models import Situation
from duels.services.commands import ReplayRow
from duels.services.kinds import kind_of, replay

HX = {"HX-Request": "true"}


def whole(situation: Situation) -> Any:
    """The state with every finished step: what the row held before issue 24 (``to_dict`` writes that form)."""
    rows = situation.log.order_by("seq").values_list(*ReplayRow._fields)
    return replay(kind_of(situation), situation.opening, [ReplayRow(*r) for r in rows], whole_record=True)


def same_text(html: str) -> str:
    """A response without what differs per response: nonces, the CSRF token, the server clock."""
    html = re.sub(r'name="nonce" value="[0-9a-f]{32}"', 'name="nonce"', html)
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'"X-CSRFToken": "[^"]+"', "", html)
    return re.sub(r'data-now="[^"]*"|data-server-now="[^"]*"|"now": "[^"]*"', "", html)


def record_lines(html: str) -> int:
    return html.count("<tr>\n        <td>")


def pages(client: Any, referee_client: Any, situation: Situation, tablet_url_name: str) -> dict[str, str]:
    """Every page that shows a fight's steps, as text without per-response marks, rendered from the row."""
    cache.clear()  # every page rendered from the row, none from a fragment cached for this version
    character = situation.participants.order_by("pk").first()
    assert character is not None
    record = reverse("duels:record", args=[situation.pk])
    urls = {
        "record": (client, record, {}),
        "record page 2": (client, record + "?page=2", {}),
        "watch": (client, reverse("duels:watch", args=[situation.pk]), HX),
        "watch page": (client, reverse("duels:watch", args=[situation.pk]), {}),
        "player": (client, reverse("duels:player-live-token", args=[character.link_token]), HX),
        "tablet": (referee_client, reverse(tablet_url_name, args=[situation.pk]), HX),
    }
    shown = {}
    for name, (who, url, headers) in urls.items():
        response = who.get(url, headers=headers)
        assert response.status_code == 200, name
        shown[name] = same_text(response.content.decode())
    return shown

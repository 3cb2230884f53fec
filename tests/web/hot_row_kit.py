"""Helpers of the hot-row tests (issue 24): the whole record by replay, pages without per-response marks."""

from __future__ import annotations

import re
from typing import Any

from duels.models import Situation
from duels.services.commands import ReplayRow
from duels.services.kinds import kind_of, replay


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

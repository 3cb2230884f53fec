"""A referee's step answered with what it changed: htmx out-of-band swaps of regions (issue 24).

Rendering the whole referee fragment was ~40 % of a step's CPU. A tablet's
live fragment is made of regions, each a partial of the kind's tablet
template whose root element has a stable id (``duel-2``, ``fight-log``,
``battle-main``...). After a step the kind names the regions its engine
events changed (``KindParts.tablet_parts``); the answer is those regions,
each marked ``hx-swap-oob="true"`` (htmx replaces the element of the same id,
outerHTML), and the live part's mark last: ``duels/_live_mark.html``, the
element that carries what the live root carries (ETag, version, server
clock, the kind's data attributes). static/js/sumrak.js copies the mark onto
the live root and into every form's ``version`` field, so the next poll
sends the new ETag (a 304, not a re-download) and every form of the page
posts the new version. The answer's main swap is ``none`` (``HX-Reswap``).

Anything uncertain is the whole fragment, as before (correctness first):
a kind without regions, events a kind cannot map (None), a version jump (the
POST's version + 1 is not the new one: another referee's step or an overdue
deadline came between, so the page may show an older state than the one the
regions were cut from), a repeat, a refusal. The page checks the base too: an
answer whose ``X-Sumrak-Base-Version`` is not the version it shows is not
swapped; the page polls its fragment instead.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from django.http import HttpRequest, HttpResponse
from django.template import RequestContext
from django.template.loader import get_template
from django.utils import timezone

from duels.templatetags.fight_forms import live_mark
from duels.web.live import live_headers, new_nonce
from duels.web.viewers import iso
from helpers.csrf import get_token

MARK_TEMPLATE = "duels/_live_mark.html"
BASE_HEADER = "X-Sumrak-Base-Version"
_ROOT = re.compile(r"\A(\s*<[a-zA-Z][\w-]*)([^>]*)>")
_ID = re.compile(r'\sid="([^"]+)"')


@dataclass(frozen=True)
class Part:
    """One region to send: a template (usually ``tablet.html#<partial>``) and what it adds to the context.

    Or ``build``: the region written in Python (duels/templatetags/*_regions.py), called with the
    context and what the part adds; an answer made only of those renders no template (issue 24).
    """

    template: str = ""
    context: Mapping[str, Any] = field(default_factory=dict)
    build: Callable[[Mapping[str, Any]], str] | None = None


@runtime_checkable
class KindParts(Protocol):
    """A kind whose tablet answers a step with regions (duels/web/pages.py ``KindPages`` may add it)."""

    def tablet_parts(self, context: Mapping[str, Any], events: Sequence[Any]) -> list[Part] | None:
        """The regions of the tablet fragment the engine ``events`` changed, or None: send the whole fragment.

        ``context``: the new version's tablet context (what the full fragment renders from).
        """
        ...


class RegionWithoutId(ValueError):
    """A region's root element has no id: htmx could not tell where it goes (a template mistake)."""


def as_oob(html: str) -> str:
    """``html`` (one element) with ``hx-swap-oob="true"`` on its root element, which must carry an id."""
    found = _ROOT.match(html)
    if found is None or _ID.search(found.group(2)) is None:
        raise RegionWithoutId(html[:120])
    return f'{found.group(1)} hx-swap-oob="true"{found.group(2)}>{html[found.end() :]}'


def oob_response(
    request: HttpRequest, parts: Sequence[Part], context: Mapping[str, Any], etag: str, base_version: int
) -> HttpResponse:
    """The regions and the live mark, each swapped out of band; nothing swapped in the form's target."""
    full = {**context, "etag": etag, "server_now": iso(timezone.now()), "new_nonce": new_nonce}
    if all(p.build is not None for p in parts):
        full["csrf_token"] = get_token(request)  # the player poll's mask: one read of randomness
        pieces = [as_oob(p.build({**full, **p.context} if p.context else full)) for p in parts]  # type: ignore[misc]
        return _answer([*pieces, as_oob(live_mark(full))], etag, base_version)
    # One context for every region: the context processors run once, not once per region.
    # The Django engine's templates (their ``template``: what renders with a shared context).
    templates = [(get_template(p.template).template, p.context) for p in (*parts, Part(MARK_TEMPLATE))]  # type: ignore[attr-defined]
    shared = RequestContext(request, full)
    pieces = []
    with shared.bind_template(templates[0][0]):
        for template, extra in templates:
            with shared.push(extra):
                pieces.append(as_oob(template.render(shared)))
    return _answer(pieces, etag, base_version)


def _answer(pieces: list[str], etag: str, base_version: int) -> HttpResponse:
    response = live_headers(HttpResponse("\n".join(pieces)), etag)
    response["HX-Reswap"] = "none"
    response[BASE_HEADER] = str(base_version)
    return response


def parts_for(pages: Any, context: Mapping[str, Any], events: Sequence[Any]) -> list[Part] | None:
    """The regions ``pages`` names for ``events``, or None when the kind has none or cannot tell."""
    if not isinstance(pages, KindParts):
        return None
    return pages.tablet_parts(context, events)

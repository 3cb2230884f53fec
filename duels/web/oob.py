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

The log is not sent whole: only the lines the step added (``log_part``), as
an ``<ol>`` marked ``hx-swap-oob="afterbegin:#<region> .log-lines"``; htmx
inserts its children at the head of the region's list (htmx 2's ``oobSwap``:
a swap style other than outerHTML swaps the element's children), and
sumrak.js then drops the "Nothing yet." line and keeps the newest
``data-log-keep`` lines, as a reload would show. The older lines stay as they
are: a step changes no line but its own (an undo, which crosses one out,
answers with the whole fragment).
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
from django.utils.html import escape

from duels.templatetags.fight_forms import live_mark
from duels.templatetags.fight_log import new_log_lines
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
    # htmx's ``hx-swap-oob``: "true" replaces the element of the region's id; "afterbegin:<selector>"
    # inserts the region's children at the head of what the selector names (``log_part``).
    oob: str = "true"


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


def as_oob(html: str, swap: str = "true") -> str:
    """``html`` (one element) with ``hx-swap-oob="<swap>"`` on its root element.

    With "true" (replace by id) the root must carry an id; a swap that names its target
    (``afterbegin:<selector>``) needs none.
    """
    found = _ROOT.match(html)
    if found is None or (swap == "true" and _ID.search(found.group(2)) is None):
        raise RegionWithoutId(html[:120])
    return f'{found.group(1)} hx-swap-oob="{escape(swap)}"{found.group(2)}>{html[found.end() :]}'


def log_part(region: str, keep: int) -> Part:
    """The step's new log lines (the context's ``log_lines``), prepended to the log list of the region ``region``.

    ``keep``: how many lines the kind's tablet shows; the page drops the older ones (sumrak.js).
    Each kind's ``tablet_parts`` names it instead of its whole log region; the step's context then
    describes only the entries the step added (duels/web/submit.py ``step_answer``).
    """
    return Part(build=new_log_lines(keep), oob=f"afterbegin:#{region} .log-lines")


def oob_response(
    request: HttpRequest, parts: Sequence[Part], context: Mapping[str, Any], etag: str, base_version: int
) -> HttpResponse:
    """The regions and the live mark, each swapped out of band; nothing swapped in the form's target."""
    full = {**context, "etag": etag, "server_now": iso(timezone.now()), "new_nonce": new_nonce}
    if all(p.build is not None for p in parts):
        full["csrf_token"] = get_token(request)  # the player poll's mask: one read of randomness
        pieces = [as_oob(p.build({**full, **p.context} if p.context else full), p.oob) for p in parts]  # type: ignore[misc]
        return _answer([*pieces, as_oob(live_mark(full))], etag, base_version)
    # One context for every region: the context processors run once, not once per region.
    # The Django engine's templates (their ``template``: what renders with a shared context).
    # A part written in Python among them is built from the same context, flattened.
    templates = [
        (None if p.build is not None else get_template(p.template).template, p)  # type: ignore[attr-defined]
        for p in (*parts, Part(MARK_TEMPLATE))
    ]
    shared = RequestContext(request, full)
    pieces = []
    with shared.bind_template(next(t for t, _ in templates if t is not None)):
        for template, part in templates:
            with shared.push(part.context):
                if template is not None:
                    html = template.render(shared)
                else:
                    assert part.build is not None
                    html = part.build({str(k): v for k, v in shared.flatten().items()})
                pieces.append(as_oob(html, part.oob))
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

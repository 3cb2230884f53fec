"""The tablet's regions written in Python against the templates they replace (tests/web/regions_reference/).

The reference templates are the Django templates the regions were before
issue 24 (moved here, their includes pointed at each other). A region's
Python output and the reference's output for the same tablet context must
be the same markup: the same elements, attributes and text, whitespace
between tags aside (a run of spaces is one space; none beside a tag).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.backends.django import DjangoTemplates
from django.utils import translation

from duels import services
from duels.web.submit import tablet_context
from duels.web.viewers import iso
from tests.services.kit import nonce

REFERENCE = Path(__file__).parent / "regions_reference"
LANGUAGES = ("ru", "en")
_ENGINE: list[DjangoTemplates] = []


def engine() -> DjangoTemplates:
    if not _ENGINE:
        base: dict[str, Any] = settings.TEMPLATES[0]
        _ENGINE.append(
            DjangoTemplates(
                {
                    "NAME": "regions_reference",
                    "DIRS": [REFERENCE, *base["DIRS"]],
                    "APP_DIRS": True,
                    "OPTIONS": {**base.get("OPTIONS", {})},
                }
            )
        )
    return _ENGINE[0]


def normalized(html: str) -> str:
    html = re.sub(r"\s+", " ", html)
    return re.sub(r"\s*(<[^>]*>)\s*", r"\1", html).strip()


def context_of(situation: Any) -> dict[str, Any]:
    """The tablet's context as a page or a step renders it, with the per-response marks fixed."""
    situation.refresh_from_db()
    context = tablet_context(situation)
    return {
        **context,
        "etag": '"e"',
        "server_now": iso(situation.updated_at) if hasattr(situation, "updated_at") else "now",
        "new_nonce": "nonce",
        "csrf_token": "csrf",
    }


def reference(template: str, context: Mapping[str, Any]) -> str:
    return engine().get_template(template).render(dict(context))


def same(builder: Callable[[Mapping[str, Any]], str], template: str, context: Mapping[str, Any]) -> None:
    """``builder``'s output equals the reference ``template``'s, in every language."""
    for language in LANGUAGES:
        with translation.override(language):
            ours, theirs = normalized(builder(context)), normalized(reference(template, context))
        assert ours == theirs, _first_difference(ours, theirs, f"{template} ({language})")


def _first_difference(ours: str, theirs: str, where: str) -> str:
    at = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b), min(len(ours), len(theirs)))
    around = slice(max(0, at - 160), at + 160)
    return f"{where} differs at {at}:\n python:    {ours[around]}\n reference: {theirs[around]}"


def drive(situation: Any, user: Any, command: Any) -> None:
    """One command through the services, at the situation's version (no page)."""
    situation.refresh_from_db()
    services.perform(situation.pk, command, user=user, seen_version=situation.version, nonce=nonce())

"""The sweeps' shared walk: every URL pattern of the project, the roles, and the line that raised."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from django.urls import URLResolver, get_resolver

ROOT = str(Path(__file__).resolve().parents[2]) + "/"
VENV = str(Path(sys.prefix).resolve()) + "/"
# The sweep also tries an inactive account, another event's referee and a superuser.
ROLES = (
    "anonymous",
    "inactive",
    "player",
    "other_player",
    "referee",
    "other_referee",
    "superuser",
    "organizer",
    "other_organizer",
)


def url_patterns() -> list[tuple[str, str, tuple[str, ...]]]:
    """(name, route, path parameters) of every URL but the admin's and i18n/."""

    def walk(patterns: Any, prefix: str, namespace: str) -> Iterator[tuple[str, str, tuple[str, ...]]]:
        for pattern in patterns:
            route = prefix + str(pattern.pattern)
            if isinstance(pattern, URLResolver):
                if not route.startswith(("admin/", "i18n/")):
                    inner = ":".join(filter(None, [namespace, pattern.namespace]))
                    yield from walk(pattern.url_patterns, route, inner)
            else:
                name = ":".join(filter(None, [namespace, pattern.name])) if pattern.name else route
                yield name, route, tuple(pattern.pattern.converters)

    return list(walk(get_resolver().url_patterns, "", ""))


URLS = url_patterns()


def origin(exc: BaseException) -> str:
    """The project's own line that raised (not a library's), to name the bug in the failure."""
    frames = traceback.extract_tb(exc.__traceback__)
    own = [f for f in frames if f.filename.startswith(ROOT) and not f.filename.startswith((f"{ROOT}tests/", VENV))]
    frame = (own or frames)[-1]
    return f"{frame.filename.removeprefix(ROOT)}:{frame.lineno}"

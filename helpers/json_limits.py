"""JSON read within bounds: size, nesting depth, keys in one object, values in all (issue 27).

``json.loads`` recurses once per level of nesting, so a 400 KB file of ``[[[[…``
ends in a ``RecursionError`` (a 500 where it is not caught, a stack used up
where it is), and it builds every object of a file before anyone can look at
it: a 1.99 MB file with one 150,000-key object took 203 s to be refused by the
event import. ``read_json`` scans the text first, in one linear pass that
builds nothing (strings are skipped whole by one regular expression), and
refuses a file past any bound before a single Python object is made; only then
does ``json.loads`` run, on a document known to be shallow and of bounded size.

A leaf module, like ``helpers.table_limits``: the event file (duels/archive.py)
and the table imports (helpers/tables.py) both read JSON through it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from helpers.table_limits import TableError


@dataclass(frozen=True)
class JsonLimits:
    """The bounds of one kind of file (docs/security.md lists each one with its number)."""

    max_bytes: int | None  # None: the caller has bounded the size already (an administrator's own file)
    max_depth: int  # objects and lists inside each other
    max_keys: int  # keys in any one object
    max_values: int | None  # values in the whole document (every item of every list and object)


# A legitimate event file nests ~10 levels deep (a fight's state) and its widest object, a
# battle's or mass battle's cards by id, has a few hundred keys; a table file is a list of
# flat objects with at most 50 columns.
DEFAULT_LIMITS = JsonLimits(max_bytes=3 * 1024 * 1024, max_depth=32, max_keys=10_000, max_values=1_000_000)


class JsonLimitError(ValueError):
    """The file is no JSON, or lies outside a bound; the message is for the user."""


# One string literal (skipped whole, escapes included: the loop is unrolled, no backtracking), or
# one structural character. Anything else (numbers, true, false, null, spaces) is not looked at.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[][{},]', re.DOTALL)


def read_json(content: bytes | str, limits: JsonLimits = DEFAULT_LIMITS) -> Any:
    """The document in ``content`` (UTF-8, a byte order mark allowed), or ``JsonLimitError`` with the reason."""
    if limits.max_bytes is not None and len(content) > limits.max_bytes:
        raise JsonLimitError(
            _("The file is larger than %(limit)d MB.") % {"limit": max(1, limits.max_bytes // (1024 * 1024))}
        )
    if isinstance(content, bytes):
        try:
            text = content.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise JsonLimitError(_("The file is not readable text.")) from None
    else:
        text = content.removeprefix("\ufeff")
    check_shape(text, limits)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise JsonLimitError(_("The file could not be read as JSON.")) from None


def check_shape(text: str, limits: JsonLimits) -> None:
    """Refuse ``text`` if its nesting, one object's keys or its values pass a bound; builds nothing."""
    # Per open container: [is an object, commas seen]. Keys of an object = its commas + 1.
    open_: list[list[Any]] = []
    values = 0
    max_depth, max_keys, max_values = limits.max_depth, limits.max_keys, limits.max_values
    for match in _TOKEN.finditer(text):
        char = text[match.start()]
        if char == '"':
            continue
        if char == "[" or char == "{":
            if len(open_) >= max_depth:
                raise JsonLimitError(_("The file nests more than %(limit)d levels deep.") % {"limit": max_depth})
            open_.append([char == "{", 0])
            values += 1
            if max_values is not None and values > max_values:
                raise JsonLimitError(_("The file holds more than %(limit)d values.") % {"limit": max_values})
        elif char == ",":
            values += 1
            if max_values is not None and values > max_values:
                raise JsonLimitError(_("The file holds more than %(limit)d values.") % {"limit": max_values})
            if open_:
                top = open_[-1]
                top[1] += 1
                if top[0] and top[1] >= max_keys:
                    raise JsonLimitError(_("An object in the file has more than %(limit)d keys.") % {"limit": max_keys})
        elif open_:
            open_.pop()


def load_bounded(data: bytes | str, *, max_depth: int, max_keys: int, max_items: int | None = None) -> Any:
    """The table pipeline's reading of a JSON table: the same scan, refused as the pipeline's ``TableError``."""
    limits = JsonLimits(max_bytes=None, max_depth=max_depth, max_keys=max_keys, max_values=max_items)
    try:
        return read_json(data, limits)
    except JsonLimitError as err:
        raise TableError(str(err)) from None

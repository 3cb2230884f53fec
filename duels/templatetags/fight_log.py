"""The log's lines written in Python (issue 24): the markup ``duels/_log.html``'s loop rendered (tested).

Every step's answer carries the log's newest lines (twenty entries of a few
lines each): as template nodes ~2.7 ms of a duel step's rendering, here one
line of Python per entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from functools import cache
from typing import Any

from django import template
from django.utils.dateformat import time_format
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import get_current_timezone_name, is_aware, localtime
from django.utils.translation import get_language, gettext

register = template.Library()


def _at(at: Any) -> str:
    """``{{ at|time:"H:i:s" }}``: in the current time zone."""
    if at is None or at == "":
        return ""
    return time_format(localtime(at) if is_aware(at) else at, "H:i:s")


_ITEMS: dict[tuple[Any, ...], str] = {}
_ITEMS_MAX = 20_000


def log_item(entry: Any) -> str:
    """One ``LogLine`` (duels/web/log.py) as ``<li>``, escaped; kept per process.

    Every step's answer carries the twenty newest entries, nineteen of them the same as the
    step before: the ``<li>`` is kept by what it shows (the entry's number, time, actor, lines,
    undone) in the language and time zone it was written in, the way chips are (fight_cards.py).
    """
    key = (get_language(), get_current_timezone_name(), entry.seq, entry.at, entry.actor, entry.undone, *entry.lines)
    item = _ITEMS.get(key)
    if item is None:
        if len(_ITEMS) >= _ITEMS_MAX:
            _ITEMS.clear()
        item = _ITEMS[key] = _log_item(entry)
    return item


def _log_item(entry: Any) -> str:
    undone = " undone" if entry.undone else ""
    actor = f" · {conditional_escape(entry.actor)}" if entry.actor else ""
    crossed = f" · {conditional_escape(gettext('undone'))}" if entry.undone else ""
    lines = "".join(f'<span class="d-block">{conditional_escape(line)}</span>' for line in entry.lines)
    return (
        f'\n    <li class="log-line{undone}" data-seq="{conditional_escape(entry.seq)}">\n'
        f'      <span class="text-muted small">{conditional_escape(_at(entry.at))}{actor}{crossed}</span>\n'
        f"      {lines}\n"
        "    </li>\n  "
    )


@register.simple_tag
def log_items(entries: Iterable[Any] | None) -> SafeString:
    """Every entry's ``<li>``, or the one "Nothing yet." line."""
    items = [log_item(entry) for entry in entries or ()]
    if not items:
        return mark_safe(f'\n    <li class="text-muted">{conditional_escape(gettext("Nothing yet."))}</li>\n  ')
    return mark_safe("".join(items))  # escaped in log_item


_ITEM_END = "\n  "


@cache
def new_log_lines(keep: int) -> Callable[[Mapping[str, Any]], str]:
    """A step's new lines (the context's ``log_lines``) to prepend to a log list (duels/web/oob.py ``log_part``).

    The ``<ol>``'s children go to the head of the page's list: the same ``<li>``s, and between them
    the same blank text, as ``log_items`` writes them there (the last line's trailing blank is the
    list's first one already), so the patched list reads as a fresh render. ``data-log-keep``: how
    many lines the page keeps (static/js/sumrak.js drops the older ones and "Nothing yet.").
    """

    def build(ctx: Mapping[str, Any]) -> str:
        items = "".join(log_item(entry) for entry in ctx.get("log_lines") or ())
        inner = f"\n  {items.removesuffix(_ITEM_END)}" if items else ""
        return f'<ol data-log-keep="{int(keep)}">{inner}</ol>'

    return build

"""What a fight page says beyond the state when the clock decided: a late answer (D8), a situation's end (S2).

A tablet whose page is a few seconds old sends the version it saw. When only the
clock moved the fight on since then (an answer window closed, the gap ran out),
"another referee acted first" would be a wrong and alarming explanation: the
referee must hear the rule that decided, in the rule's own words. Each kind
says when that is (``KindPages.clock_note``); the words are these, for every kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from rules import RuleError


@dataclass(frozen=True)
class Note:
    """A message with the rule it cites (shown small, as a link to the help, to referees only)."""

    level: str
    text: str
    rule: str = ""


def late_answer(window_s: int) -> Note:
    text = ngettext(
        "The %(seconds)s second to answer ran out; the attack took full effect.",
        "The %(seconds)s seconds to answer ran out; the attack took full effect.",
        window_s,
    ) % {"seconds": window_s}
    return Note("warning", text, "D8")


def gap_ended(gap_s: int) -> Note:
    minutes, seconds = divmod(gap_s, 60)
    if seconds:
        span = ngettext("%(n)s second", "%(n)s seconds", gap_s) % {"n": gap_s}
    else:
        span = ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    text = gettext("This combat situation ended: %(span)s passed without a combat action.") % {"span": span}
    return Note("secondary", text, "S2")


def is_late_refusal(err: Exception | None) -> bool:
    """The engine's own D8 refusal of an answer (the window closed within this very request)."""
    return isinstance(err, RuleError) and err.rule_id == "D8"


def clock_says(err: Exception | None, *, gap_s: int, window_s: int, gap_ended_it: bool, overtaken: bool) -> Note | None:
    """The note for a refused tap, as every kind with a clock tells it; None when a person acted first.

    ``gap_ended_it``: the situation's gap (S2) ended it since the page was drawn; ``overtaken``: the
    tap was an answer whose window has since closed (D8). A refusal the engine itself gave as D8
    is told so too.
    """
    if gap_ended_it:
        return gap_ended(gap_s)
    if is_late_refusal(err) or (err is None and overtaken):
        return late_answer(window_s)
    return None

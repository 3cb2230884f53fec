"""How a refusal and the rule it cites are shown, the one way for every page (docs/decisions.md).

A refusal is its sentence (``cards.words.explain``). Staff (organizers,
referees) also see the rule it cites as a small link to the part of the
referee help that explains it; players never see a rule ID (issue 10).
The fight pages' alerts, the battle's reaction bar, the arsenal builder and
the arsenal actions shared by organizers and players all go through here.
"""

from __future__ import annotations

from typing import Any

from django.core.signals import setting_changed
from django.dispatch import receiver
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext

from cards.words import Refusal, explain, rule_of

# The referee help's sections (templates/help/referee.html) by rule family.
SECTIONS = {
    "S": "situation",
    "IA": "instant",
    "F": "instant",
    "AG": "start",
    "CR": "duel",
    "D": "duel",
    "R": "battle",
    "M": "mass-battles",
}
ROUND_RULES = {"D2", "D3", "D11", "D12"}


def rule_help(rule: str) -> str:
    """The referee help's URL at the section explaining ``rule`` (e.g. "D8")."""
    family = rule.rstrip("0123456789")
    section = "rounds" if rule in ROUND_RULES else SECTIONS.get(family, "")
    url = reverse("help-role", args=["referee"])
    return f"{url}#{section}" if section else url


# rule_link's answers by language, script prefix, URLconf and rule: the battle's reaction bar shows a
# dozen refusals a step, each a reverse() and a format_html() of the same few rules (issue 24).
_LINKS: dict[tuple[str | None, str, Any, str], SafeString] = {}
_LINKS_MAX = 2_000  # rules are a few dozen codes; a bound all the same


@receiver(setting_changed)
def _forget_links(**kwargs: Any) -> None:
    """A test's changed URLconf, languages or prefix: the kept links may be wrong."""
    _LINKS.clear()


def rule_link(rule: str) -> SafeString:
    """A staff member's small link to the rule's help; "" for no rule."""
    if not rule:
        return SafeString("")
    key = (get_language(), get_script_prefix(), get_urlconf(), rule)
    link = _LINKS.get(key)
    if link is None:
        title = gettext("What the rule says")
        link = format_html('<a class="rule-ref" href="{}" title="{}">{}</a>', rule_help(rule), title, rule)
        if len(_LINKS) >= _LINKS_MAX:
            _LINKS.clear()
        _LINKS[key] = link
    return link


def refusal_html(err: Refusal, *, staff: bool) -> SafeString:
    """The refusal's sentence; for staff, followed by the link to the rule it cites."""
    rule = rule_of(err) if staff else ""
    if not rule:
        return format_html("{}", explain(err))
    return format_html("{} {}", explain(err), rule_link(rule))

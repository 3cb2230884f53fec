"""How a refusal and the rule it cites are shown, the one way for every page (docs/decisions.md).

A refusal is its sentence (``cards.words.explain``). Staff (organizers,
referees) also see the rule it cites as a small link to the part of the
referee help that explains it; players never see a rule ID (issue 10).
The fight pages' alerts, the battle's reaction bar, the arsenal builder and
the arsenal actions shared by organizers and players all go through here.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

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


def rule_link(rule: str) -> SafeString:
    """A staff member's small link to the rule's help; "" for no rule."""
    if not rule:
        return SafeString("")
    title = gettext("What the rule says")
    return format_html('<a class="rule-ref" href="{}" title="{}">{}</a>', rule_help(rule), title, rule)


def refusal_html(err: Refusal, *, staff: bool) -> SafeString:
    """The refusal's sentence; for staff, followed by the link to the rule it cites."""
    rule = rule_of(err) if staff else ""
    if not rule:
        return format_html("{}", explain(err))
    return format_html("{} {}", explain(err), rule_link(rule))

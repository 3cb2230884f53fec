"""Rule IDs shown small to referees, each a link to the part of their help that explains it."""

from django import template
from django.urls import reverse
from django.utils.html import format_html

register = template.Library()

# The referee help's sections (templates/help/referee.html) by rule family.
SECTIONS = {"S": "situation", "IA": "instant", "F": "instant", "AG": "start", "CR": "duel", "D": "duel"}
ROUND_RULES = {"D2", "D3", "D11", "D12"}


@register.simple_tag
def rule_help(rule: str) -> str:
    """The referee help's URL at the section explaining ``rule`` (e.g. "D8")."""
    family = rule.rstrip("0123456789")
    section = "rounds" if rule in ROUND_RULES else SECTIONS.get(family, "")
    url = reverse("help-role", args=["referee"])
    return f"{url}#{section}" if section else url


@register.simple_tag
def rule_link(rule: str) -> str:
    """A referee's small link to the rule's help; players' pages never call it (rule codes are for referees)."""
    return format_html('<a class="rule-ref" href="{}">{}</a>', rule_help(rule), rule)

"""Rule IDs shown small to staff, each a link to the part of their help that explains it (cards/rule_links.py)."""

from django import template
from django.utils.safestring import SafeString

from cards import rule_links

register = template.Library()


@register.simple_tag
def rule_help(rule: str) -> str:
    """The referee help's URL at the section explaining ``rule`` (e.g. "D8")."""
    return rule_links.rule_help(rule)


@register.simple_tag
def rule_link(rule: str) -> SafeString:
    """A staff member's small link to the rule's help; players' pages never call it (rule codes are for staff)."""
    return rule_links.rule_link(rule)

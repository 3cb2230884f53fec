"""The conditions a referee records outside a step, for templates/duels/_condition_controls.html."""

from __future__ import annotations

from django import template

import rules
from events.models import Condition

register = template.Library()


@register.simple_tag
def condition_choices() -> list[tuple[str, str]]:
    """(value, label) of every condition, in the rules' order (CR1)."""
    return [(c, str(Condition(c).label)) for c in rules.CONDITIONS]

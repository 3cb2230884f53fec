"""The log's lines written in Python are exactly what the template loop rendered (issue 24)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import engines
from django.utils import timezone, translation

from duels.templatetags.fight_log import log_items
from duels.web.log import LogLine

# templates/duels/_log.html's loop as it was: the markup the Python must keep.
LOOP = """{% load i18n tz %}
  {% for entry in log_lines %}
    <li class="log-line{% if entry.undone %} undone{% endif %}" data-seq="{{ entry.seq }}">
      <span class="text-muted small">{{ entry.at|time:"H:i:s" }}{% if entry.actor %} · {{ entry.actor }}{% endif %}{% if entry.undone %} · {% translate "undone" %}{% endif %}</span>
      {% for line in entry.lines %}<span class="d-block">{{ line }}</span>{% endfor %}
    </li>
  {% empty %}
    <li class="text-muted">{% translate "Nothing yet." %}</li>
  {% endfor %}
"""  # noqa: E501
AT = dt.datetime(2026, 6, 1, 21, 59, 7, tzinfo=dt.UTC)
LINES = [
    LogLine(3, AT, "Referee <b>", "command", False, ["Anton attacks: «Fireball» & more", "second"]),
    LogLine(2, AT, "", "deadline", True, []),
    LogLine(1, AT, "ref", "command", True, ["x"]),
]


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("lines", [LINES, []], ids=["lines", "empty"])
def test_the_log_items_are_the_templates_markup(language, lines, settings):
    settings.TIME_ZONE = "Europe/Moscow"
    with translation.override(language), timezone.override("Europe/Moscow"):
        expected = engines["django"].from_string(LOOP).render({"log_lines": lines})
        assert "\n  " + log_items(lines) + "\n" == expected

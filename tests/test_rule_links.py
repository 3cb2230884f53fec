"""A rule's link is kept per language, script prefix and URLconf (cards/rule_links.py, issue 24).

The battle's reaction bar shows a dozen refusals each step, each citing a rule;
the link is built once per language and prefix. What it shows must be what a
fresh build shows, in every language and under a script prefix.
"""

from __future__ import annotations

import pytest
from django.urls import clear_script_prefix, set_script_prefix
from django.utils.translation import override

from cards import rule_links
from cards.rule_links import rule_link


def _fresh(rule: str) -> str:
    rule_links._LINKS.clear()
    return str(rule_link(rule))


@pytest.mark.parametrize("rule", ["R5", "D3", "S2", "M4", "IA1", "X9"])
def test_a_kept_link_is_the_fresh_one_in_each_language_and_prefix(rule: str) -> None:
    seen = {}
    for language in ("en", "ru", "en"):
        for prefix in ("/", "/sumrak/", "/"):
            set_script_prefix(prefix)
            try:
                with override(language):
                    kept = str(rule_link(rule))
                    assert kept == _fresh(rule) == str(rule_link(rule))
                    seen[(language, prefix)] = kept
            finally:
                clear_script_prefix()
    assert seen[("en", "/")] != seen[("ru", "/")], "the title is translated"
    assert 'href="/sumrak/help/referee/' in seen[("en", "/sumrak/")]
    assert 'href="/help/referee/' in seen[("en", "/")]


def test_no_rule_no_link() -> None:
    assert str(rule_link("")) == ""

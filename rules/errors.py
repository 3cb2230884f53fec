"""Refusals carry the rule that refused, so the referee can see *why* and cite it.

The engine never imports Django, yet its messages must reach Russian-speaking
users. Messages are therefore English format strings wrapped in
``gettext_noop`` (Django's ``makemessages`` extracts by that function name) and
the web layer translates late: ``gettext(err.message) % err.params``.
"""

from __future__ import annotations


def gettext_noop(s: str) -> str:
    """Mark a literal for translation without translating it (see module doc)."""
    return s


# Codes used for refusals that no numbered rule covers: malformed references
# (unknown fighter, duel or card, a duplicate join) and catalogue-side arsenal
# checks. Every other refusal cites the RULES.md ID that forbids it.
INPUT = "INPUT"
ARSENAL = "ARSENAL"


class RuleError(Exception):
    """A command the rules forbid; nothing was changed.

    ``message`` stays untranslated with ``%(name)s`` placeholders so the caller
    can translate it; ``params`` fills them in.
    """

    def __init__(self, rule_id: str, message: str, **params: object) -> None:
        self.rule_id = rule_id
        self.message = message
        self.params: dict[str, object] = dict(params)
        super().__init__(f"[{rule_id}] {self.text()}")

    def text(self) -> str:
        """The English text with its parameters filled in (logs, tests)."""
        return self.message % self.params

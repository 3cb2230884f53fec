"""A refusal or a problem in the user's language, as every fight page shows it (templates/duels/_alert.html)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from cards.words import cites_a_rule, explain, rule_of


@dataclass(frozen=True)
class Alert:
    level: str  # a Bootstrap alert colour: danger, warning, info, success
    text: str
    # The rule that decided, shown to referees as a small link to its help,
    # never to players (templates/duels/_alert.html).
    rule: str = ""


def refusal(err: Any) -> Alert:
    """A refusal for a fight page: the words, and the rule apart (only referees see it, as a link)."""
    return Alert("danger", explain(err), rule_of(err))


def form_problem(form: Any) -> Alert:
    """A malformed request in words: the form's own messages; a refusal of the engine
    inside a form (a round's new arsenal, D3) keeps its rule as the error's code."""
    problems = [e for errors in form.errors.as_data().values() for e in errors]
    messages = [m for e in problems for m in e.messages]
    rule = next((str(e.code) for e in problems if e.code and cites_a_rule(str(e.code))), "")
    return Alert("danger", " ".join(messages) or gettext("The request was incomplete."), rule)


def conflict() -> Alert:
    return Alert("warning", gettext("Another referee acted first — here is the fresh state. Nothing was changed."))

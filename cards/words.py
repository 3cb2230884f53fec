"""The game's words that several apps show, defined once: labels and refusals.

Cards, the fight pages and the character page (events, through the arsenal
actions) all show a refusal - the engine's ``RuleError`` or a fight service's
``ServiceError`` - in the same words: ``explain(err)``; the rule it cites,
``rule_of(err)``, is shown to staff only and the one way (``cards/rule_links.py``).
It lives in cards because it is the lowest layer that can name a card (refusals
carry catalogue ids and engine uids), and the fight apps sit above it
(docs/architecture.md).

The labels' keys are the engine's own constants (rules/), so a word cannot
drift from the value the engine sends; conditions and effects take their words
from the model choices that store them.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

import rules as engine
from cards import catalogue_version
from cards.models import Card, Effect
from events.models import Condition, condition_set_label
from helpers.ids import is_id
from rules.duel import state as engine_state

OUTCOME_LABELS: dict[str, Promise] = {
    engine.PARRIED: _("parried"),
    engine.SOFTENED: _("softened"),
    engine.NOT_PARRIED: _("not parried"),
}
RESULT_LABELS: dict[str, Promise] = {
    engine_state.FIGHTER_OUT: _("a fighter can no longer fight"),
    engine_state.STOPPED: _("the fighters stopped"),
    engine_state.MAX_ROUNDS: _("the agreed number of bouts was played"),
    engine_state.NO_ATTACKS_LEFT: _("nobody has an attack card left"),
    engine_state.SITUATION_ENDED: _("the combat situation ended"),
    engine_state.INSTANT_ATTACK_SUCCEEDED: _("the instant attack succeeded"),
    engine_state.ENDED_BY_REFEREE: _("ended by the referee"),
}
# A condition or a card's effect (a condition, or "no effect": CR1) in the words of the model choices.
EFFECT_LABELS: dict[str, Promise | str] = {**dict(Effect.choices), **dict(Condition.choices)}


def condition_label(condition: str) -> str:
    """One effect, or every condition of a set (CR1 reading: "heavily wounded, paralysed")."""
    if condition in EFFECT_LABELS:
        return str(EFFECT_LABELS[condition])
    return condition_set_label(condition)


# Catalogue names kept per process and catalogue version: {card id: (name_ru, name_en)}.
NAMES_TTL = 300.0  # the bound for a write that skipped catalogue_version.bump() (cards/catalogue_version.py)
_NAMES: catalogue_version.PerVersion[tuple[str, str]] = catalogue_version.PerVersion(NAMES_TTL, 50_000)


def _load_names(ids: set[int]) -> dict[int, tuple[str, str]]:
    return {pk: (ru, en) for pk, ru, en in Card.objects.filter(pk__in=ids).values_list("pk", "name_ru", "name_en")}


def card_names(ids: Iterable[int]) -> dict[int, str]:
    """Catalogue names in the active language (a fight's faces keep the language they joined in).

    Kept per catalogue version (cards/catalogue_version.py): a page asks the
    cache for the version, and the database only for ids this process has not
    seen under it (at most one query).
    """
    # A refused request may name an id no row can have (a hand-edited uid).
    wanted = {card_id for card_id in ids if is_id(card_id)}
    if not wanted:
        return {}
    known = _NAMES.get(wanted, _load_names)
    english = (get_language() or "ru").startswith("en")
    return {card_id: en if english and en else ru for card_id, (ru, en) in known.items()}


class Refusal(Protocol):
    """``RuleError`` and ``ServiceError`` alike: an English format string, raw values, a rule ID or code."""

    message: str
    params: dict[str, object]
    rule_id: str


def _card_id(value: object) -> int | None:
    """A catalogue id, or the card id inside an engine uid ``"<character>:<card>:<n>"``."""
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        parts = value.split(":")
        if len(parts) == 3 and parts[1].isdigit():
            return int(parts[1])
    return None


def cites_a_rule(rule_id: str) -> bool:
    """D3, S2, IA5... name a rule of RULES.md; service codes (STALE, BUSY) and INPUT/ARSENAL do not."""
    return rule_id[:1].isalpha() and any(ch.isdigit() for ch in rule_id)


def rule_of(err: Refusal) -> str:
    """The RULES.md ID a refusal cites, or "" for the services' codes (STALE, BUSY...) and INPUT/ARSENAL."""
    rule = getattr(err, "rule_id", "")
    return str(rule) if cites_a_rule(rule) else ""


def explain(err: Refusal) -> str:
    """The refusal's sentence in the user's language, values as words (conditions, results, cards, duels from 1).

    The rule it cites is not part of the words: staff pages show ``rule_of(err)``
    beside them as a link (``cards/rule_links.py``), players' pages do not.
    """
    params: dict[str, Any] = dict(err.params)
    labels: dict[str, dict[str, Any]] = {"condition": EFFECT_LABELS, "result": RESULT_LABELS, "outcome": OUTCOME_LABELS}
    for key, table in labels.items():
        if key in params and params[key] in table:
            params[key] = str(table[params[key]])
    if isinstance(params.get("duel"), int):
        params["duel"] += 1  # the pages number duels from 1
    ids = {cid for key in ("card", "card_id") if (cid := _card_id(params.get(key))) is not None}
    names = card_names(ids) if ids else {}
    for key in ("card", "card_id"):
        cid = _card_id(params.get(key))
        if cid in names:
            params[key] = f"«{names[cid]}»"
    return gettext(err.message) % params

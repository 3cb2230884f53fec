"""A refusal (the engine's ``RuleError`` or a service error) in the user's language.

The engine and the services keep their messages as English format strings
with raw values (condition codes, card ids and uids, 0-based duel numbers).
This is the one place that turns both into words: the message through
gettext, the values into the labels the pages use.
"""

from typing import Any, Protocol

from django.utils.translation import gettext

from duels.presenters import EFFECT_LABELS, OUTCOME_LABELS, RESULT_LABELS, card_names


class Refusal(Protocol):
    message: str
    params: dict[str, object]


def _card_id(value: object) -> int | None:
    """A catalogue id, or the card id inside an engine uid ``"<character>:<card>:<n>"``."""
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        parts = value.split(":")
        if len(parts) == 3 and parts[1].isdigit():
            return int(parts[1])
    return None


def _card_names(params: dict[str, Any]) -> dict[int, str]:
    ids = {cid for key in ("card", "card_id") if (cid := _card_id(params.get(key))) is not None}
    return card_names(ids) if ids else {}


def explain(err: Refusal) -> str:
    params: dict[str, Any] = dict(err.params)
    labels = {"condition": EFFECT_LABELS, "result": RESULT_LABELS, "outcome": OUTCOME_LABELS}
    for key, table in labels.items():
        if key in params and params[key] in table:
            params[key] = str(table[params[key]])
    if isinstance(params.get("duel"), int):
        params["duel"] += 1  # the pages number duels from 1
    names = _card_names(params)
    for key in ("card", "card_id"):
        cid = _card_id(params.get(key))
        if cid in names:
            params[key] = f"«{names[cid]}»"
    return gettext(err.message) % params

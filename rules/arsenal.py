"""Arsenal and focus checks shared with the Django cards app.

The cards app validates arsenals against a character's pool when they are
built; the engine validates focus. Both call these functions, so each check is
written once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from rules.cards import CardFace
from rules.errors import ARSENAL, RuleError, gettext_noop


def check_arsenal(card_ids: Sequence[int], pool: Mapping[int, int], limit: int) -> None:
    """Refuse an arsenal larger than ``limit`` or not covered by ``pool``.

    ``pool`` maps card id -> copies the character owns.
    """
    if len(card_ids) > limit:
        raise RuleError(
            ARSENAL,
            gettext_noop("An arsenal holds at most %(limit)s cards; this one has %(count)s."),
            limit=limit,
            count=len(card_ids),
        )
    # Counter keeps first-seen order, so the first offending card is reported.
    for card_id, count in Counter(card_ids).items():
        owned = pool.get(card_id, 0)
        if owned <= 0:
            raise RuleError(
                ARSENAL,
                gettext_noop("Card %(card_id)s is not in this character's pool."),
                card_id=card_id,
            )
        if count > owned:
            raise RuleError(
                ARSENAL,
                gettext_noop("The arsenal has %(count)s copies of card %(card_id)s; the pool holds only %(owned)s."),
                card_id=card_id,
                count=count,
                owned=owned,
            )


def check_focus(hand: Sequence[CardFace], card_id: int, *, abilities: bool = False) -> CardFace:
    """F1: only a defence spell of one's own arsenal can be focused (a defence ability too if ``abilities``).

    The seed says "one DEFENCE SPELL" twice; an event may also allow defence
    abilities (a setting, off by default).
    """
    for face in hand:
        if face.card_id == card_id:
            if not face.is_defence:
                raise RuleError(
                    "F1",
                    gettext_noop("Only a defence card can be focused; %(name)s is an attack card."),
                    name=face.name,
                )
            if not face.is_spell and not abilities:
                raise RuleError(
                    "F1",
                    gettext_noop("Only a defence spell can be focused; %(name)s is an ability."),
                    name=face.name,
                )
            return face
    raise RuleError("F1", gettext_noop("Card %(card_id)s is not in this arsenal."), card_id=card_id)

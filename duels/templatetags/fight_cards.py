"""Card chips and card buttons of the fight pages, written in Python and kept per face and language.

A referee's fragment lists both hands as chips and the hand that answers as
buttons: hundreds of cards in a long fight, each an ``{% include %}`` of a
few nodes - most of a step's rendering time. A chip depends only on the
face it shows, whether it is focused and the language, so its HTML is built
once per process and reused; a list of them is one tag, not one include
per card. The markup is exactly what the one-card template ``duels/_card.html``
rendered (tests/web/test_card_chips.py keeps it); every page now calls
``{% card_chip %}`` instead of including it (issue 24: an include costs more
than the chip).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

register = template.Library()

_CHIPS: dict[tuple[Any, ...], str] = {}
_CHIPS_MAX = 20_000


def chip(card: Any) -> str:
    """One card face (presenters.CardView) as ``duels/_card.html`` rendered it, as escaped HTML."""
    key = (get_language(), card.name, card.kind, card.focused, card.full_effect, card.softened_effect)
    html = _CHIPS.get(key)
    if html is None:
        if len(_CHIPS) >= _CHIPS_MAX:
            _CHIPS.clear()
        html = _CHIPS[key] = _build_chip(card)
    return html


def _build_chip(card: Any) -> str:
    effect = ""
    if card.is_attack:
        soft = f" / {conditional_escape(card.softened_effect_label)}" if card.softened_effect else ""
        effect = f'<span class="card-chip-effect">{conditional_escape(card.full_effect_label)}{soft}</span>'
    badge = f'<span class="badge text-bg-warning">{conditional_escape(gettext("focus"))}</span>' if card.focused else ""
    focused = " focused" if card.focused else ""
    return (
        f'\n<span class="card-chip {conditional_escape(card.kind)}{focused}">\n'
        f'  <span class="card-chip-name">{conditional_escape(card.name)}</span>\n'
        f"  {effect}\n"
        f"  {badge}\n"
        "</span>\n"
    )


@register.simple_tag
def card_chip(card: Any) -> SafeString:
    return mark_safe(chip(card))  # built from escaped parts (_build_chip)


@register.simple_tag
def card_chips(cards: Iterable[Any] | None) -> SafeString:
    """Chips of all ``cards``, in order (a hand, the played cards)."""
    return mark_safe("".join(chip(card) for card in cards or ()))  # escaped in chip()


@register.simple_tag
def card_buttons(cards: Iterable[Any] | None, style: str = "") -> SafeString:
    """One submit button per card (its uid as ``card``): ``style`` for all, else by kind (an answer).

    The referee's attack and answer choices: a long fight's hand is a hundred
    buttons, each written here in a line of Python instead of template nodes.
    """
    buttons = []
    for card in cards or ():
        css = style or ("btn-outline-danger" if card.is_attack else "btn-primary")
        buttons.append(
            f'\n        <button type="submit" name="card" value="{conditional_escape(card.uid)}" '
            f'class="btn {css} btn-huge">{conditional_escape(card.name)}</button>'
        )
    return mark_safe("".join(buttons))  # every value is escaped

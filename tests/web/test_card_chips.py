"""The card chips and buttons written in Python show exactly what the one-card template did (issue 8).

``duels.templatetags.fight_cards`` builds a hand's chips without a template
include per card and keeps each chip per face and language; the markup must
stay the template's, escaped, in the viewer's language.
"""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from duels.templatetags.fight_cards import card_buttons, card_chips, chip
from duels.web.viewers import CardView

# duels/_card.html as it was before the chips moved to Python: the reference markup.
CARD_TEMPLATE = (
    "{% load i18n %}{# One card face. Context: card (presenters.CardView). #}\n"
    '<span class="card-chip {{ card.kind }}{% if card.focused %} focused{% endif %}">\n'
    '  <span class="card-chip-name">{{ card.name }}</span>\n'
    '  {% if card.is_attack %}<span class="card-chip-effect">{{ card.full_effect_label }}'
    "{% if card.softened_effect %} / {{ card.softened_effect_label }}{% endif %}</span>{% endif %}\n"
    '  {% if card.focused %}<span class="badge text-bg-warning">{% translate "focus" %}</span>{% endif %}\n'
    "</span>\n"
)

CARDS = [
    CardView("u1", 1, "Fire <script>", "attack", "lightly_wounded", "", False),
    CardView("u2", 1, "Fire <script>", "attack", "lightly_wounded", "", True),
    CardView("u3", 2, "Frost & ice", "attack", "seriously_wounded", "lightly_wounded", False),
    CardView("u4", 3, 'Shield "3"', "defence", "", "", False),
    CardView("u5", 4, "Ward", "defence", "", "", True),
]


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("card", CARDS, ids=lambda c: c.uid)
def test_a_chip_is_the_templates_markup(card, lang):
    with translation.override(lang):
        expected = Template(CARD_TEMPLATE).render(Context({"card": card}))
        assert chip(card) == expected
        assert chip(card) == expected  # the kept copy too


def test_a_chip_is_kept_per_language():
    card = CARDS[1]
    with translation.override("en"):
        english = chip(card)
    with translation.override("ru"):
        russian = chip(card)
    assert english != russian
    assert "focus" in english and "lightly wounded" in english.lower()


def test_a_hand_of_chips_is_each_chip_in_order():
    with translation.override("en"):
        assert card_chips(CARDS) == "".join(chip(c) for c in CARDS)
        assert card_chips(None) == ""


def test_buttons_carry_each_uid_escaped_and_style_by_kind():
    html = card_buttons([CARDS[0], CARDS[3]])
    assert 'value="u1" class="btn btn-outline-danger btn-huge">Fire &lt;script&gt;</button>' in html
    assert 'value="u4" class="btn btn-primary btn-huge">Shield &quot;3&quot;</button>' in html
    assert card_buttons([CARDS[0]], "btn-danger").count("btn btn-danger btn-huge") == 1
    assert "<script>" not in html

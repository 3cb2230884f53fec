"""The player's own part written in Python equals the template it replaces (issue 24), for every kind, ru and en.

``duels/templatetags/player_own.py`` against tests/web/regions_reference/player_own.html:
a character outside a fight (their arsenal, a focus, focus forms; and one not
accepted yet, no hand), each fighter of a duel through its steps (the hand,
the played cards, the link to the rest) and each combatant of a battle (no
focus forms: F1 is not a battle rule), with every condition badge; the page
itself draws it (a player's poll).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from django.urls import reverse

from cards.models import Card
from duels import services
from duels.templatetags.player_own import player_own
from duels.views_player import _player_context
from events.models import Character
from tests.services.battle_kit import begin
from tests.services.kit import arm
from tests.web.duels_kit import parry_then_spark
from tests.web.regions_kit import same

pytestmark = pytest.mark.django_db
MARKS = {"etag": '"e"', "server_now": "now", "new_nonce": "nonce", "csrf_token": "csrf"}


def _context(character: Character, situation: Any) -> dict[str, Any]:
    character.refresh_from_db()
    if situation is not None:
        situation.refresh_from_db()
    return {**_player_context(character, situation, character.link_token), **MARKS}


def _every_condition(context: dict[str, Any]) -> None:
    """The context as it is, then with ``me`` fit, wounded and out of the fight, with played cards beyond the page's."""
    same(player_own, "player_own.html", context)
    me = context.get("me")
    if me is None:
        return
    for condition, can_fight in (("fit", True), ("lightly_wounded", True), ("dead", False)):
        variant = replace(me, condition=condition, can_fight=can_fight)
        same(player_own, "player_own.html", {**context, "me": variant})
    if getattr(me, "discards", None):  # a played card shown: the rest are on the record page
        longer = replace(me, discards_total=len(me.discards) + 4)
        assert longer.discards_hidden == 4
        html = player_own({**context, "me": longer})
        assert reverse("duels:record", args=[context["situation"].pk]) in html
        same(player_own, "player_own.html", {**context, "me": longer})


def test_outside_a_fight_the_arsenal_and_its_focus_forms_equal_the_template(character, catalogue, attack_card):
    shield = Card.objects.create(catalogue=catalogue, name_ru="Щит <и> меч", name_en="Shield & <sword>", kind="defence")
    ward = Card.objects.create(catalogue=catalogue, name_ru="Оберег", name_en="Ward", kind="defence")
    arm(character, (attack_card, 2), shield, ward)
    context = _context(character, None)
    assert context["hand"] and not context.get("situation")
    same(player_own, "player_own.html", context)
    html = player_own(context)
    assert html.count('<form method="post"') == 2 and html.count('value="csrf"') == 2  # the defences only
    # F1: one focused card, shown apart and offering to drop the focus.
    focused = next(card for card in context["hand"] if not card.is_attack)
    hand = [replace(card, focused=card is focused) for card in context["hand"]]
    same(player_own, "player_own.html", {**context, "hand": hand, "focus": replace(focused, focused=True)})
    same(player_own, "player_own.html", {**context, "hand": hand, "can_focus": False})


def test_a_character_not_accepted_yet_has_no_hand_shown(character, attack_card):
    arm(character, attack_card)
    character.status = Character.Status.PENDING
    character.save(update_fields=["status"])
    context = _context(character, None)
    assert context["hand"] == []
    same(player_own, "player_own.html", context)
    assert "No cards in hand." in player_own(context)


def test_each_duellist_s_own_part_equals_the_template_through_a_duel(
    shown, referee, character, rival, attack_card, defence_card, spark
):
    for person in (character, rival):
        _every_condition(_context(person, shown))
    parry_then_spark(shown, referee, character, rival, defence_card, spark)
    for person in (character, rival):
        context = _context(person, shown)
        assert context["me"].discards, "a played card is listed"
        _every_condition(context)


def test_each_combatant_s_own_part_equals_the_template_in_a_battle(event, people, referee):
    battle = begin(event, people, referee)
    assert services.state_of(battle)
    for person in people:
        context = _context(person, battle)
        assert context["me"] is not None and context["hand"]
        assert "<form" not in player_own(context)  # F1 is not a battle rule: no focus forms
        _every_condition(context)

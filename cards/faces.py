"""Catalogue cards as the engine sees them (a frozen snapshot, CR1)."""

from cards.models import Card, CounterRule
from rules import cards as engine_cards


def face_of(card: Card) -> engine_cards.CardFace:
    # The name is taken in the active language: a face is copied into a fight's
    # state, so the referee's language at that moment is the one it keeps.
    return engine_cards.CardFace(
        card_id=card.pk,
        name=card.name,
        kind=card.kind,
        full_effect=card.full_effect,
        softened_effect=card.softened_effect,
        tags=tuple(card.tag_list),
        category=card.category,
    )


def counter_rule_of(rule: CounterRule) -> engine_cards.CounterRule:
    tag = None if rule.attack_card_id is not None else rule.attack_tag.strip().lower()
    return engine_cards.CounterRule(
        defence_card_id=rule.defence_card_id, attack_card_id=rule.attack_card_id, attack_tag=tag, outcome=rule.outcome
    )

"""What the player's page needs to draw the arsenal section (the partial ``cards/_arsenal.html``).

A fixed number of queries whatever the size of the pool: one for the hand, one
for the pool, two for the prepared arsenals and their cards.
"""

from django.db.models import Prefetch

from cards.models import ArsenalCard, Card, PoolEntry, PreparedArsenal, PreparedArsenalCard
from events.models import Character

# The cards engineer's partial comes first; ours draws a plain table until it exists.
ARSENAL_TEMPLATES = ["cards/_arsenal.html", "events/_arsenal.html"]

CARD_ORDER = ("card__kind", "card__name_ru")


def arsenal_context(character: Character) -> dict[str, object]:
    hand: list[tuple[Card, int]] = [
        (entry.card, entry.copies)
        for entry in ArsenalCard.objects.filter(character=character).select_related("card").order_by(*CARD_ORDER)
    ]
    pool = list(PoolEntry.objects.filter(character=character).select_related("card").order_by(*CARD_ORDER))
    prepared = list(
        PreparedArsenal.objects.filter(character=character).prefetch_related(
            Prefetch("cards", queryset=PreparedArsenalCard.objects.select_related("card").order_by(*CARD_ORDER))
        )
    )
    return {
        "character": character,
        "hand": hand,
        "hand_size": sum(copies for _card, copies in hand),
        "pool": pool,
        "prepared": prepared,
        "arsenal_templates": ARSENAL_TEMPLATES,
    }

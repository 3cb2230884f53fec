"""A character's card lists as one dictionary, as the arsenal-import tests compare them."""

from cards.models import ArsenalCard, PoolEntry, PreparedArsenal


def lists(character) -> dict[str, dict[str, int]]:
    """The character's pool, arsenal and prepared arsenals as {list: {card name: copies}}."""
    out: dict[str, dict[str, int]] = {}
    for entry in PoolEntry.objects.filter(character=character).select_related("card"):
        out.setdefault("pool", {})[entry.card.name_ru] = entry.copies
    for held in ArsenalCard.objects.filter(character=character).select_related("card"):
        out.setdefault("arsenal", {})[held.card.name_ru] = held.copies
    for prepared in PreparedArsenal.objects.filter(character=character):
        out[prepared.name] = {c.card.name_ru: c.copies for c in prepared.cards.select_related("card")}
    return out

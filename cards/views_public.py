"""A card's public catalogue entry: what a scanned printed card opens (issue 14), a magic card's too.

Anyone may read it, without logging in: a referee settles a dispute on the field
by scanning the card in a player's hand. It shows only what the printed card and
the counter rules already say publicly: no holder, no arsenal, nothing of a fight
(D4 keeps unplayed cards private; the catalogue itself is the game's rule book).
The address is the card's id, stable while the card exists. Not marked cacheable
for shared caches: the page's top bar carries the language form's CSRF token and,
when signed in, the user's name.
"""

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from cards.models import Card, CounterRule
from cards.models_mass import MagicCard


def counter_rules_of(card: Card) -> list[CounterRule]:
    """Every counter rule (CR2) that names this card: as the defence, as the attack, or by one of its tags."""
    concerning = Q(defence_card=card) | Q(attack_card=card)
    if card.is_attack and card.tag_list:
        concerning |= Q(attack_card__isnull=True, attack_tag__in=card.tag_list, defence_card__catalogue=card.catalogue)
    return list(
        CounterRule.objects.filter(concerning)
        .select_related("defence_card", "attack_card")
        .order_by("defence_card__name_ru", "attack_card__name_ru", "attack_tag")
    )


@require_safe
def card_entry(request: HttpRequest, card_id: int) -> HttpResponse:
    card = get_object_or_404(Card.objects.select_related("catalogue"), pk=card_id)
    return render(request, "cards/card_entry.html", {"card": card, "rules": counter_rules_of(card)})


@require_safe
def magic_card_entry(request: HttpRequest, magic_card_id: int) -> HttpResponse:
    """A mass battle's magic card, as a printed magic card's QR code opens it: the catalogue's text, no more."""
    card = get_object_or_404(MagicCard.objects.select_related("catalogue"), pk=magic_card_id)
    return render(request, "cards/magic_card_entry.html", {"card": card})

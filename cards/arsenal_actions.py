"""Arsenal changes answered with a message: the same for the organizers' builder and the players' page.

Each calls a ``cards/arsenal.py`` service and reports the outcome through the
messages framework (nothing is saved on a refusal); the caller decides where to
go back to and says whether the user is staff: a refusal shows staff the rule
it cites as a link, and players its words alone (``cards/rule_links.py``).
"""

from django.contrib import messages
from django.http import HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from cards import arsenal
from cards.models import PreparedArsenal
from cards.rule_links import refusal_html
from events.models import Character
from rules.errors import RuleError


def restore(request: HttpRequest, character: Character, *, staff: bool) -> None:
    """S2: back to the arsenal as last composed."""
    try:
        arsenal.restore_arsenal(character)
    except RuleError as err:
        messages.error(request, refusal_html(err, staff=staff))
    else:
        messages.success(request, _("The arsenal is restored to the original."))


def take_prepared(request: HttpRequest, character: Character, prepared_id: int, *, staff: bool) -> None:
    """D3: one of the character's prepared arsenals becomes the current one, whole (404 for another's)."""
    prepared = get_object_or_404(PreparedArsenal, pk=prepared_id, character=character)
    try:
        arsenal.take_prepared(character, prepared)
    except RuleError as err:
        messages.error(request, refusal_html(err, staff=staff))
    else:
        messages.success(request, _("“%(name)s” is now the current arsenal.") % {"name": prepared.name})


def build(request: HttpRequest, character: Character, card_ids: list[int], *, staff: bool) -> bool:
    """S2, D3: ``card_ids`` (one per copy) become the current arsenal; False if refused."""
    try:
        arsenal.build_arsenal(character, card_ids)
    except RuleError as err:
        messages.error(request, refusal_html(err, staff=staff))
        return False
    messages.success(request, _("The current arsenal is saved: %(count)s cards.") % {"count": len(card_ids)})
    return True

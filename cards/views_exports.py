"""The event taken back out (issue 22): every list in one workbook, and the links for messaging (cards/exports.py)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from cards import exports
from events.access import event_for_organizer
from helpers import tables


@never_cache
@login_required
@require_GET
def event_workbook(request: HttpRequest, event_id: int) -> HttpResponse:
    """Every list of the event in one XLSX, each its own sheet."""
    event = event_for_organizer(request.user, event_id)
    response = HttpResponse(exports.event_workbook(event), content_type=tables.CONTENT_TYPES["xlsx"])
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-all-lists.xlsx"'
    return response


@never_cache
@login_required
@require_GET
def messaging_links(request: HttpRequest, event_id: int) -> HttpResponse:
    """Each accepted character's secret link with the player's contacts, to send before the game (CSV)."""
    event = event_for_organizer(request.user, event_id)
    response = HttpResponse(exports.messaging_links(event), content_type=tables.CONTENT_TYPES["csv"])
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-links-for-messaging.csv"'
    return response

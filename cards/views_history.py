"""History pages of organizers' edits: a character's, a catalogue card's; and the revert of one change.

Only the event's organizers: anyone else, another event's organizers and referees
included, gets a 404. A page stays reachable after its object was deleted (its
history names the event or the catalogue), so that the deletion can be reverted.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from cards import history
from cards.models import Card
from events.access import ORGANIZER, event_for_organizer, staffed_events
from events.models import Character, Event
from helpers.history import REASON_LENGTH


def _character_scope(request: HttpRequest, character_id: int) -> tuple[Event, str]:
    """The character's event and name, live or deleted, if the user organizes that event."""
    events = staffed_events(request.user, ORGANIZER)
    live = Character.objects.select_related("event").filter(pk=character_id, event__in=events).first()
    if live is not None:
        return live.event, live.name
    last = Character.history.filter(id=character_id).order_by("-history_date", "-history_id").first()
    event = events.filter(pk=last.event_id).first() if last is not None else None
    if event is None:
        raise Http404
    return event, last.name


def _card_scope(request: HttpRequest, event_id: int, card_id: int) -> tuple[Event, str]:
    event = event_for_organizer(request.user, event_id)
    if event.catalogue_id is None:
        raise Http404
    live = Card.objects.filter(pk=card_id, catalogue_id=event.catalogue_id).first()
    if live is not None:
        return event, live.name
    last = Card.history.filter(id=card_id).order_by("-history_date", "-history_id").first()
    if last is None or last.catalogue_id != event.catalogue_id:
        raise Http404
    return event, last.name_ru


def _page(
    request: HttpRequest, event: Event, name: str, changes: list[history.Change], revert_url: str
) -> HttpResponse:
    context = {
        "event": event,
        "name": name,
        "changes": changes,
        "revert_url": revert_url,
        "reason_length": REASON_LENGTH,
        "shown_limit": history.SHOWN,
    }
    return render(request, "cards/history.html", context)


@never_cache
@login_required
@require_GET
def character_history(request: HttpRequest, character_id: int) -> HttpResponse:
    event, name = _character_scope(request, character_id)
    changes = history.character_changes(character_id)
    return _page(request, event, name, changes, reverse("cards:character-revert", args=[character_id]))


@never_cache
@login_required
@require_GET
def card_history(request: HttpRequest, event_id: int, card_id: int) -> HttpResponse:
    event, name = _card_scope(request, event_id, card_id)
    changes = history.card_changes(card_id)
    return _page(request, event, name, changes, reverse("cards:card-revert", args=[event_id, card_id]))


def _revert(request: HttpRequest, changes: list[history.Change]) -> None:
    key = request.POST.get("change", "")
    reason = " ".join(request.POST.get("reason", "").replace("\x00", "").split())
    change = history.find(changes, key)
    if change is None:
        messages.error(request, _("Nothing was reverted: this change is not on this page (reload it)."))
    elif not reason:
        messages.error(request, _("Nothing was reverted: say why, in the reason field."))
    elif len(reason) > REASON_LENGTH:
        messages.error(
            request, _("Nothing was reverted: the reason is longer than %(n)s characters.") % {"n": REASON_LENGTH}
        )
    else:
        try:
            history.revert(change, reason)
        except history.RevertRefused as refusal:
            messages.error(request, _("Nothing was reverted: %(why)s") % {"why": refusal})
        else:
            messages.success(request, _("Reverted: %(what)s.") % {"what": change.what})


@login_required
@require_POST
def character_revert(request: HttpRequest, character_id: int) -> HttpResponse:
    _character_scope(request, character_id)
    _revert(request, history.character_changes(character_id))
    return redirect("cards:character-history", character_id)


@login_required
@require_POST
def card_revert(request: HttpRequest, event_id: int, card_id: int) -> HttpResponse:
    _card_scope(request, event_id, card_id)
    _revert(request, history.card_changes(card_id))
    return redirect("cards:card-history", event_id, card_id)

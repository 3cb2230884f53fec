"""Catalogue pages: the event's cards, with filters; creating and editing a card.

Organizers edit; referees of the event see the same pages read-only; everyone
else gets a 404 (events/access.py).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cards.forms import CardFilterForm, CardForm, CatalogueForm
from cards.models import ArsenalCard, Card, Catalogue, PoolEntry, PreparedArsenalCard
from events.access import event_for_organizer, event_for_referee, is_organizer
from events.models import Event
from helpers.names import mixed_script_note
from helpers.requests import HtmxRequest


def catalogue_tags(catalogue: Catalogue, kind: str | None = None) -> list[str]:
    """Every tag used in the catalogue, sorted (one query)."""
    cards = catalogue.cards.all() if kind is None else catalogue.cards.filter(kind=kind)
    found: set[str] = set()
    for tags in cards.values_list("tags", flat=True):
        found.update(t.strip().lower() for t in tags.split(",") if t.strip())
    return sorted(found)


def _sharing_events(event: Event) -> list[Event]:
    """Other events using the same catalogue: an edit here changes their cards too."""
    if event.catalogue_id is None:
        return []
    return list(Event.objects.filter(catalogue_id=event.catalogue_id).exclude(pk=event.pk).order_by("name"))


@login_required
def catalogue(request: HtmxRequest, event_id: int) -> HttpResponse:
    event = event_for_referee(request.user, event_id)
    can_edit = is_organizer(request.user, event)
    context: dict[str, object] = {"event": event, "can_edit": can_edit}
    if event.catalogue is None:
        context["catalogue_form"] = CatalogueForm(initial={"name": event.name}) if can_edit else None
        return render(request, "cards/catalogue.html", context)
    filter_form = CardFilterForm(request.GET or None, tags=catalogue_tags(event.catalogue))
    cards = filter_form.filter(event.catalogue.cards.all()).order_by("kind", "name_ru")
    context.update(
        catalogue=event.catalogue,
        filter_form=filter_form,
        cards=cards,
        total=event.catalogue.cards.count(),
        shared_with=_sharing_events(event),
    )
    if request.htmx:
        return render(request, "cards/catalogue.html#card-list", context)
    return render(request, "cards/catalogue.html", context)


@login_required
@require_POST
def catalogue_create(request: HttpRequest, event_id: int) -> HttpResponse:
    """An event without a catalogue gets a new, empty one."""
    event = event_for_organizer(request.user, event_id)
    if event.catalogue_id is not None:
        messages.info(request, _("This event already has a catalogue."))
        return redirect("cards:catalogue", event.pk)
    form = CatalogueForm(request.POST)
    if not form.is_valid():
        return render(request, "cards/catalogue.html", {"event": event, "can_edit": True, "catalogue_form": form})
    with transaction.atomic():
        event.catalogue = form.save()
        event.save(update_fields=["catalogue"])
    messages.success(request, _("The catalogue is created. Add its cards."))
    return redirect("cards:catalogue", event.pk)


def _event_catalogue(request: HttpRequest, event_id: int) -> tuple[Event, Catalogue, bool]:
    event = event_for_referee(request.user, event_id)
    if event.catalogue is None:
        raise Http404
    can_edit = is_organizer(request.user, event)
    # Referees look; only organizers change anything (their POSTs are out of scope).
    if request.method != "GET" and not can_edit:
        raise Http404
    return event, event.catalogue, can_edit


@login_required
def card_new(request: HttpRequest, event_id: int) -> HttpResponse:
    event, catalogue_, can_edit = _event_catalogue(request, event_id)
    if not can_edit:
        raise Http404
    form = CardForm(request.POST or None, catalogue=catalogue_)
    if request.method == "POST" and form.is_valid():
        card = form.save()
        messages.success(request, _("Card “%(name)s” added.") % {"name": card.name})
        if note := mixed_script_note(card.name_ru):
            messages.warning(request, note)
        if "add_another" in request.POST:
            return redirect("cards:card-new", event.pk)
        return redirect("cards:catalogue", event.pk)
    return render(request, "cards/card_edit.html", {"event": event, "form": form, "card": None, "can_edit": True})


@login_required
def card_edit(request: HttpRequest, event_id: int, card_id: int) -> HttpResponse:
    event, catalogue_, can_edit = _event_catalogue(request, event_id)
    card = get_object_or_404(Card, pk=card_id, catalogue=catalogue_)
    form = CardForm(request.POST or None, instance=card, catalogue=catalogue_)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Card “%(name)s” saved.") % {"name": card.name})
        if note := mixed_script_note(card.name_ru):
            messages.warning(request, note)
        return redirect("cards:catalogue", event.pk)
    if not can_edit:
        for field in form.fields.values():
            field.disabled = True
    context = {
        "event": event,
        "form": form,
        "card": card,
        "can_edit": can_edit,
        "shared_with": _sharing_events(event),
    }
    return render(request, "cards/card_edit.html", context)


@login_required
@require_POST
def card_delete(request: HttpRequest, event_id: int, card_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    if event.catalogue_id is None:
        raise Http404
    card = get_object_or_404(Card, pk=card_id, catalogue_id=event.catalogue_id)
    # A card someone holds or owns must not vanish from under them.
    in_use = (
        PoolEntry.objects.filter(card=card).exists()
        or ArsenalCard.objects.filter(card=card).exists()
        or PreparedArsenalCard.objects.filter(card=card).exists()
    )
    if in_use:
        messages.error(
            request,
            _("“%(name)s” is in a character's pool or arsenal; remove it from there first.") % {"name": card.name},
        )
        return redirect("cards:card-edit", event.pk, card.pk)
    name = card.name
    card.delete()
    messages.success(request, _("Card “%(name)s” deleted, with its counter rules.") % {"name": name})
    return redirect("cards:catalogue", event.pk)

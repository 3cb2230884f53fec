"""An event made and configured by its organizers, outside the Django admin.

Creating an event is a site permission (events/creators.py); whoever creates
one becomes its organizer. The settings page is the organizers' only (404 for
everyone else, events/access.py).
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from events.access import ORGANIZER, event_for_organizer, person
from events.creators import may_create_events, not_a_creator
from events.forms import EventForm
from events.models import Event, StaffRole
from events.public_url import address_note


def _form_page(request: HttpRequest, form: EventForm, event: Event | None) -> HttpResponse:
    context = {
        "form": form,
        "event": event,
        # The settings page sits among the event's organizer pages; a new event has none yet.
        "base_template": "events/organizer_base.html" if event else "base.html",
        **address_note(event),
    }
    return render(request, "events/event_form.html", context)


@login_required
def event_create(request: HttpRequest) -> HttpResponse:
    organizer = person(request)
    if not may_create_events(organizer):
        raise PermissionDenied(not_a_creator())
    form = EventForm(request.POST or None, user=organizer)
    if request.method == "POST" and form.is_valid():
        # An event nobody organizes could not be reached from the site: both rows or neither.
        with transaction.atomic():
            event = form.save()
            StaffRole.objects.create(event=event, user=organizer, role=ORGANIZER)
        messages.success(request, _("The event “%(name)s” is created; you are its organizer.") % {"name": event.name})
        return redirect("events:organizer-home", event.pk)
    return _form_page(request, form, None)


@login_required
def event_settings(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    form = EventForm(request.POST or None, instance=event, user=person(request))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("The event's settings are saved."))
        return redirect("events:event-settings", event.pk)
    if request.method == "POST":
        # The form shows the posted values; the page's title and links keep the saved name.
        event.refresh_from_db()
    return _form_page(request, form, event)

"""A whole event as a file (duels/archive.py): the organizers' download, and the upload that creates it."""

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET

from duels.archive import (
    ACCOUNTS_INVITE,
    ArchiveError,
    dumps,
    export_event,
    import_event,
    read_event_file,
    staff_left_out,
)
from events.access import ORGANIZER, event_for_organizer, person
from events.creators import may_create_events, not_a_creator
from events.models import StaffRole


class EventFileForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Event file (JSON, made by “Download the whole event”)"))


@login_required
@require_GET
def event_export(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    # Never the accounts' password hashes from the site: only manage.py export_event --with-passwords.
    response = HttpResponse(dumps(export_event(event)), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="sumrak-event-{event.pk}.json"'
    return response


@login_required
def event_import(request: HttpRequest) -> HttpResponse:
    if not may_create_events(request.user):
        raise PermissionDenied(not_a_creator())
    form = EventFileForm(request.POST or None, request.FILES or None)
    error = ""
    if request.method == "POST" and form.is_valid():
        try:
            # Bounded first (issue 27): a deep or wide file is refused before anything is built from it.
            data = read_event_file(form.cleaned_data["file"].read(), max_bytes=settings.SUMRAK_MAX_REQUEST_BYTES)
            with transaction.atomic():
                # Created, never touching another event; no account is made or given anything here.
                event = import_event(data, accounts=ACCOUNTS_INVITE)
                # Whoever brings the event in organizes it.
                StaffRole.objects.get_or_create(event=event, user=person(request), role=ORGANIZER)
        except ArchiveError as err:
            error = str(err)
        else:
            messages.success(request, _("The event “%(name)s” is imported.") % {"name": event.name})
            left_out = staff_left_out(data)
            if left_out:
                messages.info(
                    request,
                    _(
                        "Staff roles were not given to any account here: %(staff)s. "
                        "Give them again on the “Organizers and referees” page."
                    )
                    % {"staff": ", ".join(left_out)},
                )
            return redirect("events:organizer-home", event.pk)
    return render(request, "duels/event_import.html", {"form": form, "error": error})

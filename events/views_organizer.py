"""Organizers' event pages: the event's start page, the application queue, and the staff."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from events.access import ORGANIZER, character_for_staff, event_for_organizer
from events.forms import ReviewForm, StaffForm
from events.models import Character, StaffRole
from helpers.requests import HtmxRequest

Status = Character.Status


@login_required
def organizer_home(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    counts = Character.objects.filter(event=event).aggregate(
        total=Count("pk"),
        pending=Count("pk", filter=Q(status=Status.PENDING)),
        accepted=Count("pk", filter=Q(status=Status.ACCEPTED)),
        rejected=Count("pk", filter=Q(status=Status.REJECTED)),
        arrived=Count("pk", filter=Q(status=Status.ACCEPTED, arrived=True)),
    )
    return render(request, "events/organizer_home.html", {"event": event, "counts": counts})


@login_required
@require_POST
def registration_toggle(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    # The wanted state travels with the button, so a repeated POST changes nothing more.
    wanted = request.POST.get("open")
    if wanted not in ("0", "1"):
        # Anything but the buttons' 0 or 1 must not close (or open) the registration.
        messages.error(request, _("Nothing was changed: use the button to open or close the registration."))
        return redirect("events:organizer-home", event.pk)
    event.registration_open = wanted == "1"
    event.save(update_fields=["registration_open"])
    if event.registration_open:
        messages.success(request, _("Registration is open."))
    else:
        messages.success(request, _("Registration is closed."))
    return redirect("events:organizer-home", event.pk)


APPLICATION_VIEWS = {
    "pending": Q(status=Status.PENDING),
    "rejected": Q(status=Status.REJECTED),
    "accepted": Q(status=Status.ACCEPTED),
}


@login_required
def applications(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    shown = request.GET.get("show", "pending")
    if shown not in APPLICATION_VIEWS:
        shown = "pending"
    queue = (
        Character.objects.filter(event=event)
        .filter(APPLICATION_VIEWS[shown])
        .select_related("player")
        .order_by("created_at", "pk")
    )
    pending_count = Character.objects.filter(event=event, status=Status.PENDING).count()
    return render(
        request,
        "events/applications.html",
        {"event": event, "queue": queue, "shown": shown, "pending_count": pending_count, "form": ReviewForm()},
    )


@login_required
@require_POST
def review(request: HtmxRequest, character_id: int) -> HttpResponse:
    character = character_for_staff(request.user, character_id, ORGANIZER)
    form = ReviewForm(request.POST)
    if form.is_valid():
        character.status = form.status
        character.review_comment = form.cleaned_data["comment"].strip()
        character.save(update_fields=["status", "review_comment"])
    if request.htmx:
        if not form.is_valid():
            return render(request, "events/applications.html#item", {"character": character, "form": form})
        # A decided application leaves the queue (a short note takes its place) and the waiting count drops.
        pending = Character.objects.filter(event_id=character.event_id, status=Status.PENDING).count()
        context = {"character": character, "pending_count": pending, "oob": True}
        return render(request, "events/applications.html#decided", context)
    if not form.is_valid():
        messages.error(request, _("Choose to accept or to reject the application."))
    elif form.status == Status.ACCEPTED:
        messages.success(request, _("%(name)s is accepted.") % {"name": character.name})
    else:
        messages.success(request, _("%(name)s is rejected.") % {"name": character.name})
    return redirect("events:applications", character.event_id)


@login_required
def staff(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    form = StaffForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        user, role = form.cleaned_data["username"], form.cleaned_data["role"]
        StaffRole.objects.get_or_create(event=event, user=user, role=role)
        messages.success(
            request,
            _("%(name)s is now %(role)s of this event.")
            % {"name": user.get_username(), "role": StaffRole.Role(role).label},
        )
        return redirect("events:staff", event.pk)
    roles = StaffRole.objects.filter(event=event).select_related("user").order_by("role", "user__username")
    return render(request, "events/staff.html", {"event": event, "form": form, "roles": roles})


@login_required
@require_POST
def staff_remove(request: HttpRequest, event_id: int, role_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    role = get_object_or_404(StaffRole, pk=role_id, event=event)
    organizers = StaffRole.objects.filter(event=event, role=ORGANIZER)
    if role.role == ORGANIZER and organizers.count() <= 1:
        # An event without organizers could no longer be managed from the site.
        messages.error(request, _("An event needs at least one organizer."))
        return redirect("events:staff", event.pk)
    role.delete()
    messages.success(request, _("%(name)s no longer has this role.") % {"name": role.user.get_username()})
    if role.user_id == request.user.pk and role.role == ORGANIZER:
        return redirect("home")
    return redirect("events:staff", event.pk)

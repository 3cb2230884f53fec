"""The start page, sign-up and help pages: what every visitor reaches first."""

from django import forms
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from events.access import ORGANIZER, REFEREE, staffed_events
from events.creators import claim_first_creator, has_an_event_creator, may_create_events
from events.models import Character, Event
from events.views_player import accept_email_invitations, invitations_for

HELP_ROLES = ("organizer", "referee", "player", "mass")


def home(request: HttpRequest) -> HttpResponse:
    user = request.user
    context: dict[str, object] = {
        # Event.takes_applications: open, and not over yet.
        "open_events": Event.objects.filter(registration_open=True, ends_on__gte=timezone.localdate()).order_by(
            "starts_on"
        )[:20],
    }
    if isinstance(user, User):  # signed in: the site's accounts are auth's User
        context["may_create_events"] = may_create_events(user)
        context["organized"] = staffed_events(user, ORGANIZER).order_by("-starts_on")
        context["refereed"] = staffed_events(user, REFEREE).order_by("-starts_on")
        context["invitations"] = invitations_for(user)
        context["my_characters"] = (
            Character.objects.filter(player=user)
            .select_related("event", "previous_role")
            .order_by("event", "created_at", "pk")
        )
    return render(request, "events/home.html", context)


class SignupForm(UserCreationForm[User]):
    """Django's sign-up, with the e-mail an organizer may have invited (issue 22: an import from JoinRPG)."""

    email = forms.EmailField(
        label=gettext_lazy("E-mail"),
        required=False,
        help_text=gettext_lazy(
            "Optional. If the organizers invited you by e-mail (their list came from JoinRPG or allrpg.info), "
            "give that address: you then play the characters they invited you to."
        ),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_email(self) -> str:
        return self.cleaned_data["email"].strip().lower()


def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="helpers.auth.SessionUserBackend")
        if claim_first_creator(user):
            messages.success(
                request,
                _(
                    "Welcome! Yours is this installation's first account: you may create events. "
                    "Start with “Create an event”."
                ),
            )
        else:
            messages.success(request, _("Welcome! You can now apply with a character to an event."))
        for character in accept_email_invitations(user):
            note = _("You play %(name)s in %(event)s: the organizers invited your e-mail.")
            messages.success(request, note % {"name": character.name, "event": character.event.name})
        return redirect("home")
    # Said before anyone signs up: the first account of a fresh installation creates the events.
    first = not has_an_event_creator()
    return render(request, "registration/signup.html", {"form": form, "first_account": first})


def help_index(request: HttpRequest) -> HttpResponse:
    return render(request, "help/index.html", {"roles": HELP_ROLES})


def help_page(request: HttpRequest, role: str) -> HttpResponse:
    if role not in HELP_ROLES:
        raise Http404
    return render(request, f"help/{role}.html", {"role": role})

"""Players' pages: applying with a character, and the character's own page (account or secret link)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from events.access import character_for_player, character_for_token, event_for_applicant, is_referee, person
from events.forms import ApplicationForm
from events.hooks import character_page_context
from events.models import Character


@login_required
def apply(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_applicant(request.user, event_id)
    if not event.takes_applications:
        messages.error(request, _("Registration for this event is closed."))
        if request.method == "POST":
            return redirect("home")
        return render(request, "events/apply.html", {"event": event, "form": None})
    form = ApplicationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = person(request)
        # A double-tapped submit must not file the same application twice.
        existing = Character.objects.filter(event=event, player=player, name=form.cleaned_data["name"]).first()
        if existing:
            messages.info(request, _("You have already applied with this character."))
            return redirect("events:my-character", existing.pk)
        character = form.save(commit=False)
        character.event = event
        character.player = player
        character.status = Character.Status.PENDING
        character.save()
        messages.success(request, _("Your application has been sent. The organizers will review it."))
        return redirect("events:my-character", character.pk)
    return render(request, "events/apply.html", {"event": event, "form": form})


def _character_page(request: HttpRequest, character: Character, *, via_link: bool) -> HttpResponse:
    context: dict[str, object] = {
        "character": character,
        "event": character.event,
        "via_link": via_link,
        # A referee who scans a player's QR code is offered to start a fight with them.
        "can_referee": is_referee(request.user, character.event_id),
    }
    if character.status == Character.Status.ACCEPTED:
        # The arsenal and whether it is frozen by a fight (S2/AG2) come from cards (events/hooks.py).
        context.update(character_page_context(character))
        # A refused "build anew" comes back with the copies the player typed (cards/views_player.py).
        draft = request.session.pop(arsenal_draft_key(character.pk), None)
        if isinstance(draft, dict):
            context["draft"] = {int(k): v for k, v in draft.items() if str(k).isdigit()}
    return render(request, "events/character_page.html", context)


def arsenal_draft_key(character_id: int) -> str:
    return f"arsenal-draft-{character_id}"


@never_cache
@login_required
def my_character(request: HttpRequest, character_id: int) -> HttpResponse:
    return _character_page(request, character_for_player(request.user, character_id), via_link=False)


@never_cache
def character_link(request: HttpRequest, token: str) -> HttpResponse:
    """The printed QR code's page: no account needed, the token is the key (revocable)."""
    return _character_page(request, character_for_token(token), via_link=True)


def invitations_for(user: User) -> QuerySet[Character]:
    """Characters an organizer invited this account to play, by its user name (issue 13) or its e-mail (issue 22).

    The e-mail is the account's own, given at sign-up; a player accepts (or declines) here.
    """
    invited = Q(invited_username__iexact=user.get_username())
    if user.email:
        invited |= Q(invited_email__iexact=user.email)
    return Character.objects.filter(invited).exclude(player=user).select_related("event")


def accept_email_invitations(user: User) -> list[Character]:
    """Signing up with the address an organizer invited (issue 22) accepts those invitations at once."""
    if not user.email:
        return []
    accepted = list(Character.objects.filter(invited_email__iexact=user.email, player__isnull=True))
    for character in accepted:
        character.player, character.invited_username, character.invited_email = user, "", ""
        character.save(update_fields=["player", "invited_username", "invited_email"])
    return accepted


@login_required
@require_POST
def invitation_answer(request: HttpRequest, character_id: int) -> HttpResponse:
    player = person(request)
    character = invitations_for(player).filter(pk=character_id).first()
    if character is None:
        raise Http404  # not invited (or already answered): nothing to say about the character
    if request.POST.get("answer") == "accept":
        character.player, character.invited_username, character.invited_email = player, "", ""
        character.save(update_fields=["player", "invited_username", "invited_email"])
        messages.success(request, _("You now play %(name)s.") % {"name": character.name})
        return redirect("events:my-character", character.pk)
    if request.POST.get("answer") == "decline":
        character.invited_username, character.invited_email = "", ""
        character.save(update_fields=["invited_username", "invited_email"])
        messages.success(request, _("You declined to play %(name)s.") % {"name": character.name})
        return redirect("home")
    messages.error(request, _("Choose to accept or to decline the invitation."))
    return redirect("home")

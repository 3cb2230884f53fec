"""Organizers' character pages: the filtered list, create/edit, and the secret link with its QR code."""

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Count, IntegerField, Model, OuterRef, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from events.access import ORGANIZER, character_for_staff, event_for_organizer, person
from events.forms import CharacterFilterForm, CharacterForm, SecondRoleForm
from events.models import Character, ConditionRecord, Event
from events.public_url import address_note
from events.public_url import secret_link as public_secret_link
from events.second_role import SecondRoleRefused, give_second_role
from events.views_bulk import parse_ids, selected_characters
from helpers.names import mixed_script_note
from helpers.requests import HtmxRequest

PAGE_SIZE = 30


def _rows_of(relation: str) -> QuerySet[Model]:
    """All rows of the model on the other side of one of Character's reverse relations."""
    model = Character._meta.get_field(relation).related_model
    if not isinstance(model, type):
        raise LookupError(f"Character.{relation} is not a relation to a model")
    return model._default_manager.all()


def _card_totals():
    """Hand size and pool size per character as subqueries: no join fan-out, no query per row.

    The rows are the cards app's, reached through their relations to Character
    (events does not import cards: docs/architecture.md).
    """
    hand = (
        _rows_of("arsenal")
        .filter(character=OuterRef("pk"))
        .order_by()
        .values("character")
        .annotate(total=Sum("copies"))
        .values("total")
    )
    pool = (
        _rows_of("pool")
        .filter(character=OuterRef("pk"))
        .order_by()
        .values("character")
        .annotate(total=Count("pk"))
        .values("total")
    )
    return {
        "hand_size": Coalesce(Subquery(hand, output_field=IntegerField()), 0),
        "pool_size": Coalesce(Subquery(pool, output_field=IntegerField()), 0),
    }


@login_required
def characters(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    filters = CharacterFilterForm(request.GET or None)
    queryset = (
        filters.filter(Character.objects.filter(event=event))
        .select_related("player", "focus_card")
        .annotate(**_card_totals())
        .order_by("name", "pk")
    )
    page = Paginator(queryset, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "events/characters.html", {"event": event, "filters": filters, "page": page})


def secret_link(character: Character) -> str:
    # The public base address, never the host this request came by (events/public_url.py).
    return public_secret_link(character)


def qr_svg(url: str, scale: int = 4) -> SafeString:
    # segno writes plain SVG markup (no script, no style attribute): safe under the CSP.
    return mark_safe(segno.make(url, error="m").svg_inline(scale=scale))


def _edit_page(request: HttpRequest, event: Event, form: CharacterForm, character: Character | None) -> HttpResponse:
    context: dict[str, object] = {"event": event, "form": form, "character": character}
    if character is not None:
        context.update(_link_context(request, character))
    return render(request, "events/character_form.html", context)


def _link_context(request: HttpRequest, character: Character) -> dict[str, object]:
    url = secret_link(character)
    return {"link_url": url, "link_qr": qr_svg(url), **address_note(character.event)}


def _say_invited(request: HttpRequest, character: Character) -> None:
    """The same words whether or not the account exists (issue 13: no page tells which user names do)."""
    if character.invited_username:
        note = _(
            "If an account named “%(username)s” exists, its owner is invited to play %(name)s "
            "and becomes the player on accepting."
        )
        messages.success(request, note % {"username": character.invited_username, "name": character.name})


def _warn_mixed_script(request: HttpRequest, name: str) -> None:
    """Saved, but said (issue 22): a Latin «A» or a digit «3» inside a Cyrillic name is most likely a typo."""
    if note := mixed_script_note(name):
        messages.warning(request, note)


@login_required
def character_create(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    form = CharacterForm(request.POST or None, instance=Character(event=event))
    if request.method == "POST" and form.is_valid():
        character = form.save()
        messages.success(request, _("%(name)s is created.") % {"name": character.name})
        _warn_mixed_script(request, character.name)
        _say_invited(request, character)
        return redirect("events:character-edit", character.pk)
    return _edit_page(request, event, form, None)


@never_cache
@login_required
def character_edit(request: HttpRequest, character_id: int) -> HttpResponse:
    character = character_for_staff(request.user, character_id, ORGANIZER)
    form = CharacterForm(request.POST or None, instance=character)
    if request.method == "POST" and form.is_valid():
        invited_before = character.invited_username
        condition_before = Character.objects.values_list("condition", flat=True).get(pk=character.pk)
        with transaction.atomic():
            form.save()
            if character.condition != condition_before:
                # The history of edits keeps conditions out (fights write them): the record says who and when.
                ConditionRecord.objects.create(
                    character=character,
                    actor=person(request),
                    old=condition_before,
                    new=character.condition,
                    reason=_("Set on the character's page"),
                )
        messages.success(request, _("%(name)s is saved.") % {"name": character.name})
        _warn_mixed_script(request, character.name)
        if character.invited_username != invited_before:
            _say_invited(request, character)
        return redirect("events:character-edit", character.pk)
    return _edit_page(request, character.event, form, character)


@never_cache
@login_required
def second_role(request: HttpRequest, character_id: int) -> HttpResponse:
    """A new character for the player of a dead one; the dead one's link stops working (issue 22)."""
    dead = character_for_staff(request.user, character_id, ORGANIZER)
    initial = {"side": dead.side, "kind": dead.kind, "power_level": dead.power_level}
    form = SecondRoleForm(request.POST or None, initial=initial, instance=Character(event=dead.event))
    if request.method == "POST" and form.is_valid():
        try:
            new = give_second_role(dead, form.instance, person(request))
        except SecondRoleRefused as refusal:
            messages.error(request, str(refusal))
        else:
            note = _("%(new)s is the second role of %(dead)s's player; the secret link of %(dead)s no longer works.")
            messages.success(request, note % {"new": new.name, "dead": dead.name})
            return redirect("events:character-edit", new.pk)
    return render(request, "events/second_role.html", {"event": dead.event, "dead": dead, "form": form})


@login_required
@require_POST
def link_revoke(request: HtmxRequest, character_id: int) -> HttpResponse:
    character = character_for_staff(request.user, character_id, ORGANIZER)
    character.revoke_link()
    return _after_link_change(request, character, _("The secret link of %(name)s no longer works."))


@login_required
@require_POST
def link_regenerate(request: HtmxRequest, character_id: int) -> HttpResponse:
    character = character_for_staff(request.user, character_id, ORGANIZER)
    character.regenerate_link()
    return _after_link_change(request, character, _("%(name)s has a new secret link; the old one no longer works."))


def _after_link_change(request: HtmxRequest, character: Character, message: str) -> HttpResponse:
    note = message % {"name": character.name}
    if request.htmx:
        # The swapped section carries the note: a flash message would only show up on a later page.
        context = {"character": character, "link_note": note, **_link_context(request, character)}
        return render(request, "events/character_form.html#link", context)
    messages.success(request, note)
    return redirect("events:character-edit", character.pk)


@never_cache
@login_required
def character_qr(request: HttpRequest, character_id: int) -> HttpResponse:
    """A printable page: the QR code to hand to the player."""
    character = character_for_staff(request.user, character_id, ORGANIZER)
    url = secret_link(character)
    context = {"event": character.event, "character": character, "link_url": url, "link_qr": qr_svg(url, scale=8)}
    return render(request, "events/character_qr.html", {**context, **address_note(character.event)})


@never_cache
@login_required
def qr_sheet(request: HttpRequest, event_id: int) -> HttpResponse:
    """Every accepted character's working link on one printable sheet, or just a selection (``?ids=1,2``)."""
    event = event_for_organizer(request.user, event_id)
    printable = Character.objects.filter(event=event, status=Character.Status.ACCEPTED, link_active=True)
    skipped: list[Character] = []
    selection = request.GET.getlist("ids") + request.GET.getlist("id")
    if selection:
        ids = parse_ids(selection)
        chosen = selected_characters(event, ids) if ids else None
        if ids is None or chosen is None:
            messages.error(request, _("The selection is not a list of this event's characters; nothing to print."))
            return redirect("events:characters", event.pk)
        printable_ids = set(printable.filter(pk__in=ids).values_list("pk", flat=True))
        skipped = [c for c in chosen if c.pk not in printable_ids]
        characters = [c for c in chosen if c.pk in printable_ids]
    else:
        characters = list(printable)
    sheet = [(character, qr_svg(secret_link(character), scale=5)) for character in characters]
    context = {"event": event, "sheet": sheet, "selected": bool(selection), "skipped": skipped, **address_note(event)}
    return render(request, "events/qr_sheet.html", context)

"""The arsenal builder: an organizer sets a character's pool, current arsenal and prepared arsenals.

The views only read forms and call ``cards/arsenal.py``; every refusal there is a
``RuleError`` shown as a message, with nothing saved.
"""

from collections import Counter
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cards import arsenal, arsenal_actions
from cards.forms import ArsenalSelectionForm, FocusForm, PoolAddForm, PoolCopiesForm
from cards.hooks import in_fight
from cards.models import Card, PoolEntry, PreparedArsenal
from cards.rule_links import refusal_html
from events.access import ORGANIZER, character_for_staff
from events.models import Character
from rules.errors import RuleError


def _character(request: HttpRequest, character_id: int) -> Character:
    return character_for_staff(request.user, character_id, ORGANIZER)


def _restorable(character: Character) -> list[tuple[Card, int]]:
    ids = character.restorable_arsenal
    if not isinstance(ids, list) or not ids or not all(isinstance(i, int) for i in ids):
        return []
    counts = Counter(ids)
    cards = Card.objects.filter(pk__in=counts).order_by("kind", "name_ru")
    return [(card, counts[card.pk]) for card in cards]


def _builder(request: HttpRequest, character: Character, **forms: Any) -> HttpResponse:
    context = arsenal.arsenal_context(character)
    selected = {card.pk: copies for card, copies in context["hand"]}
    catalogue = character.event.catalogue
    fighting = in_fight(character)
    context.update(
        event=character.event,
        can_edit=True,
        selection_form=forms.get("selection_form") or ArsenalSelectionForm(pool=context["pool"], selected=selected),
        pool_form=forms.get("pool_form") or PoolAddForm(catalogue=catalogue),
        focus_form=FocusForm(initial={"card": character.focus_card_id}, hand=context["hand"]),
        in_fight=fighting,
        frozen=refusal_html(arsenal.frozen_by_fight(character), staff=True) if fighting else "",
        restorable=_restorable(character),
        has_catalogue=catalogue is not None,
    )
    return render(request, "cards/arsenal_builder.html", context)


def _back(character: Character) -> HttpResponse:
    return redirect("cards:arsenal-builder", character.pk)


@login_required
def arsenal_builder(request: HttpRequest, character_id: int) -> HttpResponse:
    return _builder(request, _character(request, character_id))


@login_required
@require_POST
def arsenal_select(request: HttpRequest, character_id: int) -> HttpResponse:
    """Make the chosen copies the current arsenal, or save them as a named prepared arsenal."""
    character = _character(request, character_id)
    form = ArsenalSelectionForm(request.POST, pool=arsenal.pool_entries(character), selected={})
    if not form.is_valid():
        return _builder(request, character, selection_form=form)
    card_ids = form.card_ids()
    if request.POST.get("action") not in ("build", "save"):
        # The two buttons carry their action; a request without one must not replace the arsenal.
        messages.error(
            request, _("Nothing was changed: choose to make the selection the current arsenal or to save it.")
        )
        return _builder(request, character, selection_form=form)
    if request.POST.get("action") == "build":
        if arsenal_actions.build(request, character, card_ids, staff=True):
            return _back(character)
        # Keep the organizer's selection on screen so it can be corrected.
        return _builder(request, character, selection_form=form)
    try:
        prepared, created = arsenal.save_prepared(character, form.cleaned_data["name"], card_ids)
    except RuleError as err:
        messages.error(request, refusal_html(err, staff=True))
        return _builder(request, character, selection_form=form)
    text = _("Prepared arsenal “%(name)s” saved.") if created else _("Prepared arsenal “%(name)s” replaced.")
    messages.success(request, text % {"name": prepared.name})
    return _back(character)


@login_required
@require_POST
def pool_add(request: HttpRequest, character_id: int) -> HttpResponse:
    character = _character(request, character_id)
    form = PoolAddForm(request.POST, catalogue=character.event.catalogue)
    if not form.is_valid():
        return _builder(request, character, pool_form=form)
    card, copies = form.cleaned_data["card"], form.cleaned_data["copies"]
    try:
        arsenal.add_to_pool(character, card, copies)
    except RuleError as err:
        messages.error(request, refusal_html(err, staff=True))
    else:
        text = _("“%(name)s” ×%(copies)s added to the pool.")
        messages.success(request, text % {"name": card.name, "copies": copies})
    return _back(character)


@login_required
@require_POST
def pool_copies(request: HttpRequest, character_id: int, entry_id: int) -> HttpResponse:
    """Change the copies of a pool card; 0 (or the remove button) takes it out of the pool."""
    character = _character(request, character_id)
    entry = get_object_or_404(PoolEntry.objects.select_related("card"), pk=entry_id, character=character)
    data = {"copies": 0} if "remove" in request.POST else request.POST
    form = PoolCopiesForm(data)
    if not form.is_valid():
        messages.error(request, _("Copies must be a whole number from 0 to 99."))
        return _back(character)
    try:
        arsenal.set_pool_copies(character, entry, form.cleaned_data["copies"])
    except RuleError as err:
        messages.error(request, refusal_html(err, staff=True))
    else:
        messages.success(request, _("The pool is updated."))
    return _back(character)


@login_required
@require_POST
def prepared_take(request: HttpRequest, character_id: int, prepared_id: int) -> HttpResponse:
    character = _character(request, character_id)
    arsenal_actions.take_prepared(request, character, prepared_id, staff=True)
    return _back(character)


@login_required
@require_POST
def prepared_delete(request: HttpRequest, character_id: int, prepared_id: int) -> HttpResponse:
    character = _character(request, character_id)
    prepared = get_object_or_404(PreparedArsenal, pk=prepared_id, character=character)
    arsenal.delete_prepared(prepared)
    messages.success(request, _("Prepared arsenal “%(name)s” deleted.") % {"name": prepared.name})
    return _back(character)


@login_required
@require_POST
def arsenal_restore(request: HttpRequest, character_id: int) -> HttpResponse:
    character = _character(request, character_id)
    arsenal_actions.restore(request, character, staff=True)
    return _back(character)


@login_required
@require_POST
def arsenal_focus(request: HttpRequest, character_id: int) -> HttpResponse:
    character = _character(request, character_id)
    form = FocusForm(request.POST, hand=[])
    if not form.is_valid():
        messages.error(request, _("Choose a card from the list."))
        return _back(character)
    try:
        arsenal.set_focus(character, form.cleaned_data["card"])
    except RuleError as err:
        messages.error(request, refusal_html(err, staff=True))
    else:
        messages.success(request, _("The focus is saved."))
    return _back(character)

"""Players change their own arsenal between fights, from the character page (S2, D3).

Two ways in, as for the character page itself: the account that owns the
character, or the character's secret link (the token is the key; a revoked one
is a 404). Every action is a POST that calls a ``cards/arsenal.py`` service, so
the checks (limit, pool, "not during a fight") are the same as for organizers;
a refusal is a message with nothing saved. Each action returns to the page.
"""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from cards import arsenal, arsenal_actions
from cards.forms import ArsenalSelectionForm
from cards.hooks import in_fight
from cards.words import explain
from events.access import character_for_player, character_for_token
from events.models import Character
from events.views_player import arsenal_draft_key


def character_page_part(character: Character) -> dict[str, object]:
    """The arsenal part of an accepted character's own page (events.views_player, via events/hooks.py)."""
    context: dict[str, object] = dict(arsenal.arsenal_context(character))
    # S2/AG2: no arsenal actions are offered while the character's fight goes on, and the
    # page says why in the words of the refusal itself.
    fighting = in_fight(character)
    context["in_fight"] = fighting
    # Players see no rule codes (issue 10): the words alone.
    context["frozen"] = explain(arsenal.frozen_by_fight(character)) if fighting else ""
    return context


def _own(request: HttpRequest, character_id: int) -> Character:
    character = character_for_player(request.user, character_id)
    # An application still waiting (or rejected) has no arsenal to change.
    if character.status != Character.Status.ACCEPTED:
        raise Http404
    return character


def _back(character: Character, token: str | None) -> HttpResponse:
    if token is None:
        return redirect("events:my-character", character.pk)
    return redirect("events:character-link", token)


def _restore(request: HttpRequest, character: Character, token: str | None) -> HttpResponse:
    arsenal_actions.restore(request, character, staff=False)
    return _back(character, token)


def _take(request: HttpRequest, character: Character, prepared_id: int, token: str | None) -> HttpResponse:
    arsenal_actions.take_prepared(request, character, prepared_id, staff=False)
    return _back(character, token)


def _build(request: HttpRequest, character: Character, token: str | None) -> HttpResponse:
    """S2, D3: a new arsenal from the pool; the engine checks the limit and the copies owned."""
    pool = arsenal.pool_entries(character)
    form = ArsenalSelectionForm(request.POST, pool=pool, selected={})
    if form.is_valid():
        built = arsenal_actions.build(request, character, form.card_ids(), staff=False)
    else:
        built = False
        problems = " ".join(str(e) for e in form.non_field_errors())
        messages.error(request, problems or _("Copies must be a whole number from 0 to 99."))
    if not built:
        # The page comes back with what the player typed, not the old arsenal (issue 10).
        owned = {f"card_{entry.card_id}" for entry in pool}
        typed = {key[5:]: str(value)[:3] for key, value in request.POST.items() if key in owned}
        request.session[arsenal_draft_key(character.pk)] = typed
    return _back(character, token)


# --- the account that owns the character ------------------------------------------------------------


@login_required
@require_POST
def my_arsenal_restore(request: HttpRequest, character_id: int) -> HttpResponse:
    return _restore(request, _own(request, character_id), None)


@login_required
@require_POST
def my_prepared_take(request: HttpRequest, character_id: int, prepared_id: int) -> HttpResponse:
    return _take(request, _own(request, character_id), prepared_id, None)


@login_required
@require_POST
def my_arsenal_build(request: HttpRequest, character_id: int) -> HttpResponse:
    return _build(request, _own(request, character_id), None)


# --- the secret link ---------------------------------------------------------------------------------


@require_POST
def player_arsenal_restore(request: HttpRequest, token: str) -> HttpResponse:
    return _restore(request, character_for_token(token), token)


@require_POST
def player_prepared_take(request: HttpRequest, token: str, prepared_id: int) -> HttpResponse:
    return _take(request, character_for_token(token), prepared_id, token)


@require_POST
def player_arsenal_build(request: HttpRequest, token: str) -> HttpResponse:
    return _build(request, character_for_token(token), token)

"""Bulk actions on a selection of the organizers' character list: accept, check in, print.

One POST carries the action and the selected ids. The whole selection is
checked before anything is written, and the writes run in one transaction: a
selection with one bad id (another event's, a deleted one, garbage) changes
nothing and says why, so an organizer never has to guess which half went through.
"""

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, QueryDict
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from events.access import event_for_organizer
from events.forms import CharacterFilterForm
from events.models import Character, Event

ACTIONS = ("accept", "check_in", "print")
# A page shows 30 rows; "select all" never sends more than a page, so a longer list is not a real selection.
MAX_SELECTION = 500


def parse_ids(values: list[str]) -> list[int] | None:
    """The ids as numbers, in order and without repeats; None when any value is not a plain id.

    Accepts repeated fields (id=1&id=2) and comma lists (ids=1,2), the two forms a link or a form sends.
    """
    ids: list[int] = []
    for value in values:
        for part in value.split(","):
            part = part.strip()
            if not part.isascii() or not part.isdigit() or len(part) > 18:
                return None
            number = int(part)
            if number not in ids:
                ids.append(number)
    if len(ids) > MAX_SELECTION:
        return None
    return ids


def selected_characters(event: Event, ids: list[int], *, lock: bool = False) -> list[Character] | None:
    """This event's characters with these ids, or None if any id is not one of them."""
    queryset = Character.objects.filter(event=event, pk__in=ids)
    if lock:
        # A check-in at the gate or a review at the same moment waits for this batch.
        queryset = queryset.select_for_update()
    found = {c.pk: c for c in queryset}
    if len(found) != len(ids):
        return None
    return [found[pk] for pk in ids]


def _back_to_list(event: Event, back: str) -> HttpResponseRedirect:
    """The list with the filters (and page) it was showing: only known fields, so no open redirect."""
    url = reverse("events:characters", args=[event.pk])
    given = QueryDict(back[:2000])
    kept = [(name, given[name]) for name in [*CharacterFilterForm.base_fields, "page"] if given.get(name)]
    return HttpResponseRedirect(f"{url}?{urlencode(kept)}" if kept else url)


@login_required
@require_POST
def characters_bulk(request: HttpRequest, event_id: int) -> HttpResponse:
    event = event_for_organizer(request.user, event_id)
    back = _back_to_list(event, request.POST.get("back", ""))
    action = request.POST.get("action", "")
    if action not in ACTIONS:
        messages.error(request, _("Nothing was changed: choose an action for the selected characters."))
        return back
    ids = parse_ids(request.POST.getlist("id"))
    if ids is None:
        messages.error(request, _("Nothing was changed: the selection is not a list of characters."))
        return back
    if not ids:
        messages.error(request, _("Nothing was changed: select at least one character."))
        return back
    with transaction.atomic():
        characters = selected_characters(event, ids, lock=action != "print")
        if characters is None:
            messages.error(
                request,
                _(
                    "Nothing was changed: some selected characters are not in this event "
                    "(deleted or another event's). Reload the list and select again."
                ),
            )
            return back
        if action == "print":
            return HttpResponseRedirect(
                reverse("events:qr-sheet", args=[event.pk]) + "?" + urlencode({"ids": ",".join(map(str, ids))})
            )
        if action == "accept":
            _accept(request, characters)
        else:
            _check_in(request, characters)
    return back


def _accept(request: HttpRequest, characters: list[Character]) -> None:
    """Accept the waiting and the rejected applications; the already accepted stay as they are."""
    to_accept = [c.pk for c in characters if c.status != Character.Status.ACCEPTED]
    Character.objects.filter(pk__in=to_accept).update(status=Character.Status.ACCEPTED)
    count = len(to_accept)
    messages.success(
        request,
        ngettext("%(count)d character is accepted.", "%(count)d characters are accepted.", count) % {"count": count},
    )
    _say_unchanged(request, len(characters) - count)


def _check_in(request: HttpRequest, characters: list[Character]) -> None:
    """Mark arrived; only accepted characters may arrive (as at the gate), so a batch with others is refused."""
    not_accepted = [c.name for c in characters if c.status != Character.Status.ACCEPTED]
    if not_accepted:
        messages.error(
            request,
            _("Nothing was changed: only accepted characters can arrive; not accepted: %(names)s.")
            % {"names": ", ".join(not_accepted)},
        )
        return
    to_check_in = [c.pk for c in characters if not c.arrived]
    # Those already here keep the time they arrived at.
    Character.objects.filter(pk__in=to_check_in).update(arrived=True, arrived_at=timezone.now())
    count = len(to_check_in)
    messages.success(
        request,
        ngettext("%(count)d character is checked in.", "%(count)d characters are checked in.", count)
        % {"count": count},
    )
    _say_unchanged(request, len(characters) - count)


def _say_unchanged(request: HttpRequest, count: int) -> None:
    if count:
        # Success level: the batch went through; this only explains a count lower than the selection.
        messages.success(
            request,
            ngettext(
                "%(count)d selected character was already so and is unchanged.",
                "%(count)d selected characters were already so and are unchanged.",
                count,
            )
            % {"count": count},
        )

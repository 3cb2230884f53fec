"""The admin site: for superusers only.

The admin lists every event's characters, pools and arsenals, unscoped. D4 lets
only a card's holder and the event's referees and organizers see an unplayed
card, and per-event roles live on the site's own pages (events/access.py), so
a staff account that is not a superuser gets no admin at all, whatever
permissions it was given.
"""

from collections.abc import Callable
from functools import update_wrapper
from typing import Any, cast

from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.http import HttpRequest, HttpResponseBase, HttpResponseRedirect, QueryDict
from django.utils.translation import gettext as _

from helpers.ids import is_id


def _are_ids(values: list[str]) -> bool:
    return all(value.isdigit() and is_id(int(value)) for value in values)


def _without_nul(query: QueryDict) -> QueryDict:
    cleaned = query.copy()
    for key, values in query.lists():
        cleaned.setlist(key, [value.replace("\x00", "") for value in values])
    return cleaned


class SumrakAdminSite(admin.AdminSite):
    def has_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)

    def admin_view[View: Callable[..., HttpResponseBase]](self, view: View, cacheable: bool = False) -> View:
        def guarded(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if any("\x00" in value for _key, values in request.GET.lists() for value in values):
                # A NUL byte means nothing in a search, and PostgreSQL refuses it (the autocomplete was a 500).
                # Immutable again, as Django gives it.
                request.GET = QueryDict(_without_nul(request.GET).urlencode())
            # Every id here is a number: Django's actions would turn any other selection into a 500.
            if request.method == "POST" and not _are_ids(request.POST.getlist(helpers.ACTION_CHECKBOX_NAME)):
                messages.error(request, _("Nothing was changed: the selection names rows that do not exist."))
                return HttpResponseRedirect(request.get_full_path())
            return view(request, *args, **kwargs)

        # The permission check stays first: anyone but a superuser still gets the login page.
        # ``guarded`` takes and returns what ``view`` does (update_wrapper copies its name and docs).
        return super().admin_view(cast(View, update_wrapper(guarded, view)), cacheable)

"""The admin site: for superusers only.

The admin lists every event's characters, pools and arsenals, unscoped. D4 lets
only a card's holder and the event's referees and organizers see an unplayed
card, and per-event roles live on the site's own pages (events/access.py), so
a staff account that is not a superuser gets no admin at all, whatever
permissions it was given.
"""

from django.contrib import admin
from django.http import HttpRequest


class SumrakAdminSite(admin.AdminSite):
    def has_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_active and request.user.is_superuser)

"""Who may create an event (and so become an organizer with upload rights).

Creating an event is a site permission, off for new accounts: an open sign-up
must not hand anyone an organizer's import pages. It is granted by a superuser
(the admin's user page: permission «events | event | Can add event»), by
``manage.py allow_event_creation USERNAME``, or for a whole deployment by the
``SUMRAK_EVENT_CREATORS`` setting (comma-separated user names).
"""

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, Permission, User

CREATE_EVENT = "events.add_event"


def may_create_events(user: AbstractBaseUser | AnonymousUser) -> bool:
    if not user.is_authenticated or not user.is_active:
        return False
    if user.get_username() in settings.SUMRAK_EVENT_CREATORS:
        return True
    # A superuser has every permission; the site's accounts are auth's User (settings.AUTH_USER_MODEL).
    return isinstance(user, User) and user.has_perm(CREATE_EVENT)


def allow_event_creation(user: User) -> None:
    """Give ``user`` the site permission to create events."""
    app_label, codename = CREATE_EVENT.split(".")
    user.user_permissions.add(Permission.objects.get(content_type__app_label=app_label, codename=codename))

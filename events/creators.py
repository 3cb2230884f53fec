"""Who may create an event (and so become an organizer with upload rights).

Creating an event is a site permission, off for new accounts: an open sign-up
must not hand anyone an organizer's import pages. The one exception is a fresh
installation's first account (``claim_first_creator``): while nobody may create
events, whoever signs up first may, so a new organizer can start their own game
without a console. Afterwards it is granted by a superuser
(the admin's user page: permission «events | event | Can add event»), by
``manage.py allow_event_creation USERNAME``, or for a whole deployment by the
``SUMRAK_EVENT_CREATORS`` setting (comma-separated user names).
"""

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser, Permission, User
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

CREATE_EVENT = "events.add_event"


def not_a_creator() -> str:
    """Why an account may not create events, and what to do (the 403 page shows it)."""
    return _(
        "Creating events is allowed only to accounts the site's administrator has allowed: ask them to run "
        "“manage.py allow_event_creation” with your user name. Your account can still apply to events."
    )


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


def has_an_event_creator() -> bool:
    """Has this installation an event creator (a superuser, the permission, the setting), active or not?

    A deactivated one counts: an installation whose organizer was sent away is
    no fresh one, and its next sign-up must not inherit the right.
    """
    if settings.SUMRAK_EVENT_CREATORS:
        return True
    app_label, codename = CREATE_EVENT.split(".")
    allowed = Q(is_superuser=True) | Q(
        user_permissions__content_type__app_label=app_label, user_permissions__codename=codename
    )
    allowed |= Q(groups__permissions__content_type__app_label=app_label, groups__permissions__codename=codename)
    return User.objects.filter(allowed).exists()


def claim_first_creator(user: User) -> bool:
    """A fresh installation's first account becomes its event creator (issue 23, "first hour").

    While the installation has no event creator (no superuser, nobody given the
    permission, no ``SUMRAK_EVENT_CREATORS``), whoever signs up gets the
    permission; from then on the site's event creators are given it by an
    administrator (``manage.py allow_event_creation``). Two sign-ups at the same
    moment are serialized on the permission's own row, so only one becomes it.
    """
    app_label, codename = CREATE_EVENT.split(".")
    with transaction.atomic():
        permission = Permission.objects.select_for_update().get(content_type__app_label=app_label, codename=codename)
        if has_an_event_creator():
            return False
        user.user_permissions.add(permission)
    return True

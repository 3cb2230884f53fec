"""Who may see what (DESIGN.md §6).

Every view fetches its objects through these helpers; anything out of the
caller's scope is a 404, so that a guessed id reveals nothing.
"""

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import QuerySet
from django.http import Http404, HttpRequest

from events import link_cache
from events.models import Character, Event, StaffRole
from helpers.columns import Columns, WithParent, quoted
from helpers.columns import db as columns_db

ORGANIZER = StaffRole.Role.ORGANIZER
REFEREE = StaffRole.Role.REFEREE
AnyUser = User | AnonymousUser


def person(request: HttpRequest) -> User:
    """The signed-in person of a ``@login_required`` view (an anonymous request never gets that far)."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user


def roles_in(user: AnyUser, event: Event | int) -> set[str]:
    if not user.is_authenticated:
        return set()
    event_id = event if isinstance(event, int) else event.pk
    return set(StaffRole.objects.filter(user=user, event_id=event_id).values_list("role", flat=True))


def is_organizer(user: AnyUser, event: Event | int) -> bool:
    return ORGANIZER in roles_in(user, event)


def is_referee(user: AnyUser, event: Event | int) -> bool:
    """Organizers may referee their own event too."""
    return bool(roles_in(user, event) & {ORGANIZER, REFEREE})


def staffed_events(user: AnyUser, *roles: str) -> QuerySet[Event]:
    if not user.is_authenticated:
        return Event.objects.none()
    wanted = roles or (ORGANIZER, REFEREE)
    return Event.objects.filter(staff__user=user, staff__role__in=wanted).distinct()


def event_for_applicant(user: AnyUser, event_id: int) -> Event:
    """Any signed-in person may open an event's application page: the home page lists events openly."""
    if not user.is_authenticated:
        raise Http404
    try:
        return Event.objects.get(pk=event_id)
    except Event.DoesNotExist:
        raise Http404 from None


def event_for_staff(user: AnyUser, event_id: int, *roles: str) -> Event:
    """The event, if the user holds one of ``roles`` in it (default: organizer or referee)."""
    try:
        return staffed_events(user, *roles).get(pk=event_id)
    except Event.DoesNotExist:
        raise Http404 from None


def event_for_organizer(user: AnyUser, event_id: int) -> Event:
    return event_for_staff(user, event_id, ORGANIZER)


def event_for_referee(user: AnyUser, event_id: int) -> Event:
    return event_for_staff(user, event_id, ORGANIZER, REFEREE)


def character_for_staff(user: AnyUser, character_id: int, *roles: str) -> Character:
    events = staffed_events(user, *roles)
    try:
        return Character.objects.select_related("event").get(pk=character_id, event__in=events)
    except Character.DoesNotExist:
        raise Http404 from None


def character_for_player(user: AnyUser, character_id: int) -> Character:
    """The player's own character (any status: they follow their application)."""
    if not user.is_authenticated:
        raise Http404
    try:
        return Character.objects.select_related("event").get(pk=character_id, player=user)
    except Character.DoesNotExist:
        raise Http404 from None


def _link_sql() -> str:
    character, event = Character._meta, Event._meta
    return (
        f"SELECT c.id, e.links_expire_after_end, e.ends_on, e.id FROM {character.db_table} c"
        f" JOIN {event.db_table} e ON e.id = c.event_id"
        " WHERE c.link_token = %s AND c.link_active AND c.status = %s"
    )


def _link_row(token: str) -> tuple[Any, ...] | None:
    if "\x00" in token:
        return None
    with connection.cursor() as cursor:
        cursor.execute(_link_sql(), [token, Character.Status.ACCEPTED.value])
        row = cursor.fetchone()
    if row is None or Event.links_expired_by(row[1], row[2]):
        return None
    return tuple(row)


def link_holder(token: str) -> int:
    """The id of the character behind a working secret link (as ``character_for_token`` decides), else 404.

    For the player's polls, every 2 s from every phone: checked by one
    hand-written statement of four columns (~110 µs of CPU against ~840 µs for
    the ORM's full ``Character`` and ``Event``, bench/cost.py), and with Redis
    answered from the cache while no write to the link's columns is under way
    or done since (``link_holder_cached``). ``character_for_token`` stays the one that
    loads the character; tests/web/test_player_link_poll.py holds the two to the same answers.
    """
    row = _link_row(token)
    if row is None:
        raise Http404
    return int(row[0])


def link_holder_from_cache(token: str, also: str) -> tuple[int, Any] | None:
    """``link_holder_cached`` from the cache alone: None when the link's answer is not cached or counts no more."""
    found, extra = link_cache.cached(token, also)
    if found is None or Event.links_expired_by(found.expire_after_end, found.ends_on):
        return None
    return found.character_id, extra


def link_holder_cached(token: str, also: str) -> tuple[int, Any]:
    """``link_holder`` and the cache's entry ``also`` (``{c}``: the character's id), without the database.

    A revoked, regenerated or expired link stops at once: see events/link_cache.py.
    A missing answer is read from the database, stamped with the generations
    read *before* a second read (so a revocation committed between the two
    cannot be cached as working), then kept for ``LINK_TTL``.
    """
    cached = link_holder_from_cache(token, also)
    if cached is not None:
        return cached
    row = _link_row(token)
    if row is None:
        raise Http404
    character_id, expire_after_end, ends_on, event_id = row
    stamp = link_cache.stamp(int(character_id), int(event_id))
    if stamp is not None:
        again = _link_row(token)
        if again is None:
            raise Http404
        if again == row:
            answer = link_cache.Answer(int(character_id), int(event_id), bool(expire_after_end), ends_on, stamp)
            link_cache.remember(token, answer)
    return int(character_id), None


_BY_LINK = WithParent(Columns(Character), Columns(Event), "event")


def _character_by_link(token: str) -> Character | None:
    """``Character.objects.select_related("event").get(link_token=token, link_active=True, status=accepted)``
    as one hand-written statement: every player's changed poll asks it (the ORM's compiling was ~15 % of one;
    tests/services/test_rows.py holds the two to the same answer)."""
    c = quoted(Character._meta.db_table)
    where = f"{c}.{quoted('link_token')} = %s AND {c}.{quoted('link_active')} = %s AND {c}.{quoted('status')} = %s"
    db = columns_db()
    with db.cursor() as cursor:
        cursor.execute(f"{_BY_LINK.select} WHERE {where}", [token, True, Character.Status.ACCEPTED.value])
        row = cursor.fetchone()
    found: Character | None = None if row is None else _BY_LINK.build(row, db)
    return found


def character_for_token(token: str) -> Character:
    """The character behind a secret link, if the link has not been revoked."""
    if "\x00" in token:
        # No token has one (they are URL-safe base64), and PostgreSQL would refuse the lookup (a 500).
        raise Http404
    character = _character_by_link(token)
    if character is None:
        raise Http404
    if character.event.links_expired:
        raise Http404  # the event's setting: printed codes open nothing after the game
    return character

"""Who may open a fight's pages (DESIGN.md §6): the event's staff, or anyone for the public ones; else 404."""

from __future__ import annotations

import datetime as dt

from django.db import connection
from django.http import Http404
from django.utils import timezone

from duels.models import Situation
from duels.services import rows
from duels.services.live import Meta
from events.access import ORGANIZER, REFEREE, AnyUser
from events.models import StaffRole
from helpers.ids import is_id


def situation_for_staff(user: AnyUser, situation_id: int, *, whole: bool = False) -> Situation:
    """A situation (with its event) of an event the user organizes or referees; otherwise 404 (DESIGN.md §6).

    Every tap and every page of a fight asks this first: one statement
    written once (duels/services/rows.py), the same rule as
    ``staffed_events(user, ORGANIZER, REFEREE)`` (tests/web/test_referee_poll.py).
    """
    if not user.is_authenticated or not is_id(situation_id):  # a number no row has (SQLite: OverflowError)
        raise Http404
    found = rows.situation_for_staff(user.pk, situation_id, (ORGANIZER.value, REFEREE.value), whole=whole)
    if found is None:
        raise Http404
    return found


def _staff_meta_sql() -> str:
    return (
        f"SELECT s.id, s.event_id, s.version, s.ended, s.next_deadline, s.kind FROM {Situation._meta.db_table} s "
        f"WHERE s.id = %s AND EXISTS (SELECT 1 FROM {StaffRole._meta.db_table} r "
        "WHERE r.event_id = s.event_id AND r.user_id = %s AND r.role IN (%s, %s))"
    )


def staff_meta(user: AnyUser, situation_id: int) -> tuple[Meta, str]:
    """``situation_for_staff``'s answer for a poll: the version columns and the kind, else 404.

    The referee's poll every 2 s from every tablet: the role is checked in
    the database on every request (a referee removed from the event loses
    access at once), by one hand-written statement (~0.2 ms of CPU against
    ~1.5 ms for the ORM's query with the event's row). The same rule as
    ``staffed_events(user, ORGANIZER, REFEREE)``; tests/web/test_referee_poll.py
    holds the two to the same answers.
    """
    if not user.is_authenticated or not is_id(situation_id):
        raise Http404
    with connection.cursor() as cursor:
        cursor.execute(_staff_meta_sql(), [situation_id, user.pk, ORGANIZER.value, REFEREE.value])
        row = cursor.fetchone()
    if row is None:
        raise Http404
    deadline = row[4]
    if deadline is not None and timezone.is_naive(deadline):
        # SQLite hands a raw cursor the stored UTC time without its zone (the ORM adds it; psycopg does too).
        deadline = deadline.replace(tzinfo=dt.UTC)
    return Meta(int(row[0]), int(row[1]), int(row[2]), bool(row[3]), deadline, str(row[5])), str(row[5])


def public_situation(situation_id: int, *, whole: bool = False) -> Situation:
    """Spectator pages are public: anyone with the link sees the non-secret part (D4).

    One hand-written statement (duels/services/rows.py), the event's row with it. ``whole``: every
    column but the opening, for a caller that renders (a page, a changed poll); else the version
    columns, the state loading on first use (so a 304 never reads or decodes it).
    """
    found = rows.situation_by_id(situation_id, whole=whole) if is_id(situation_id) else None
    if found is None:
        raise Http404
    return found

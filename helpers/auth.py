"""The signed-in user of every request in one hand-written statement (issue 24).

Every request of a signed-in referee - each tap, each poll that reaches Django -
asks the session's backend for its user. ``ModelBackend.get_user`` compiles
``User.objects.get(pk=...)`` each time: ~9 % of a referee's step
(docs/performance.md). ``SessionUserBackend`` is ``ModelBackend`` in
everything (sign-in, permissions, inactive users refused) but reads the user
with a prepared SELECT and builds it as the ORM does (helpers/columns.py).

A session names the backend that signed it in, and Django refuses a session
whose backend is no longer listed: config/settings.py lists this backend
before ``ModelBackend``, so new sign-ins name it and a session from before
(naming ``ModelBackend``) keeps working - nobody is signed out by the switch.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend

from helpers.columns import Columns, db, quoted
from helpers.ids import is_id

_columns: Columns | None = None


def _user_columns() -> Columns:
    global _columns
    if _columns is None:  # the user model is known once the apps are loaded
        _columns = Columns(get_user_model())
    return _columns


class SessionUserBackend(ModelBackend):
    def get_user(self, user_id: Any) -> Any:
        """The active user ``user_id`` (the session's), or None; what ``ModelBackend.get_user`` returns."""
        try:
            pk = int(user_id)
        except (TypeError, ValueError):
            return None
        if not is_id(pk):
            return None
        columns = _user_columns()
        table = quoted(columns.table)
        key = quoted(columns.model._meta.pk.column)
        connection = db()
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {columns.select} FROM {table} WHERE {table}.{key} = %s", [pk])
            row = cursor.fetchone()
        if row is None:
            return None
        user = columns.build(row, connection)
        return user if self.user_can_authenticate(user) else None

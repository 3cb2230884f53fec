"""The session's user read by one prepared statement (helpers/auth.py, issue 24).

``SessionUserBackend`` is ``ModelBackend`` but for how it reads the user: new
sign-ins name it, a session from before the switch (naming ``ModelBackend``)
keeps working, and it refuses what ``ModelBackend`` refuses.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from helpers.auth import SessionUserBackend

pytestmark = pytest.mark.django_db

NEW = "helpers.auth.SessionUserBackend"
OLD = "django.contrib.auth.backends.ModelBackend"


def test_a_sign_in_names_the_new_backend_and_its_requests_read_the_user_in_one_statement(client, referee, event):
    response = client.post(reverse("login"), {"username": "referee", "password": "pass-referee"})
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == NEW
    home = reverse("duels:referee-home", args=[event.pk])
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(home).status_code == 200
    users = [q["sql"] for q in ctx.captured_queries if 'FROM "auth_user"' in q["sql"]]
    assert len(users) == 1 and "LIMIT" not in users[0]  # the hand-written statement, not the ORM's get


def test_a_session_signed_in_before_the_switch_keeps_working(client, referee, event):
    client.force_login(referee, backend=OLD)
    assert client.session[BACKEND_SESSION_KEY] == OLD
    assert client.get(reverse("duels:referee-home", args=[event.pk])).status_code == 200


def test_the_user_read_is_the_one_the_orm_reads(referee):
    referee.first_name, referee.email, referee.is_staff = "Инна", "inna@example.org", True
    referee.save()
    found = SessionUserBackend().get_user(referee.pk)
    orm = ModelBackend().get_user(referee.pk)
    assert found is not None and orm is not None
    fields = [f.attname for f in User._meta.concrete_fields]
    assert [getattr(found, f) for f in fields] == [getattr(orm, f) for f in fields]
    assert found._state.adding is False and found._state.db == "default"
    assert found.get_session_auth_hash() == orm.get_session_auth_hash()


def test_it_refuses_what_model_backend_refuses(client, referee, event):
    backend = SessionUserBackend()
    assert backend.get_user(str(referee.pk)).pk == referee.pk  # a session keeps ids as text
    for bad in (None, "", "abc", 0, -1, 2**63, referee.pk + 1000):
        assert backend.get_user(bad) is None
    client.force_login(referee, backend=NEW)
    User.objects.filter(pk=referee.pk).update(is_active=False)
    assert backend.get_user(referee.pk) is None
    response = client.get(reverse("duels:referee-home", args=[event.pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))

"""start.sh's first hour (issue 23): ``--organizer NAME``, and no banner naming a password that does not work.

- ``--organizer NAME`` makes the site's event creator through ``manage.py
  create_organizer``, which prints a new account's password once;
- the local mode names the public demo password only while it opens the demo
  logins: after a ``--lan --demo`` start gave them random ones, it does not.
"""

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import Client

import launcher
from events.creators import may_create_events

ROOT = Path(__file__).resolve().parent.parent


def test_organizer_is_an_argument_and_first_hour_makes_the_account(monkeypatch, tmp_path):
    calls: list[list[str]] = []
    monkeypatch.setattr(launcher, "_manage", lambda env, *args: calls.append(list(args)))
    options = launcher.parse(["--lan", "--organizer", "svetlana"])
    assert options.organizer == "svetlana"
    assert launcher.first_hour(options, {}, False) is False
    assert calls == [["create_organizer", "svetlana"]]
    calls.clear()
    assert launcher.parse([]).organizer == ""
    launcher.first_hour(launcher.parse([]), {}, False)
    assert calls == []


@pytest.mark.django_db
def test_create_organizer_prints_a_working_password_once_and_allows_event_creation():
    out = io.StringIO()
    call_command("create_organizer", "svetlana", stdout=out)
    printed = re.search(r"svetlana\s+(\S+)\s*$", out.getvalue())
    assert printed is not None, out.getvalue()
    password = printed.group(1)
    client = Client()
    client.post("/accounts/login/", {"username": "svetlana", "password": password}, REMOTE_ADDR="10.0.9.1")
    assert "_auth_user_id" in client.session
    assert may_create_events(User.objects.get(username="svetlana"))
    again = io.StringIO()
    call_command("create_organizer", "svetlana", stdout=again)
    assert "password is unchanged" in again.getvalue() and password not in again.getvalue()
    assert User.objects.get(username="svetlana").check_password(password)
    with pytest.raises(CommandError, match="user name"):
        call_command("create_organizer", "  ", stdout=io.StringIO())
    with pytest.raises(CommandError, match="cannot be a user name"):
        call_command("create_organizer", "bad name!", stdout=io.StringIO())


def test_the_local_banner_names_the_demo_password_only_while_it_works(tmp_path):
    """A local start, a --lan one (it re-secures the demo logins), a local one again: no public password named."""
    env = {
        k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"} and not k.startswith("SUMRAK_")
    }
    env |= {"DEBUG": "true", "SUMRAK_VAR_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}"}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"

    def manage(*args: str) -> None:
        subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True)

    manage("migrate", "--noinput", "-v0")
    manage("load_demo", "--yes")  # a first local start: the demo on the public password
    options = launcher.parse([])
    assert launcher.first_hour(options, env, True) is True
    manage("load_demo", "--random-passwords", "--secure-only")  # what start.sh --lan then runs
    assert launcher.first_hour(options, env, True) is False  # the next local start names no password
    assert "sumrak-demo" not in launcher.banner(options, [], False)

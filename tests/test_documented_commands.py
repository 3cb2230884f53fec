"""Every ``manage.py`` command the README and the docs name runs on a fresh settings environment (issue 23).

Fresh: no DEBUG and no SECRET_KEY in the environment, as after a clone and one
``./scripts/start.sh --lan`` (which keeps a key in var/secret_key). Each command
runs in its own process, in the order an administrator would run them; the
list of commands is read from the docs themselves, so a command named there
without a case here fails. Without var/secret_key each one says exactly what
to run instead.
"""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from tests.web.fake_joinrpg import LOGIN, PROJECT, FakeJoinRpg
from tests.web.fake_joinrpg import PASSWORD as JOINRPG_PASSWORD

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
NAMED = sorted({m.group(1) for doc in DOCS for m in re.finditer(r"manage\.py ([a-z_]+)", doc.read_text("utf-8"))})
PASSWORD = "a-New-pass-2027"

# command -> (arguments, standard input), in the order they run.
CASES: dict[str, tuple[list[str], str]] = {
    "migrate": (["migrate", "--noinput", "-v0"], ""),
    "load_demo": (["load_demo", "--reset", "--yes"], ""),
    "createsuperuser": (["createsuperuser", "--noinput", "--username", "root", "--email", "root@example.org"], ""),
    "changepassword": (["changepassword", "organizer"], f"{PASSWORD}\n{PASSWORD}\n"),
    "allow_event_creation": (["allow_event_creation", "referee"], ""),
    "create_organizer": (["create_organizer", "svetlana"], ""),
    "axes_reset_username": (["axes_reset_username", "organizer"], ""),
    "collectstatic": (["collectstatic", "--noinput", "-v0"], ""),
    # Into the demo event (1), from the fake JoinRPG the test serves (tests/web/fake_joinrpg.py).
    "import_joinrpg": (["import_joinrpg", str(PROJECT), "--event", "1", "--login", LOGIN, "--url", "{joinrpg}"], ""),
    "export_event": (["export_event", "1", "-o", "{var}/event-1.json", "--with-passwords"], ""),
    "import_event": (["import_event", "{var}/event-1.json", "--with-passwords"], ""),
    "check": (["check", "--deploy"], ""),
}
# DJANGO_ALLOW_ASYNC_UNSAFE: the browser tests set it in this process (tests/browser/conftest.py)
# when they run in the same pytest session; an organizer's shell has it not, and check --deploy
# refuses it.
OUR_VARIABLES = {
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_SETTINGS_MODULE",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}


def fresh_env(var: Path, database: Path, **extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES and not k.startswith("SUMRAK_")}
    base |= {"SUMRAK_VAR_DIR": str(var), "DATABASE_URL": f"sqlite:///{database}"}
    base |= {"DJANGO_SETTINGS_MODULE": "config.settings", "DJANGO_SUPERUSER_PASSWORD": PASSWORD}
    return base | extra


def manage(args: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    # A new session has no terminal: changepassword reads the new password from standard input.
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        start_new_session=True,
    )


def test_every_command_the_docs_name_has_a_case_here():
    assert "load_demo" in NAMED and "createsuperuser" in NAMED and "allow_event_creation" in NAMED
    assert set(NAMED) <= set(CASES), f"named in the docs, no case here: {sorted(set(NAMED) - set(CASES))}"


def test_each_named_command_runs_beside_the_key_start_sh_keeps(tmp_path):
    var = tmp_path / "var"
    var.mkdir()
    (var / "secret_key").write_text(secrets.token_urlsafe(50) + "\n")  # as launcher.secret_key keeps it
    game, moved = tmp_path / "game.sqlite3", tmp_path / "moved.sqlite3"
    env = fresh_env(var, game, JOINRPG_PASSWORD=JOINRPG_PASSWORD)
    with FakeJoinRpg() as joinrpg:
        for name, (args, stdin) in CASES.items():
            args = [a.replace("{var}", str(var)).replace("{joinrpg}", joinrpg.url) for a in args]
            if name == "import_event":  # into another installation: a fresh database, migrated first
                env = fresh_env(var, moved, JOINRPG_PASSWORD=JOINRPG_PASSWORD)
                assert manage(["migrate", "--noinput", "-v0"], env).returncode == 0
            if name == "check":
                # The one command that checks the deployment's own settings: it asks for the host names...
                unset = manage(args, env)
                assert unset.returncode != 0 and "ALLOWED_HOSTS=sumrak.example.org" in unset.stderr, unset.stderr
                env = env | {"ALLOWED_HOSTS": "sumrak.example.org"}  # ... and passes once they are given
            done = manage(args, env, stdin)
            assert done.returncode == 0, f"manage.py {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
            if name == "load_demo":
                # Without DEBUG the demo logins get random passwords, printed once: never the public one.
                assert "sumrak-demo" not in done.stdout and "shown once" in done.stdout
            if name == "create_organizer":
                assert "svetlana" in done.stdout and "shown once" in done.stdout
            if name == "import_event":
                assert "Imported event 1" in done.stdout
            if name == "import_joinrpg":
                assert "3 characters read, 1 new, 2 updated" in done.stdout, done.stdout  # two by name


@pytest.mark.parametrize("name", sorted(CASES))
def test_without_the_kept_key_each_command_says_exactly_what_to_run(tmp_path, name):
    var = tmp_path / "var"
    args = [a.replace("{var}", str(var)) for a in CASES[name][0]]
    done = manage(args, fresh_env(var, tmp_path / "game.sqlite3", ALLOWED_HOSTS="localhost"))
    assert done.returncode != 0
    key = var / "secret_key"
    assert "SECRET_KEY is missing" in done.stderr
    assert f"python3 -c 'import secrets; print(secrets.token_urlsafe(50))' > {key}" in done.stderr
    assert "./scripts/start.sh --lan" in done.stderr

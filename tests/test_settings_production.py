"""Production mode and the typed environment: config/settings.py and config/env.py.

Settings are read once per process, so each case starts a fresh ``manage.py``.
"""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from config.env import EnvError, env_bool, env_int, env_list, env_str

ROOT = Path(__file__).resolve().parent.parent
# DJANGO_ALLOW_ASYNC_UNSAFE: set by the browser tests in this process, refused by check --deploy.
OUR_VARIABLES = {
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "SUMRAK_LAN",
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
}


def run(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES and not k.startswith("SUMRAK_")}
    base |= {"SUMRAK_VAR_DIR": str(tmp_path / "var"), "DJANGO_SETTINGS_MODULE": "config.settings"}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=base | env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def production_env(**extra: str) -> dict[str, str]:
    return {"DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50), "ALLOWED_HOSTS": "sumrak.example.org"} | extra


def test_check_deploy_is_clean_in_production_mode(tmp_path):
    result = run(tmp_path, "check", "--deploy", **production_env())
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNING" not in result.stdout + result.stderr


def test_lan_mode_silences_only_the_https_warnings(tmp_path):
    """LAN mode is plain HTTP on the game site's network; everything else must still pass."""
    result = run(tmp_path, "check", "--deploy", **production_env(SUMRAK_LAN="true"))
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (4 silenced)." in result.stdout
    shown = run(
        tmp_path,
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.SILENCED_SYSTEM_CHECKS)",
        DEBUG="true",
    )
    assert shown.stdout.strip() == "[]"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "maybe"}, "DEBUG='maybe' is not a boolean (use true/false)."),
        ({"DEBUG": "false", "ALLOWED_HOSTS": "x.org"}, "SECRET_KEY is missing: with DEBUG off it must be"),
        ({"DEBUG": "false", "SECRET_KEY": "k" * 60}, "ALLOWED_HOSTS is required when DEBUG is false"),
        ({"DEBUG": "true", "SUMRAK_SWEEP_SECONDS": "0"}, "SUMRAK_SWEEP_SECONDS=0 is below the minimum 1."),
        ({"DEBUG": "true", "SUMRAK_SWEEP_SECONDS": "five"}, "SUMRAK_SWEEP_SECONDS='five' is not an integer."),
        ({"DEBUG": "true", "SUMRAK_LAN": "yes please"}, "SUMRAK_LAN='yes please' is not a boolean"),
        # Nothing set at all: DEBUG is off, so the missing key stops the start (issue 13: safe defaults).
        ({}, "SECRET_KEY is missing: with DEBUG off it must be at least 50 random characters"),
        ({"SECRET_KEY": "s3cr3t-but-short", "ALLOWED_HOSTS": "x.org"}, "SECRET_KEY is too short"),
        ({"SECRET_KEY": "k" * 49, "ALLOWED_HOSTS": "x.org"}, "SECRET_KEY is too short"),
    ],
)
def test_bad_environment_fails_loudly_at_start(tmp_path, env, message):
    result = run(tmp_path, "check", **env)
    assert result.returncode != 0
    assert message in result.stderr
    assert "EnvError" in result.stderr


def test_offline_commands_run_without_a_secret_key_and_the_rest_still_refuse(tmp_path):
    """makemigrations and the message commands serve and sign nothing: a fresh clone runs them as it is."""
    offline = run(tmp_path, "makemigrations", "--check", "--dry-run")
    assert offline.returncode == 0, offline.stderr
    assert "No changes detected" in offline.stdout
    for command in (["migrate", "--plan"], ["check"]):
        refused = run(tmp_path, *command)
        assert refused.returncode != 0 and "SECRET_KEY is missing" in refused.stderr, command


def test_lan_mode_with_tls_sends_hsts_and_secure_cookies(tmp_path):
    """start.sh --lan --tls: HTTPS by gunicorn itself; HSTS only then, and short (a LAN name may lose its cert)."""
    env = production_env(SUMRAK_LAN="true", SUMRAK_TLS="true")
    result = run(tmp_path, "check", "--deploy", **env)
    assert result.returncode == 0, result.stderr
    assert "System check identified no issues (1 silenced)." in result.stdout  # W008: no HTTP port to redirect
    code = (
        "from django.conf import settings as s;"
        "print(s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT)"
    )
    shown = run(tmp_path, "shell", "--no-imports", "-c", code, **env)
    assert shown.stdout.split() == ["86400", "True", "True", "False"]
    plain = run(tmp_path, "shell", "--no-imports", "-c", code, **production_env(SUMRAK_LAN="true"))
    assert plain.stdout.split() == ["0", "False", "False", "False"]  # no HSTS over plain HTTP


def test_without_DEBUG_set_the_app_runs_with_DEBUG_off(tmp_path):
    """Only start.sh's local mode (and pytest) turn DEBUG on; a long key and hosts are all it needs."""
    code = "from django.conf import settings as s; print(s.DEBUG, len(s.SECRET_KEY))"
    result = run(tmp_path, "shell", "--no-imports", "-c", code, SECRET_KEY="k" * 50, ALLOWED_HOSTS="x.org")
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "50"]


def test_embedded_default_is_sqlite_immediate_and_filesystem_broker(tmp_path):
    code = (
        "from django.conf import settings as s; db = s.DATABASES['default'];"
        "print(db['ENGINE'], db['OPTIONS']['transaction_mode'], s.CELERY_BROKER_URL,"
        " s.CELERY_BROKER_TRANSPORT_OPTIONS['data_folder_in'], s.DEBUG, s.CELERY_BROKER_TRANSPORT)"
    )
    result = run(tmp_path, "shell", "--no-imports", "-c", code, DEBUG="true")
    assert result.returncode == 0, result.stderr
    engine, mode, broker, folder, debug, transport = result.stdout.split()
    assert (engine, mode, debug) == ("django.db.backends.sqlite3", "IMMEDIATE", "True")
    assert transport == "config.broker:Transport"  # messages written atomically (tests/test_broker.py)
    assert broker.startswith("filesystem://")
    assert Path(folder).is_dir() and Path(folder).is_relative_to(tmp_path)


def test_database_url_and_redis_url_switch_to_postgresql_and_redis(tmp_path):
    code = (
        "from django.conf import settings as s; db = s.DATABASES['default'];"
        "print(db['ENGINE'], db['NAME'], s.CELERY_BROKER_URL, s.CACHES['default']['BACKEND'])"
    )
    result = run(
        tmp_path,
        "shell",
        "--no-imports",
        "-c",
        code,
        DEBUG="true",
        DATABASE_URL="postgres://postgres@127.0.0.1:5432/sumrak",
        REDIS_URL="redis://127.0.0.1:6379/0",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "sumrak",
        "redis://127.0.0.1:6379/0",
        "config.redis_cache.RedisCache",  # Django's, one redis-py client per pool
    ]


@pytest.mark.parametrize(("setting", "checked"), [(None, "True"), ("false", "False"), ("true", "True")])
def test_postgresql_connections_are_health_checked_unless_turned_off(tmp_path, setting, checked):
    """A connection PostgreSQL dropped (a restart at the game) must not cost a referee's tap a 500."""
    code = "from django.conf import settings; print(settings.DATABASES['default']['CONN_HEALTH_CHECKS'])"
    env = {"DEBUG": "true", "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/sumrak"}
    if setting is not None:
        env["SUMRAK_DB_HEALTH_CHECKS"] = setting
    result = run(tmp_path, "shell", "--no-imports", "-c", code, **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [checked]


@pytest.mark.parametrize(("setting", "options"), [(None, "True 5"), ("false", "None None"), ("true", "True 5")])
def test_postgresql_statements_are_prepared_unless_turned_off(tmp_path, setting, options):
    """Bound and prepared by the server (issue 24); off behind a pooler that cannot keep prepared statements."""
    code = (
        "from django.conf import settings; o = settings.DATABASES['default']['OPTIONS']; "
        "print(o.get('server_side_binding'), o.get('prepare_threshold'))"
    )
    env = {"DEBUG": "true", "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/sumrak"}
    if setting is not None:
        env["SUMRAK_DB_PREPARED"] = setting
    result = run(tmp_path, "shell", "--no-imports", "-c", code, **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == options.split()


def test_env_bool_reads_the_usual_spellings(monkeypatch):
    for value, expected in [("true", True), ("Yes", True), ("1", True), ("off", False), ("FALSE", False), ("", False)]:
        monkeypatch.setenv("SUMRAK_FLAG", value)
        assert env_bool("SUMRAK_FLAG", not expected) is expected
    monkeypatch.delenv("SUMRAK_FLAG")
    assert env_bool("SUMRAK_FLAG", True) is True
    monkeypatch.setenv("SUMRAK_FLAG", "ture")
    with pytest.raises(EnvError, match="SUMRAK_FLAG='ture' is not a boolean"):
        env_bool("SUMRAK_FLAG", False)


def test_env_int_list_and_str(monkeypatch):
    monkeypatch.setenv("SUMRAK_N", "7")
    assert env_int("SUMRAK_N", 1, minimum=1) == 7
    monkeypatch.setenv("SUMRAK_HOSTS", " a.org, ,b.org ")
    assert env_list("SUMRAK_HOSTS", []) == ["a.org", "b.org"]
    monkeypatch.delenv("SUMRAK_MISSING", raising=False)
    assert env_str("SUMRAK_MISSING", "default") == "default"
    with pytest.raises(EnvError, match="SUMRAK_MISSING is required"):
        env_str("SUMRAK_MISSING")


PAGE_HEADERS = (
    "from django.test import Client; from django.urls import reverse;"
    "r = Client().get(reverse('login'), secure=True, HTTP_HOST='sumrak.example.org');"
    "c = r.cookies['csrftoken'];"
    "print(r.status_code, bool(c['secure']), bool(c['httponly']), c['samesite']);"
    "print(r['Content-Security-Policy']); print(r['X-Frame-Options'], r['X-Content-Type-Options'])"
)


@pytest.fixture(scope="module")
def collected_static(tmp_path_factory) -> str:
    """Production pages name hashed static files: they need collectstatic's manifest."""
    root = tmp_path_factory.mktemp("static")
    result = run(root, "collectstatic", "--noinput", **production_env(STATIC_ROOT=str(root)))
    assert result.returncode == 0, result.stderr
    return str(root)


def test_production_pages_carry_the_csp_and_secure_cookies(tmp_path, collected_static):
    env = production_env(STATIC_ROOT=collected_static)
    result = run(tmp_path, "shell", "--no-imports", "-c", PAGE_HEADERS, **env)
    assert result.returncode == 0, result.stderr
    status, csp, frames = result.stdout.strip().splitlines()
    assert status == "200 True True Lax"
    policy = dict(part.strip().split(" ", 1) for part in csp.split(";"))
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["default-src"] == "'self'" and policy["frame-ancestors"] == "'none'"
    assert policy["base-uri"] == "'self'" and policy["object-src"] == "'none'"
    assert frames == "DENY nosniff"


def test_lan_mode_cookies_work_over_plain_http_but_stay_out_of_scripts(tmp_path, collected_static):
    code = PAGE_HEADERS.replace("secure=True", "secure=False")
    env = production_env(SUMRAK_LAN="true", STATIC_ROOT=collected_static)
    result = run(tmp_path, "shell", "--no-imports", "-c", code, **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "200 False True Lax"

# shellcheck shell=bash
# CI provisioning, sourced by scripts/test.sh when CI=true (that is what .ci/run sets).
# A clean Debian/Ubuntu machine may lack all of it: Python's venv, PostgreSQL,
# Redis, chromium, wrk. Installs what is missing with apt-get, starts the services,
# creates the test database. Nothing here runs on a developer's machine.
#
#   ci_before_venv   packages (before .venv exists: Python's venv may be one of them)
#   ci_after_venv    PostgreSQL and Redis up, the database there (checks use .venv's drivers)

# Debian packages the tests need, installed if missing. Another package: one more line.
CI_APT_PACKAGES=(
    chromium # browser tests (tests/browser, Playwright drives Debian's chromium)
    libpango-1.0-0      # WeasyPrint's text layout: the PDF prints (docs/printing.md)
    libpangoft2-1.0-0   # ... its fonts
    libharfbuzz-subset0 # ... its font subsetting
    fonts-dejavu-core   # a Cyrillic font for the prints
    poppler-utils       # pdfinfo, pdftoppm, pdftotext: tests/print reads the PDFs back
    zbar-tools          # zbarimg: tests/print decodes every printed QR code
    wrk                 # the bench's wrk script, run against a stand-in app (tests/services)
)

APT_UPDATED=false

apt_install() {
    command -v apt-get >/dev/null || die "$* is missing and there is no apt-get to install it"
    local sudo=()
    [[ $(id -u) -ne 0 ]] && command -v sudo >/dev/null && sudo=(sudo -n)
    if [[ "$APT_UPDATED" == false ]]; then
        say "apt-get update"
        "${sudo[@]}" apt-get update -qq || die "apt-get update failed"
        APT_UPDATED=true
    fi
    say "apt-get install $*"
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null ||
        die "apt-get install $* failed"
}

_deb_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}

_python_with_venv() {
    local python
    python="$(find_python)" && "$python" -c 'import ensurepip' >/dev/null 2>&1
}

ci_before_venv() {
    # Python >= 3.12 with a working venv (Debian splits ensurepip into python3-venv). An older
    # distribution's python3 (Debian 12 has 3.11) may still offer a newer python3.1x package.
    if ! _python_with_venv; then
        apt_install python3 python3-venv
        local version
        for version in 3.13 3.12; do
            _python_with_venv && break
            if apt-cache show "python$version-venv" >/dev/null 2>&1; then
                apt_install "python$version" "python$version-venv"
            fi
        done
        _python_with_venv || die "no Python >= 3.12 with venv here, nor in apt; set SUMRAK_PYTHON to one"
    fi
    local missing=() pkg
    for pkg in "${CI_APT_PACKAGES[@]}"; do
        _deb_installed "$pkg" || missing+=("$pkg")
    done
    if [[ ${#missing[@]} -gt 0 ]]; then apt_install "${missing[@]}"; fi
    if command -v chromium >/dev/null; then say "$(chromium --version 2>/dev/null || echo 'chromium installed')"; fi
}

# wait_for NAME PYTHON-CODE: retry for up to 60 s until the code runs without error.
wait_for() {
    local name="$1" code="$2" tries=0
    until "$VENV_PY" -c "$code" >/dev/null 2>&1; do
        tries=$((tries + 1))
        [[ $tries -ge 120 ]] && die "$name does not answer"
        sleep 0.5
    done
    say "$name is up"
}

PG_CHECK='import psycopg; psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", connect_timeout=2).close()'
REDIS_CHECK='import redis; redis.Redis(host="127.0.0.1", port=6379, socket_timeout=2).ping()'

ensure_postgresql() {
    if "$VENV_PY" -c "$PG_CHECK" >/dev/null 2>&1; then
        say "PostgreSQL is up"
    else
        command -v pg_ctlcluster >/dev/null || apt_install postgresql
        local version
        version="$(ls /etc/postgresql | sort -V | tail -n 1)"
        [[ -n "$version" ]] || die "no PostgreSQL cluster under /etc/postgresql"
        # A freshly installed Debian cluster asks for a password on TCP; the CI
        # machine is throw-away and its tests connect as postgres without one.
        local hba="/etc/postgresql/$version/main/pg_hba.conf"
        if [[ -f "$hba" ]] && ! grep -q '^# sumrak-ci' "$hba"; then
            sed -i '1i # sumrak-ci: trust local TCP for the test run\nhost all all 127.0.0.1/32 trust\nhost all all ::1/128 trust' "$hba"
        fi
        say "Starting PostgreSQL $version"
        pg_ctlcluster --skip-systemctl-redirect "$version" main start ||
            pg_ctlcluster --skip-systemctl-redirect "$version" main reload || true
        wait_for PostgreSQL "$PG_CHECK"
    fi
    # The database DATABASE_URL names (by default sumrak), created if missing.
    "$VENV_PY" - "${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/sumrak}" <<'PY' || die "could not create the database"
import sys
from urllib.parse import urlsplit

import psycopg
from psycopg import sql

url = urlsplit(sys.argv[1])
name = url.path.lstrip("/") or "sumrak"
admin = url._replace(scheme="postgresql", path="/postgres").geturl()
with psycopg.connect(admin, autocommit=True) as conn:
    if not conn.execute("select 1 from pg_database where datname = %s", [name]).fetchone():
        conn.execute(sql.SQL("create database {}").format(sql.Identifier(name)))
PY
}

ensure_redis() {
    if "$VENV_PY" -c "$REDIS_CHECK" >/dev/null 2>&1; then
        say "Redis is up"
        return
    fi
    command -v redis-server >/dev/null || apt_install redis-server
    say "Starting Redis"
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no >/dev/null ||
        die "redis-server did not start"
    wait_for Redis "$REDIS_CHECK"
}

ci_after_venv() {
    export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/sumrak}"
    export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
    ensure_postgresql
    ensure_redis
}

#!/usr/bin/env bash
# Run every check: the whole pytest suite, ruff, mypy on the rules engine, and
# a missing-migration check. Extra arguments go to pytest (e.g. -k D8, tests/web).
#
#   ./scripts/test.sh              what this machine has: SQLite unless DATABASE_URL is set;
#                                  tests needing a missing service skip
#   CI=true ./scripts/test.sh      (.ci/run) starts PostgreSQL and Redis, installs chromium if
#                                  missing, runs on PostgreSQL + Redis; any skip is a failure
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/_python.sh"
cd "$ROOT"

CI="${CI:-false}"
APT_UPDATED=false

apt_install() {
    command -v apt-get >/dev/null || die "$* is missing and there is no apt-get to install it"
    if [[ "$APT_UPDATED" == false ]]; then
        say "apt-get update"
        apt-get update -qq || die "apt-get update failed"
        APT_UPDATED=true
    fi
    say "apt-get install $*"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || die "apt-get install $* failed"
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
        pg_ctlcluster --skip-systemctl-redirect "$version" main start || pg_ctlcluster --skip-systemctl-redirect "$version" main reload || true
        wait_for PostgreSQL "$PG_CHECK"
    fi
    "$VENV_PY" - <<'PY' || die "could not create the database sumrak"
import psycopg
with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as conn:
    if not conn.execute("select 1 from pg_database where datname = 'sumrak'").fetchone():
        conn.execute("create database sumrak")
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

ensure_chromium() {
    command -v chromium >/dev/null || apt_install chromium
    say "$(chromium --version 2>/dev/null || echo 'chromium installed')"
}

ensure_print_tools() {
    # WeasyPrint's text layout (Pango) for the PDF prints; poppler-utils (pdftoppm, pdftotext)
    # and zbar-tools (zbarimg) let the print tests look at the PDFs and decode their QR codes.
    local missing=()
    ldconfig -p 2>/dev/null | grep -q 'libpango-1.0.so' || missing+=(libpango-1.0-0)
    ldconfig -p 2>/dev/null | grep -q 'libpangoft2-1.0.so' || missing+=(libpangoft2-1.0-0)
    ldconfig -p 2>/dev/null | grep -q 'libharfbuzz-subset.so' || missing+=(libharfbuzz-subset0)
    command -v pdftoppm >/dev/null || missing+=(poppler-utils)
    command -v zbarimg >/dev/null || missing+=(zbar-tools)
    fc-list 2>/dev/null | grep -qi dejavu || missing+=(fonts-dejavu-core)
    if [[ ${#missing[@]} -gt 0 ]]; then apt_install "${missing[@]}"; fi
}

ensure_venv
ensure_requirements requirements-dev.txt

if [[ "$CI" == true ]]; then
    ensure_postgresql
    ensure_redis
    ensure_chromium
    ensure_print_tools
    export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/sumrak}"
    export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
fi
say "Database: ${DATABASE_URL:-SQLite (embedded)}; broker: ${REDIS_URL:-filesystem (embedded)}"

FAILED=()
step() {
    local name="$1"
    shift
    say "── $name: $*"
    "$@"
    local rc=$?
    if [[ $rc -ne 0 ]]; then
        [[ "$name" == pytest && $rc -eq 5 ]] && say "pytest collected no test: that is a failure too"
        FAILED+=("$name (exit $rc)")
    fi
}

step ruff "$VENV/bin/ruff" check .
step mypy "$VENV/bin/mypy"
step migrations "$VENV_PY" manage.py makemigrations --check --dry-run
step pytest "$VENV_PY" -m pytest "$@"

if [[ ${#FAILED[@]} -gt 0 ]]; then
    say "FAILED: ${FAILED[*]}"
    exit 1
fi
say "All checks passed."

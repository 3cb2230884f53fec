#!/usr/bin/env bash
# Run every check: the whole pytest suite, ruff, mypy, and a missing-migration
# check. Extra arguments go to pytest (e.g. -k D8, tests/web).
#
#   ./scripts/test.sh              what this machine has: SQLite unless DATABASE_URL is set;
#                                  tests needing a missing service skip
#   CI=true ./scripts/test.sh      (.ci/run) installs and starts what is missing (.ci/provision.sh:
#                                  Python's venv, PostgreSQL, Redis, chromium), runs on
#                                  PostgreSQL + Redis; any skip is a failure. Then the suite
#                                  again on the embedded default (SQLite, filesystem broker),
#                                  but the browser tests, those that need PostgreSQL and the
#                                  pure rules engine's:
#                                  the README's first command runs on it
set -uo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/_python.sh"
cd "$ROOT"

CI="${CI:-false}"
if [[ "$CI" == true ]]; then
    source "$ROOT/.ci/provision.sh"
    ci_before_venv
fi

ensure_venv
ensure_requirements requirements-dev.txt

if [[ "$CI" == true ]]; then
    ci_after_venv
fi
# DEBUG is off unless set (config/settings.py); the checks run as a developer's machine does.
export DJANGO_SETTINGS_MODULE=config.settings_test
say "Database: ${DATABASE_URL:-SQLite (embedded)}; broker: ${REDIS_URL:-filesystem (embedded)}"

FAILED=()
step() {
    local name="$1"
    shift
    say "── $name: $*"
    "$@"
    local rc=$?
    if [[ $rc -ne 0 ]]; then
        [[ "$name" == pytest* && $rc -eq 5 ]] && say "pytest collected no test: that is a failure too"
        FAILED+=("$name (exit $rc)")
    fi
}

step ruff "$VENV/bin/ruff" check .
step mypy "$VENV/bin/mypy"
step layers "$VENV/bin/lint-imports"
step migrations "$VENV_PY" manage.py makemigrations --check --dry-run
if [[ $# -eq 0 ]]; then
    # One pytest-xdist worker per CPU (each with its own database, var/ and, on Redis, Redis
    # database: config/settings_test.py), then, alone, the tests marked serial (tests/conftest.py's
    # SERIAL_PATHS too: the browser, real processes, races, bounds on wall time). On a 2-core machine
    # the PostgreSQL pass took 19.5 minutes in one process.
    step pytest "$VENV_PY" -m pytest --durations=30 -n logical -m "not serial"
    step pytest-serial "$VENV_PY" -m pytest --durations=30 -m serial
else
    step pytest "$VENV_PY" -m pytest --durations=30 "$@"
fi
if [[ "$CI" == true && $# -eq 0 ]]; then
    # Raw SQL and fast paths behave differently on SQLite (a zone-less datetime once gave a 500
    # there while PostgreSQL passed). Left out: what needs PostgreSQL or a browser, the pure
    # rules engine's tests, which never touch a database, and the tests that start their own
    # manage.py, launcher or mypy with DATABASE_URL and REDIS_URL taken out of the environment
    # (so the same on both passes; a quarter of this pass's time), and PostgreSQL's row lock.
    embedded=(env -u DATABASE_URL -u REDIS_URL "$VENV_PY" -m pytest -q --durations=30 tests
        --ignore=tests/browser --ignore=tests/concurrency --ignore=tests/rules
        --ignore=tests/timers/test_celery_worker.py --ignore=tests/timers/test_launcher_restarts.py
        --ignore=tests/test_documented_commands.py --ignore=tests/test_settings_production.py
        --ignore=tests/test_kinds_protocol.py
        --deselect=tests/test_launcher_first_hour.py::test_the_local_banner_names_the_demo_password_only_while_it_works
        --deselect=tests/services/test_rows.py::test_on_postgresql_the_step_s_lock_refuses_a_second_connection)
    # One pytest-xdist worker per CPU as nproc counts them (-n logical; "auto" counts physical
    # cores, which a VM may report as fewer), each with its own in-memory database and var/
    # (config/settings_test.py); then, alone, the tests marked serial (bounds on wall time,
    # real processes racing), which must not share the machine with a worker.
    step pytest-embedded "${embedded[@]}" -n logical -m "not serial"
    step pytest-embedded-serial "${embedded[@]}" -m serial
fi

if [[ ${#FAILED[@]} -gt 0 ]]; then
    say "FAILED: ${FAILED[*]}"
    exit 1
fi
say "All checks passed."

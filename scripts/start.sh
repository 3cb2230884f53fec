#!/usr/bin/env bash
# Start Sumrak: web server + Celery worker with beat, on the demo game.
#
#   ./scripts/start.sh            development server on http://127.0.0.1:8000/
#   ./scripts/start.sh --lan      the game site: DEBUG off, gunicorn on 0.0.0.0:8000,
#                                 reachable by tablets and phones on the local network
#   ./scripts/start.sh --port 8080
#
# Embedded default: SQLite and Celery's filesystem broker under var/, no services.
# Set DATABASE_URL / REDIS_URL to use PostgreSQL / Redis (docs/deployment.md).
# Ctrl-C stops everything it started.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/_python.sh"
cd "$ROOT"

LAN=false
PORT="${PORT:-8000}"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --lan) LAN=true ;;
        --port) PORT="${2:?--port needs a number}"; shift ;;
        --port=*) PORT="${1#--port=}" ;;
        -h | --help) sed -n '2,12p' "$0"; exit 0 ;;
        *) die "unknown option $1 (try --help)" ;;
    esac
    shift
done
[[ "$PORT" =~ ^[0-9]+$ ]] || die "--port must be a number, not '$PORT'"

ensure_venv
ensure_requirements requirements.txt
mkdir -p "$ROOT/var"

lan_addresses() {
    # Every non-loopback address of this machine; IPv6 ones bracketed for ALLOWED_HOSTS.
    local addr
    for addr in $(hostname -I 2>/dev/null || true); do
        case "$addr" in
            127.* | ::1 | fe80:*) ;;
            *:*) printf '[%s]\n' "$addr" ;;
            *) printf '%s\n' "$addr" ;;
        esac
    done
}

if [[ "$LAN" == true ]]; then
    export DEBUG=false SUMRAK_LAN=true
    SECRET_FILE="$ROOT/var/secret_key"
    if [[ ! -s "$SECRET_FILE" ]]; then
        # Generated once and kept, so sessions survive a restart of the server.
        (umask 077 && "$VENV_PY" -c 'import secrets; print(secrets.token_urlsafe(50))' >"$SECRET_FILE")
        say "Generated a secret key in var/secret_key"
    fi
    SECRET_KEY="$(cat "$SECRET_FILE")"
    export SECRET_KEY
    mapfile -t ADDRESSES < <(lan_addresses)
    HOST_NAME="$(hostname 2>/dev/null || echo localhost)"
    hosts="localhost,127.0.0.1,[::1],$HOST_NAME,$HOST_NAME.local"
    for addr in "${ADDRESSES[@]}"; do hosts="$hosts,$addr"; done
    # Extra names (e.g. a DNS name of the game site's router) come on top.
    export ALLOWED_HOSTS="$hosts${ALLOWED_HOSTS:+,$ALLOWED_HOSTS}"
fi

say "Applying database migrations"
"$VENV_PY" manage.py migrate --noinput -v0
"$VENV_PY" manage.py load_demo
if [[ "$LAN" == true ]]; then
    say "Collecting static files for whitenoise"
    "$VENV_PY" manage.py collectstatic --noinput -v0
fi

# Every child runs in its own session (setsid), so Ctrl-C reaches only this
# script, and cleanup can stop each child with its whole process group
# (runserver's reloader, gunicorn's workers, celery's pool and beat).
CHILDREN=()
# If our output pipe dies first (./start.sh | tee log, then Ctrl-C), a write
# must not kill this script before it has stopped its children.
trap '' PIPE
cleanup() {
    trap - INT TERM EXIT
    set +e
    [[ ${#CHILDREN[@]} -eq 0 ]] && return
    say "Stopping…"
    local pid waited
    for pid in "${CHILDREN[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${CHILDREN[@]}"; do
        waited=0
        # Celery's soft shutdown may take its whole timeout (10 s); give it time.
        while kill -0 -- "-$pid" 2>/dev/null && [[ $waited -lt 250 ]]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        kill -KILL -- "-$pid" 2>/dev/null || true
    done
    CHILDREN=()
    say "Stopped."
}
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
trap cleanup EXIT

start_child() {
    setsid "$@" </dev/null &
    CHILDREN+=("$!")
}

if [[ "$LAN" == true ]]; then
    start_child "$VENV/bin/gunicorn" config.wsgi:application --bind "0.0.0.0:$PORT" \
        --workers 2 --threads 4 --graceful-timeout 5 --log-level warning
else
    start_child "$VENV_PY" manage.py runserver "127.0.0.1:$PORT"
fi
# WARNING: beat's "sending due task" every few seconds would bury the server's lines.
# The filesystem broker gets held ETA timers back on a warm stop (plain TERM).
# With Redis, REMAP_SIGTERM makes TERM Celery's cold stop, whose soft-shutdown
# phase hands them back (config/settings.py); it takes up to 10 s longer.
WORKER_ENV=()
[[ -n "${REDIS_URL:-}" ]] && WORKER_ENV=(REMAP_SIGTERM=SIGQUIT)
start_child env "${WORKER_ENV[@]}" "$VENV/bin/celery" -A config worker --beat --concurrency 2 --loglevel "${SUMRAK_WORKER_LOGLEVEL:-WARNING}" \
    --schedule "$ROOT/var/celerybeat-schedule"

# Wait until the web server answers, then say where it is.
if ! "$VENV_PY" - "$PORT" <<'PY'; then
import sys, time, urllib.error, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/accounts/login/"
for _ in range(300):
    try:
        urllib.request.urlopen(url, timeout=2)
        sys.exit(0)
    except urllib.error.HTTPError:
        sys.exit(0)  # it answered
    except OSError:
        time.sleep(0.2)
sys.exit(1)
PY
    die "the web server did not answer on port $PORT"
fi

{
    echo
    echo "  Sumrak is running."
    if [[ "$LAN" == true ]]; then
        echo "  On this machine:        http://127.0.0.1:$PORT/"
        for addr in "${ADDRESSES[@]}"; do
            echo "  For tablets and phones: http://$addr:$PORT/"
        done
        [[ ${#ADDRESSES[@]} -eq 0 ]] && echo "  (no LAN address found: is the network up?)"
    else
        echo "  Open http://127.0.0.1:$PORT/"
    fi
    echo
    echo "  Demo logins (password sumrak-demo for all):"
    echo "    organizer  — organizer of «Ночной Дозор: Сумрак»"
    echo "    referee    — referee"
    echo "    anton      — player (Антон Городецкий, Light)"
    echo "    zavulon    — player (Завулон, Dark)"
    echo
    echo "  Press Ctrl-C to stop."
    echo
} >&2

# Stay up while both children are up; if one dies, stop the other too.
while true; do
    for pid in "${CHILDREN[@]}"; do
        if ! kill -0 "$pid" 2>/dev/null; then
            say "A process stopped unexpectedly (pid $pid); stopping the rest."
            exit 1
        fi
    done
    sleep 1
done

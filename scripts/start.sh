#!/usr/bin/env bash
# Start Sumrak: web server + Celery worker with beat, on the demo game.
#
#   ./scripts/start.sh            development server on http://127.0.0.1:8000/
#   ./scripts/start.sh --lan      the game site: DEBUG off, gunicorn on 0.0.0.0:8000,
#                                 reachable by tablets and phones on the local network
#   ./scripts/start.sh --port 8080
#   ./scripts/start.sh --no-demo  do not load the demo game «Ночной Дозор: Сумрак»
#
# Embedded default: SQLite and Celery's filesystem broker under var/, no services.
# Set DATABASE_URL / REDIS_URL to use PostgreSQL / Redis (docs/deployment.md).
# Ctrl-C stops everything it started.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/_python.sh"
cd "$ROOT"

LAN=false
DEMO=true
PORT="${PORT:-8000}"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --lan) LAN=true ;;
        --no-demo) DEMO=false ;;
        --port) PORT="${2:?--port needs a number}"; shift ;;
        --port=*) PORT="${1#--port=}" ;;
        -h | --help) sed -n '2,13p' "$0"; exit 0 ;;
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
    local addr addrs
    addrs="$(hostname -I 2>/dev/null || true)"
    if [[ -z "${addrs// /}" ]]; then
        # No `hostname -I` (not Debian's hostname): the address of the default route;
        # a UDP "connect" sends nothing.
        addrs="$("$VENV_PY" -c 'import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.connect(("10.255.255.255", 1))
print(s.getsockname()[0])' 2>/dev/null || true)"
    fi
    for addr in $addrs; do
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
# Printed QR codes point here (events/public_url.py): the first address printed below for
# tablets and phones in LAN mode, this machine only otherwise (the QR pages then warn).
if [[ -z "${SUMRAK_PUBLIC_URL:-}" ]]; then
    if [[ "$LAN" == true && ${#ADDRESSES[@]} -gt 0 ]]; then
        export SUMRAK_PUBLIC_URL="http://${ADDRESSES[0]}:$PORT"
    else
        export SUMRAK_PUBLIC_URL="http://127.0.0.1:$PORT"
    fi
fi

# Another server on the port would answer our readiness check in its place.
"$VENV_PY" -c 'import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as servers do: TIME_WAIT is not "taken"
try:
    s.bind(("0.0.0.0" if sys.argv[2] == "true" else "127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)' "$PORT" "$LAN" || die "port $PORT is taken (another Sumrak running?); try --port $((PORT + 1))"

say "Applying database migrations"
"$VENV_PY" manage.py migrate --noinput -v0
if [[ "$DEMO" == true ]]; then
    "$VENV_PY" manage.py load_demo
fi
if [[ "$LAN" == true ]]; then
    say "Collecting static files for whitenoise"
    "$VENV_PY" manage.py collectstatic --noinput -v0
fi

# Every child runs in its own session (setsid), so Ctrl-C reaches only this
# script, and cleanup can stop each child with its whole process group
# (runserver's reloader, gunicorn's workers, celery's pool and beat).
declare -A PID_OF=()
# If our output pipe dies first (./start.sh | tee log, then Ctrl-C), a write
# must not kill this script before it has stopped its children.
trap '' PIPE
cleanup() {
    trap - INT TERM EXIT
    set +e
    [[ ${#PID_OF[@]} -eq 0 ]] && return
    say "Stopping…"
    local pid waited
    for pid in "${PID_OF[@]}"; do kill -TERM "$pid" 2>/dev/null; done
    for pid in "${PID_OF[@]}"; do
        waited=0
        # Celery's soft shutdown may take its whole timeout (10 s); give it time.
        while kill -0 -- "-$pid" 2>/dev/null && [[ $waited -lt 250 ]]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        kill -KILL -- "-$pid" 2>/dev/null
    done
    PID_OF=()
    say "Stopped."
}
trap 'cleanup; exit 130' INT
trap 'cleanup; exit 143' TERM
trap cleanup EXIT

start_web() {
    if [[ "$LAN" == true ]]; then
        setsid "$VENV/bin/gunicorn" config.wsgi:application --bind "0.0.0.0:$PORT" \
            --workers 2 --threads 4 --graceful-timeout 5 --log-level warning </dev/null &
    else
        setsid "$VENV_PY" manage.py runserver "127.0.0.1:$PORT" </dev/null &
    fi
    PID_OF[web server]=$!
}

start_worker() {
    # The filesystem broker gets held ETA timers back on a warm stop (plain TERM).
    # With Redis, REMAP_SIGTERM makes TERM Celery's cold stop, whose soft-shutdown
    # phase hands them back (config/settings.py); it takes up to 10 s longer.
    local worker_env=()
    if [[ -n "${REDIS_URL:-}" ]]; then worker_env=(REMAP_SIGTERM=SIGQUIT); fi
    # WARNING: beat's "sending due task" every few seconds would bury the server's lines.
    setsid env "${worker_env[@]}" "$VENV/bin/celery" -A config worker --beat --concurrency 2 \
        --loglevel "${SUMRAK_WORKER_LOGLEVEL:-WARNING}" --schedule "$ROOT/var/celerybeat-schedule" </dev/null &
    PID_OF[worker]=$!
}

start_web
start_worker

# Wait until the web server answers, then say where it is.
if ! "$VENV_PY" - "$PORT" "${PID_OF[web server]}" <<'PY'; then
import os, sys, time, urllib.error, urllib.request
url, pid = f"http://127.0.0.1:{sys.argv[1]}/accounts/login/", int(sys.argv[2])
for _ in range(300):
    try:
        urllib.request.urlopen(url, timeout=2)
        sys.exit(0)
    except urllib.error.HTTPError:
        sys.exit(0)  # it answered
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            sys.exit(1)  # it died: its own message says why
        time.sleep(0.2)
sys.exit(1)
PY
    die "the web server did not start on port $PORT (is the port taken? try --port 8001)"
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
    echo "  Printed QR codes point to $SUMRAK_PUBLIC_URL (set SUMRAK_PUBLIC_URL to change it)"
    if [[ "$DEMO" == true ]]; then
        echo
        echo "  Demo logins (password sumrak-demo for all):"
        echo "    organizer  — organizer of «Ночной Дозор: Сумрак»"
        echo "    referee    — referee"
        echo "    anton      — player (Антон Городецкий, Light)"
        echo "    zavulon    — player (Завулон, Dark)"
    fi
    echo
    echo "  Press Ctrl-C to stop."
    echo
} >&2

# A game must not stop because the worker crashed (nor the web server): restart
# what died. Timers stay safe meanwhile: every page load applies overdue
# deadlines (docs/deployment.md). Give up if it keeps dying.
RESTARTS=0
WINDOW_START=$SECONDS
while true; do
    for name in "${!PID_OF[@]}"; do
        pid="${PID_OF[$name]}"
        if ! kill -0 "$pid" 2>/dev/null; then
            kill -KILL -- "-$pid" 2>/dev/null || true # what is left of its group
            if ((SECONDS - WINDOW_START > 60)); then
                RESTARTS=0
                WINDOW_START=$SECONDS
            fi
            RESTARTS=$((RESTARTS + 1))
            ((RESTARTS > 5)) && die "the $name keeps stopping; giving up (see the messages above)"
            say "The $name stopped unexpectedly; restarting it."
            if [[ "$name" == worker ]]; then start_worker; else start_web; fi
        fi
    done
    sleep 1
done

#!/usr/bin/env bash
# Start Sumrak: web server, Celery worker and Celery beat, supervised (launcher.py).
#
#   ./scripts/start.sh                 development server on http://127.0.0.1:8000/ (DEBUG on),
#                                      with the demo game and its public demo logins
#   ./scripts/start.sh --lan           the game site: DEBUG off, gunicorn on 0.0.0.0:8000, reachable
#                                      by tablets and phones on the local network; no demo logins
#   ./scripts/start.sh --lan --demo    ... with the demo game, its logins given random passwords
#                                      (printed once)
#   ./scripts/start.sh --lan --tls CERT KEY   ... over HTTPS (docs/deployment.md: a LAN certificate)
#   ./scripts/start.sh --lan --organizer NAME ... and the site's event creator NAME (password printed once)
#   ./scripts/start.sh --port 8080
#   ./scripts/start.sh --no-demo       do not load the demo game «Ночной Дозор: Сумрак»
#
# Embedded default: SQLite and Celery's filesystem broker under var/, no services.
# Set DATABASE_URL / REDIS_URL to use PostgreSQL / Redis (docs/deployment.md).
# A program that crashes is restarted; Ctrl-C stops everything it started.
set -euo pipefail

source "$(dirname "${BASH_SOURCE[0]}")/_python.sh"
cd "$ROOT"

case "${1:-}" in
    -h | --help) sed -n '2,17p' "$0"; exit 0 ;;
esac

ensure_venv
ensure_requirements requirements.txt
# exec: Ctrl-C and a TERM go straight to the launcher, which stops every program it started.
exec "$VENV_PY" -m launcher "$@"

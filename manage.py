#!/usr/bin/env python
import os
import secrets
import sys

# Commands that only read and write the project's code and files: no request is
# served, nothing is signed, no session or link is made. With DEBUG off (the
# default) they need no secret key or host list, so a developer or a checker can
# run `manage.py makemigrations --check` on a fresh clone without inventing one.
# Every other command (runserver, migrate, shell, check --deploy...) still
# refuses to start without them (config/settings.py).
OFFLINE_COMMANDS = {"makemigrations", "makemessages", "compilemessages"}
# Commands that answer requests, or check the deployment's own settings: they keep insisting on the
# host names. Every other command serves nothing, so the host list does not matter to it; the secret
# key it signs with is the environment's or the one start.sh keeps in var/secret_key (config/settings.py).
SERVING_COMMANDS = {"runserver", "check"}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command in OFFLINE_COMMANDS:
        os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # thrown away with the process
    if command not in SERVING_COMMANDS:
        os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()

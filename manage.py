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


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if len(sys.argv) > 1 and sys.argv[1] in OFFLINE_COMMANDS:
        os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # thrown away with the process
        os.environ.setdefault("ALLOWED_HOSTS", "localhost")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()

"""``manage.py import_event FILE [--with-passwords] [--rotate-links]``: an event file, into this database.

The administrator's way to move an installation: the file's accounts are
matched by user name and the missing ones created, with the file's password
hashes only with ``--with-passwords`` (the site's upload creates none).
"""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from duels.archive import ACCOUNTS_CREATE, ACCOUNTS_MOVE, ArchiveError, import_event, read_event_file


class Command(BaseCommand):
    help = "Create an event from a file made by export_event (ids kept; refused if this database has them)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--with-passwords",
            action="store_true",
            help="create the missing accounts with the file's password hashes (a file from export_event "
            "--with-passwords), so that their logins keep working after the move",
        )
        parser.add_argument(
            "--rotate-links",
            action="store_true",
            help="give every character a new secret link (the printed QR codes stop working)",
        )

    def handle(self, *args: Any, file: str, with_passwords: bool, rotate_links: bool, **options: Any) -> None:
        try:
            content = Path(file).read_bytes()
        except OSError as err:
            raise CommandError(f"Cannot read {file}: {err}") from None
        accounts = ACCOUNTS_MOVE if with_passwords else ACCOUNTS_CREATE
        try:
            # No size bound for the administrator's own file; its depth and width are bounded still.
            data = read_event_file(content, max_bytes=None)
            event = import_event(data, accounts=accounts, rotate_links=rotate_links)
        except ArchiveError as err:
            raise CommandError(str(err)) from None
        self.stdout.write(f"Imported event {event.pk} «{event.name}».")

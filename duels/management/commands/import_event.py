"""``manage.py import_event FILE [--rotate-links]``: an event file made by export_event, into this database."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from duels.archive import ArchiveError, import_event


class Command(BaseCommand):
    help = "Create an event from a file made by export_event (ids kept; refused if this database has them)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument(
            "--rotate-links",
            action="store_true",
            help="give every character a new secret link (the printed QR codes stop working)",
        )

    def handle(self, *args: Any, file: str, rotate_links: bool, **options: Any) -> None:
        try:
            data = json.loads(Path(file).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise CommandError(f"Cannot read {file}: {err}") from None
        try:
            event = import_event(data, rotate_links=rotate_links)
        except ArchiveError as err:
            raise CommandError(str(err)) from None
        self.stdout.write(f"Imported event {event.pk} «{event.name}».")

"""``manage.py export_event EVENT_ID [-o FILE] [--with-passwords]``: a whole event as one file (duels/archive.py)."""

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from duels.archive import dumps, export_event
from events.models import Event


class Command(BaseCommand):
    help = "Write a whole event (settings, people, catalogue, arsenals, fights with their logs) to a JSON file."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int)
        parser.add_argument("-o", "--output", help="the file to write (default: standard output)")
        parser.add_argument(
            "--with-passwords",
            action="store_true",
            help="also write the accounts' password hashes, so that logins keep working after the move",
        )

    def handle(self, *args: Any, event_id: int, output: str | None, with_passwords: bool, **options: Any) -> None:
        event = Event.objects.filter(pk=event_id).first()
        if event is None:
            raise CommandError(f"There is no event {event_id}.")
        text = dumps(export_event(event, with_passwords=with_passwords))
        if output:
            Path(output).write_text(text, encoding="utf-8")
            self.stderr.write(f"Event {event_id} «{event.name}» written to {output}.")
        else:
            sys.stdout.write(text)

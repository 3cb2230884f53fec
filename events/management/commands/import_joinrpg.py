"""``manage.py import_joinrpg PROJECT --event ID --login EMAIL``: bring an event's characters from JoinRPG.

Run on the laptop while it is online before the game (events/imports/joinrpg.py): signs in as
a master of the JoinRPG project, and imports or updates the characters changed since the last
run, keeping JoinRPG's ids. The password is read from ``JOINRPG_PASSWORD`` or asked for; it is
never stored. Interrupted (no network, a refused row), it resumes where it stopped.
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.imports.joinrpg import Client, JoinRpgError, sync
from events.models import Event


class Command(BaseCommand):
    help = "Import (or update) an event's characters from a JoinRPG project through JoinRPG's game API."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("project", type=int, help="the JoinRPG project's number (joinrpg.ru/<number>/...)")
        parser.add_argument("--event", type=int, required=True, help="the Sumrak event's number")
        parser.add_argument("--login", required=True, help="a master's e-mail on JoinRPG")
        parser.add_argument("--url", default="https://joinrpg.ru", help="JoinRPG's address (default: %(default)s)")
        parser.add_argument("--batch", type=int, default=50, help="characters written per step (default: 50)")

    def handle(self, *args: Any, project: int, event: int, login: str, url: str, batch: int, **options: Any) -> None:
        target = Event.objects.filter(pk=event).first()
        if target is None:
            raise CommandError(f"There is no event {event}.")
        password = os.environ.get("JOINRPG_PASSWORD") or getpass.getpass(f"JoinRPG password for {login}: ")
        client = Client(url.rstrip("/"), project)
        try:
            client.login(login, password)
            report = sync(client, target, batch=max(1, batch))
        except JoinRpgError as err:
            raise CommandError(f"{err} Nothing more was changed; run the command again to go on.") from None
        self.stdout.write(
            f"JoinRPG project {project} -> {target.name}: {report.read} characters read, "
            f"{report.created} new, {report.updated} updated."
        )
        if report.errors:
            raise CommandError(
                "The import refused some characters; fix them in JoinRPG and run again:\n  "
                + "\n  ".join(report.errors)
            )
        if report.left:
            raise CommandError(f"{report.left} characters are left for the next run.")

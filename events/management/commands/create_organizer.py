"""``manage.py create_organizer USERNAME``: the site's event creator, made at the console (issue 23).

``start.sh --lan --organizer NAME`` runs it, so the game site's own organizer
exists before the address is given to anyone. A new account gets a random
password, printed here once (it is stored hashed: write it down, or change it
on the site); an existing account keeps its password and is allowed to create
events.
"""

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from events.creators import allow_event_creation


class Command(BaseCommand):
    help = "Create an account that may create events (a random password, printed once), or allow an existing one."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, username: str, **options: Any) -> None:
        if not username.strip():
            raise CommandError("Give the organizer's user name, e.g. create_organizer svetlana.")
        try:
            User._meta.get_field("username").run_validators(username)
        except ValidationError as err:
            raise CommandError(f"{username!r} cannot be a user name: {' '.join(err.messages)}") from None
        with transaction.atomic():
            user, created = User.objects.get_or_create(username=username)
            password = ""
            if created:
                password = secrets.token_urlsafe(12)
                user.set_password(password)
                user.save(update_fields=["password"])
            allow_event_creation(user)
        if created:
            self.stdout.write(self.style.WARNING(f"Organizer {username} (may create events), password shown once:"))
            self.stdout.write(f"    {username}  {password}")
        else:
            self.stdout.write(f"{username} already has an account (its password is unchanged) and may create events.")

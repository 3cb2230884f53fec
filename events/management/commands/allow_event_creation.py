"""``manage.py allow_event_creation USERNAME [--revoke]``: the site permission to create events."""

from typing import Any

from django.contrib.auth.models import Permission, User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from events.creators import CREATE_EVENT, allow_event_creation


class Command(BaseCommand):
    help = "Allow (or with --revoke, stop allowing) an account to create events."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--revoke", action="store_true", help="take the permission back")

    def handle(self, *args: Any, username: str, revoke: bool, **options: Any) -> None:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"There is no account {username!r}.")
        if revoke:
            app_label, codename = CREATE_EVENT.split(".")
            user.user_permissions.remove(Permission.objects.get(content_type__app_label=app_label, codename=codename))
            self.stdout.write(f"{username} may no longer create events.")
        else:
            allow_event_creation(user)
            self.stdout.write(f"{username} may now create events.")

"""``manage.py load_demo [--reset]``: the demo game «Ночной Дозор: Сумрак»."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

import demo


class Command(BaseCommand):
    help = "Load the demo game (idempotent). --reset deletes it and builds it again."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reset", action="store_true", help="delete the demo game first and rebuild it")

    def handle(self, *args: object, reset: bool = False, **options: object) -> None:
        try:
            if reset:
                demo.remove()
            elif demo.is_loaded():
                self.stdout.write("The demo game is already loaded (use --reset to rebuild it).")
                return
            event = demo.load()
        except demo.DemoError as err:
            raise CommandError(str(err)) from err
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo game «{event.name}» loaded: {event.characters.count()} characters, "
                f"{event.catalogue.cards.count() if event.catalogue else 0} cards. "
                f"Logins {', '.join(demo.LOGINS)}, password {demo.DEMO_PASSWORD}."
            )
        )

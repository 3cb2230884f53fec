"""``manage.py load_demo``: the demo game «Ночной Дозор: Сумрак».

load_demo                      the demo with the public demo password (local mode)
load_demo --random-passwords   logins created now get random passwords, printed once; demo
                               logins still on the public password get random ones too
load_demo --secure-only        no demo; only re-secure demo logins left on the public password
                               (start.sh --lan without --demo)
load_demo --reset              delete the demo game and build it again
load_demo --yes                no question when real events are on this machine
load_demo --check-public-password
                               load nothing; exit 0 if every demo login has the public password,
                               else say so and exit 3 (start.sh's local mode prints it only then)

With DEBUG off (the game site, or a manage.py run without DEBUG=true) the logins a load creates
always get random passwords, printed once: the public one is for the local mode only.
"""

import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

import demo


class Command(BaseCommand):
    help = "Load the demo game (idempotent). --reset deletes it and builds it again."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--reset", action="store_true", help="delete the demo game first and rebuild it")
        parser.add_argument(
            "--random-passwords", action="store_true", help="random passwords for the demo logins, printed once"
        )
        parser.add_argument(
            "--secure-only", action="store_true", help="load nothing; give demo logins on the public password new ones"
        )
        parser.add_argument("--yes", action="store_true", help="load beside real events without asking")
        parser.add_argument(
            "--check-public-password",
            action="store_true",
            help="load nothing; exit 0 if every demo login has the public password, else 3",
        )

    def handle(self, *args: object, **options: bool) -> None:
        if options["check_public_password"]:
            self._check_public_password()
            return
        if not settings.SUMRAK_PUBLIC_DEMO_PASSWORD:
            options["random_passwords"] = True  # never the public password outside the local mode
        try:
            if options["secure_only"] or options["random_passwords"]:
                self._print_passwords(demo.secure_public_logins(), "Demo logins had the public password; new ones")
            if options["secure_only"]:
                return
            was_loaded = demo.is_loaded()
            if was_loaded and not options["reset"]:
                self.stdout.write("The demo game is already loaded (use --reset to rebuild it).")
                return
            if not was_loaded:
                self._confirm(options["yes"])  # a rebuild of a demo already there asks nothing
            if options["reset"]:
                demo.remove()
            passwords = demo.random_passwords() if options["random_passwords"] else None
            event = demo.load(passwords=passwords)
        except demo.DemoError as err:
            raise CommandError(str(err)) from err
        cards = event.catalogue.cards.count() if event.catalogue else 0
        characters = event.characters.count()
        loaded = f"Demo game «{event.name}» loaded: {characters} characters, {cards} cards."
        self.stdout.write(self.style.SUCCESS(loaded))
        if passwords is None:
            self.stdout.write(f"Logins {', '.join(demo.LOGINS)}, password {demo.DEMO_PASSWORD}.")
        else:
            created = {login: passwords[login] for login in demo.LOGINS if demo.login_has_password(login, passwords)}
            self._print_passwords(created, "Demo logins")

    def _check_public_password(self) -> None:
        if demo.public_password_works():
            return
        self.stdout.write(
            "The demo logins do not have the public password here (a --lan start gave them their own, printed "
            "then); set one with: .venv/bin/python manage.py changepassword organizer"
        )
        sys.exit(3)

    def _confirm(self, yes: bool) -> None:
        real = demo.real_events()
        if not real or yes:
            return
        question = (
            f"This machine already has {len(real)} other event(s) ({', '.join(real[:3])}"
            f"{', …' if len(real) > 3 else ''}). Load the demo game and its logins beside them? [y/N] "
        )
        if not sys.stdin.isatty():
            raise CommandError(question.split(" Load")[0] + " Not loading the demo game (load_demo --yes loads it).")
        if input(question).strip().lower() not in ("y", "yes", "д", "да"):
            raise CommandError("Not loading the demo game.")

    def _print_passwords(self, passwords: dict[str, str], title: str) -> None:
        if not passwords:
            return
        # Printed once, here only: they are stored hashed. Write them down (or change them on the site).
        self.stdout.write(self.style.WARNING(f"{title} (shown once, write them down):"))
        for login, password in passwords.items():
            self.stdout.write(f"    {login:<10} {password}")

"""The demo game «Ночной Дозор: Сумрак»: load it once, or rebuild it.

Used by ``manage.py load_demo`` (run by ``scripts/start.sh`` on every start, so
loading must be idempotent: an existing demo event is left as it is, with
whatever the organizers changed in it).
"""

import datetime as dt
import secrets
from collections import Counter
from typing import Any

from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import ProtectedError
from django.utils import timezone

from cards.models import ArsenalCard, Card, Catalogue, CounterRule, PoolEntry, PreparedArsenal, PreparedArsenalCard
from demo.battle import (
    BATTLE_CARDS,
    BATTLE_COUNTER_RULES,
    BATTLE_DOUBLE_ATTACKS,
    BATTLE_GROUP,
    BATTLE_REACTIONS,
    BATTLE_TRIGGER_KINDS,
)
from demo.catalogue import CARDS, COUNTER_RULES, REACTIONS
from demo.mass import load_mass
from demo.people import CHARACTERS, DEMO_PASSWORD, ORGANIZER, PLAYERS, REFEREE, CharacterData, parse_cards
from events.creators import allow_event_creation
from events.models import Character, Event, StaffRole
from rules.arsenal import check_arsenal

EVENT_NAME = "Ночной Дозор: Сумрак"
CATALOGUE_NAME = "Ночной Дозор"
LOGINS = (ORGANIZER, REFEREE, *PLAYERS)

__all__ = [
    "CATALOGUE_NAME",
    "DEMO_PASSWORD",
    "EVENT_NAME",
    "LOGINS",
    "DemoError",
    "is_loaded",
    "load",
    "login_has_password",
    "public_password_works",
    "random_passwords",
    "real_events",
    "remove",
    "secure_public_logins",
]


class DemoError(Exception):
    pass


def is_loaded() -> bool:
    return Event.objects.filter(name=EVENT_NAME).exists()


def real_events() -> list[str]:
    """The names of the events that are not the demo game: loading the demo beside them asks first."""
    return list(Event.objects.exclude(name=EVENT_NAME).order_by("name").values_list("name", flat=True))


def random_passwords() -> dict[str, str]:
    """A fresh password for each demo login (the LAN mode never uses the public one)."""
    return {username: secrets.token_urlsafe(9) for username in LOGINS}


def login_has_password(username: str, passwords: dict[str, str]) -> bool:
    """Was the login made with its password from ``passwords`` (not an older account of that name)?"""
    user = User.objects.filter(username=username).first()
    return user is not None and user.check_password(passwords[username])


def public_password_works() -> bool:
    """Does every demo login exist and open with the public demo password (start.sh's local banner says so)?"""
    users = list(User.objects.filter(username__in=LOGINS))
    return len(users) == len(LOGINS) and all(user.check_password(DEMO_PASSWORD) for user in users)


@transaction.atomic
def secure_public_logins() -> dict[str, str]:
    """Demo logins that still have the public password get a random one; the new passwords, by login."""
    changed: dict[str, str] = {}
    for user in User.objects.filter(username__in=LOGINS).order_by("username"):
        if user.check_password(DEMO_PASSWORD):
            password = secrets.token_urlsafe(9)
            user.set_password(password)
            user.save(update_fields=["password"])
            changed[user.username] = password
    return changed


def _next_month_dates(today: dt.date) -> tuple[dt.date, dt.date]:
    first_next = (today.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    return first_next.replace(day=10), first_next.replace(day=12)


def _user(username: str, password_hash: str) -> User:
    """A demo login. An account of that name keeps its password and state: after the demo event
    is deleted and loaded again, the login may by now be a real one with a password of its own."""
    user, _ = User.objects.get_or_create(username=username, defaults={"password": password_hash})
    return user


def _catalogue() -> tuple[Catalogue, dict[str, Card]]:
    catalogue, _ = Catalogue.objects.get_or_create(
        name=CATALOGUE_NAME,
        defaults={"description": "Заклинания и способности Иных по книгам о Дозорах. Демонстрационный каталог."},
    )
    cards: dict[str, Card] = {}
    reactions = REACTIONS | BATTLE_REACTIONS
    for name_ru, name_en, category, kind, magic_type, full, softened, tags, text in CARDS + BATTLE_CARDS:
        action_kind, trigger = reactions.get(name_ru, (Card.ActionKind.STANDARD, ""))
        cards[name_ru], _ = Card.objects.update_or_create(
            catalogue=catalogue,
            name_ru=name_ru,
            defaults={
                "name_en": name_en,
                "category": category,
                "kind": kind,
                "magic_type": magic_type,
                "full_effect": full,
                "softened_effect": softened,
                "tags": tags,
                "rules_text": text,
                "action_kind": action_kind,
                "trigger_text": trigger,
                "trigger_kind": BATTLE_TRIGGER_KINDS.get(name_ru, ""),
                "double_attack": name_ru in BATTLE_DOUBLE_ATTACKS,
            },
        )
    for defence, target, outcome in COUNTER_RULES + BATTLE_COUNTER_RULES:
        key: dict[str, Any]
        if target.startswith("#"):
            key = {"defence_card": cards[defence], "attack_card": None, "attack_tag": target[1:]}
        else:
            key = {"defence_card": cards[defence], "attack_card": cards[target], "attack_tag": ""}
        CounterRule.objects.update_or_create(**key, defaults={"outcome": outcome})
    return catalogue, cards


def _checked(
    owner: str, what: str, counts: Counter[str], cards: dict[str, Card], pool: Counter[str], limit: int
) -> list[int]:
    """The demo data obey the same arsenal rule as organizers' input (ARSENAL check)."""
    try:
        ids = [cards[name].pk for name in counts.elements()]
        check_arsenal(ids, {cards[name].pk: copies for name, copies in pool.items()}, limit)
    except KeyError as err:
        raise DemoError(f"{owner}, {what}: no card {err} in the catalogue") from None
    except Exception as err:  # RuleError: a bug in the demo data
        raise DemoError(f"{owner}, {what}: {err}") from err
    return ids


def _character(event: Event, data: CharacterData, cards: dict[str, Card], users: dict[str, User]) -> Character:
    character = Character.objects.create(
        event=event,
        player=users.get(data.get("player", "")),
        name=data["name"],
        side=data["side"],
        kind=data["kind"],
        power_level=data["level"],
        condition=data.get("condition", "fit"),
        status=Character.Status.ACCEPTED,
        application=data.get("application", ""),
        arrived=data.get("arrived", False),
        arrived_at=timezone.now() if data.get("arrived") else None,
    )
    limit = character.effective_arsenal_limit
    pool = parse_cards(data["pool"])
    PoolEntry.objects.bulk_create(
        PoolEntry(character=character, card=cards[name], copies=copies) for name, copies in pool.items()
    )
    arsenal = parse_cards(data["arsenal"])
    character.restorable_arsenal = _checked(character.name, "arsenal", arsenal, cards, pool, limit)
    ArsenalCard.objects.bulk_create(
        ArsenalCard(character=character, card=cards[name], copies=copies) for name, copies in arsenal.items()
    )
    for prepared_name, text in data.get("prepared", {}).items():
        prepared_cards = parse_cards(text)
        _checked(character.name, prepared_name, prepared_cards, cards, pool, limit)
        prepared = PreparedArsenal.objects.create(character=character, name=prepared_name)
        PreparedArsenalCard.objects.bulk_create(
            PreparedArsenalCard(arsenal=prepared, card=cards[name], copies=copies)
            for name, copies in prepared_cards.items()
        )
    if focus := data.get("focus"):
        # F1: only a defence card of one's own arsenal can be focused.
        if focus not in arsenal or cards[focus].kind != Card.Kind.DEFENCE:
            raise DemoError(f"{character.name}: cannot focus on {focus}")
        character.focus_card = cards[focus]
    character.save(update_fields=["restorable_arsenal", "focus_card"])
    return character


@transaction.atomic
def load(today: dt.date | None = None, passwords: dict[str, str] | None = None) -> Event:
    """Create the demo game; if it is already there, return it unchanged.

    ``passwords`` (login -> password) replaces the public demo password for logins created now.
    """
    existing = Event.objects.filter(name=EVENT_NAME).first()
    if existing is not None:
        return existing
    catalogue, cards = _catalogue()
    starts_on, ends_on = _next_month_dates(today or timezone.localdate())
    event = Event.objects.create(
        name=EVENT_NAME,
        starts_on=starts_on,
        ends_on=ends_on,
        place="Москва, лесопарк «Лосиный Остров», поляна у старой просеки",
        description=(
            "Демонстрационная игра. Светлые и Тёмные Иные Москвы, Инквизиция следит за Договором. "
            "Поединки ведут судьи с планшетов; игроки видят свой Арсенал на телефоне."
        ),
        catalogue=catalogue,
        registration_open=True,
        mass_battles_on=True,
    )
    if passwords is None:
        # One hash for the four logins: a password hash costs about a second by design.
        public = make_password(DEMO_PASSWORD)
        users = {username: _user(username, public) for username in LOGINS}
    else:
        users = {username: _user(username, make_password(passwords[username])) for username in LOGINS}
    StaffRole.objects.create(event=event, user=users[ORGANIZER], role=StaffRole.Role.ORGANIZER)
    # The demo organizer may create events of their own (a site permission, events/creators.py).
    allow_event_creation(users[ORGANIZER])
    StaffRole.objects.create(event=event, user=users[REFEREE], role=StaffRole.Role.REFEREE)
    # The battle group (demo/battle.py): three Light against two Dark, ready for a battle.
    for data in CHARACTERS + BATTLE_GROUP:
        _character(event, data, cards, users)
    load_mass(event, catalogue, users)
    return event


@transaction.atomic
def remove() -> None:
    """Delete the demo event, its characters and, unless another event uses it, its catalogue."""
    try:
        Event.objects.filter(name=EVENT_NAME).delete()
        catalogue = Catalogue.objects.filter(name=CATALOGUE_NAME).first()
        if catalogue is not None and not catalogue.events.exists():
            catalogue.delete()
    except ProtectedError as err:
        raise DemoError(f"the demo game is still referenced elsewhere and cannot be removed: {err}") from err

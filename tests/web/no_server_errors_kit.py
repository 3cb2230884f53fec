"""The world and the garbage of ``test_no_server_errors.py``.

The world: ``event`` with its catalogue, cards, counter rules, Anton (the
player's) and Zavulon (the other player's) armed, with a pool entry and a
prepared arsenal; a finished situation between them (an hour ago) and a
running one (Anton has shown a Fireball, the answer window is open). Its twin
in ``other_event`` (another catalogue, two characters of an outsider, a running
situation) gives the ids "of another event".
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.utils import timezone

from cards.models import (
    ArsenalCard,
    Card,
    Catalogue,
    CounterRule,
    PoolEntry,
    PreparedArsenal,
    PreparedArsenalCard,
)
from cards.printing.models import PrintRun
from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.creators import allow_event_creation
from events.imports.models import TableImport
from events.models import Character, Event, Side, StaffRole
from lab.models import LabRun
from tests.services.kit import arm, nonce, parries

# --- garbage ------------------------------------------------------------------------------------

HUGE = "9" * 25
ROLES = ("anonymous", "player", "other_player", "referee", "organizer", "other_organizer")
HX = {"HX-Request": "true"}
# What a hand-edited form, a broken tablet or a curious player sends instead of a value.
GARBAGE = ("abc", "-7", HUGE, "\x00nul", "ü" * 3000)
# Tried in each field on its own (the rest of the body well-formed); all of GARBAGE in every field at once.
FIELD_GARBAGE = ("abc", HUGE, "\x00nul")
LONG_NONCE = "n" * 200
NOT_UTF8 = b"name=%FF%FE%FD&q=%C3%28&card=%80&username=\xff\xfe&version=\xc3\x28&nonce=%FF"

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"


def bad_files() -> list[Callable[[], SimpleUploadedFile]]:
    """Uploads that are not the CSV/XLSX/JSON they claim to be (or claim nothing)."""
    return [
        lambda: SimpleUploadedFile("picture.png", PNG, "image/png"),
        lambda: SimpleUploadedFile("picture.csv", PNG, "text/csv"),
        lambda: SimpleUploadedFile("broken.xlsx", b"PK\x03\x04 not a zip at all", "application/octet-stream"),
        lambda: SimpleUploadedFile("broken.json", b"{not json", "application/json"),
        lambda: SimpleUploadedFile("list.json", b"[1, 2, [3]]", "application/json"),
        lambda: SimpleUploadedFile("nested.json", b'[{"name_ru": {"a": 1}, "name": [1]}]', "application/json"),
        lambda: SimpleUploadedFile("latin1.csv", "name;сторона\nÄ;x\n".encode("utf-16"), "text/csv"),
        lambda: SimpleUploadedFile("noext", b"name\nx\n", "text/plain"),
        lambda: SimpleUploadedFile("empty.csv", b"", "text/csv"),
        lambda: SimpleUploadedFile("nul.csv", b"name,notes,name_ru,kind\n\x00x,\x00,x\x00,attack\n", "text/csv"),
        lambda: SimpleUploadedFile("nul.json", b'[{"name_ru": "x\\u0000", "kind": "attack"}]', "application/json"),
        lambda: SimpleUploadedFile("wide.csv", ("name," * 3000 + "\n" + "x," * 3000).encode(), "text/csv"),
        lambda: SimpleUploadedFile(
            "values.csv",
            b"name,side,power_level,arsenal_limit,arrived,name_ru,kind,outcome,defence_card,attack_card,attack_tag\n"
            + HUGE.encode()
            + b",dark-ish,-1,1e999,maybe,\x00,sideways,wins,nobody,nobody,\n",
            "text/csv",
        ),
    ]


# --- the world ----------------------------------------------------------------------------------


def _card(catalogue: Catalogue, name: str, kind: str, **extra: Any) -> Card:
    return Card.objects.create(catalogue=catalogue, name_ru=name, name_en=name, kind=kind, **extra)


def _prepared(character: Character, *cards: Card) -> PreparedArsenal:
    prepared = PreparedArsenal.objects.create(character=character, name="Ready")
    for card in cards:
        PreparedArsenalCard.objects.create(arsenal=prepared, card=card)
    return prepared


def uid_in_hand(situation: Situation, character: Character, card: Card) -> str:
    state = services.state_of(situation)
    return next(u for u in state.fighters[character.pk].hand if state.cards[u].card_id == card.pk)


def build_world(personas: dict[str, User | None], event: Event, other_event: Event, character, rival, cards) -> Any:
    attack_card, defence_card = cards
    referee, other_organizer = personas["referee"], personas["other_organizer"]
    # The organizer may create events (a site permission): the create form gets the garbage too.
    organizer, player = personas["organizer"], personas["player"]
    assert organizer is not None and player is not None
    allow_event_creation(organizer)
    Character.objects.filter(pk=character.pk).update(invited_username=player.username)
    # No deadline may pass while one URL is tried (a passing one would change the fight by itself).
    Event.objects.filter(pk=event.pk).update(answer_window_s=600, situation_gap_s=1800)
    event.refresh_from_db()
    assert event.catalogue is not None
    spark = _card(event.catalogue, "Spark", "attack", full_effect="lightly_wounded", tags="spark")
    parries(defence_card, "fire")
    secret = _card(event.catalogue, SECRET_CARD, "defence")
    arm(character, (attack_card, 2), defence_card, secret)
    arm(rival, spark, defence_card)
    prepared = _prepared(character, attack_card, defence_card)
    # The player's second character, in no fight: arsenal changes get past the D3 guard to the checks behind it.
    free = Character.objects.create(event=event, player=personas["player"], name="Boris", side=Side.LIGHT)
    arm(free, (attack_card, 2), defence_card, spark)
    free_prepared = _prepared(free, attack_card, defence_card)
    Character.objects.filter(pk=free.pk).update(focus_card=defence_card)

    earlier = timezone.now() - dt.timedelta(hours=2)
    opened = declare_aggression(event, character, rival, None, user=referee, nonce=nonce(), now=earlier)
    finished = services.refresh(opened.situation, now=earlier + dt.timedelta(hours=1))
    assert finished.ended
    running = declare_aggression(event, character, rival, attack_card.pk, user=referee, nonce=nonce()).situation

    # The twin world of another event.
    other_catalogue = Catalogue.objects.create(name="Other catalogue")
    Event.objects.filter(pk=other_event.pk).update(catalogue=other_catalogue, answer_window_s=600)
    other_event.refresh_from_db()
    outsider = User.objects.create_user("outsider", password="pass-outsider")
    o_attack = _card(other_catalogue, "Other fireball", "attack", full_effect="heavily_wounded", tags="fire")
    o_defence = _card(other_catalogue, "Other shield", "defence")
    stranger = Character.objects.create(event=other_event, player=outsider, name="Stranger", side=Side.DARK)
    stranger2 = Character.objects.create(event=other_event, name="Second stranger", side=Side.LIGHT)
    arm(stranger, o_attack, o_defence)
    arm(stranger2, o_attack, o_defence)
    other_prepared = _prepared(stranger, o_attack)
    other_running = declare_aggression(
        other_event, stranger, stranger2, o_attack.pk, user=other_organizer, nonce=nonce()
    ).situation

    # A mass battle in each event (M1-M8), just started: its decks shuffled, initiative to roll.
    mass = _mass_battle(event, referee)
    other_mass = _mass_battle(other_event, other_organizer)

    w = SimpleNamespace(
        mass=mass,
        event=event,
        other_event=other_event,
        character=character,
        rival=rival,
        attack=attack_card,
        defence=defence_card,
        spark=spark,
        prepared=prepared,
        running=running,
        finished=finished,
        stranger=stranger,
        o_attack=o_attack,
    )
    common = {
        "army": _army(mass).pk,
        "army_token": _army_token(mass),
        "mass": mass.pk,
        "mass_tablet": mass.pk,
        "side": "a",
        "event": event.pk,
        "card": attack_card.pk,
        "magic_card": _magic_card(event).pk,
        "role": StaffRole.objects.get(event=event, user=referee).pk,
        "help": "organizer",
        "print_run": PrintRun.objects.create(event=event).pk,
        "table_import": _mapped_import(event),
    }
    fighting = {
        **common,
        "character": character.pk,
        "token": character.link_token,
        "entry": PoolEntry.objects.get(character=character, card=attack_card).pk,
        "prepared": prepared.pk,
    }
    # Each a consistent set of real ids: the free character, the fighting one, the finished fight.
    w.reals = [
        {
            **common,
            "character": free.pk,
            "token": free.link_token,
            "entry": PoolEntry.objects.get(character=free, card=attack_card).pk,
            "prepared": free_prepared.pk,
            "situation": running.pk,
        },
        {**fighting, "situation": running.pk},
        {**fighting, "situation": finished.pk},
    ]
    w.foreign = {
        "event": other_event.pk,
        "character": stranger.pk,
        "token": stranger.link_token,
        "card": o_attack.pk,
        "magic_card": _magic_card(other_event).pk,
        "role": StaffRole.objects.get(event=other_event, user=other_organizer).pk,
        "entry": PoolEntry.objects.get(character=stranger, card=o_attack).pk,
        "prepared": other_prepared.pk,
        "situation": other_running.pk,
        "mass": other_mass.pk,
        "mass_tablet": other_mass.pk,
        "army_token": _army_token(other_mass),
        "army": _army(other_mass).pk,
        # No "side": a side is "a" or "b" in every battle, so there is no foreign one to mix in.
        "print_run": PrintRun.objects.create(event=other_event).pk,
        "table_import": _mapped_import(other_event),
    }
    lab_run = LabRun.objects.create(event=event, settings={"duels": 10}, total=10, status=LabRun.Status.DONE)
    other_run = LabRun.objects.create(event=other_event, settings={"duels": 10}, total=10)
    for real in w.reals:
        real["run"] = lab_run.pk
    w.foreign["run"] = other_run.pk
    w.lab_run = lab_run
    revoked = Character.objects.create(event=event, name="Revoked", link_active=False)
    int_missing = [987654, int(HUGE)]
    w.missing = {
        "event": int_missing,
        "character": int_missing,
        "token": ["no-such-token", "t" * 200, "\x00", revoked.link_token],
        "card": int_missing,
        "magic_card": int_missing,
        "role": int_missing,
        "entry": int_missing,
        "prepared": int_missing,
        "situation": int_missing,
        "mass": [*int_missing, running.pk],  # a duel is no mass battle
        # The tablet's URL of any kind sends a referee with another kind's fight to its own tablet.
        "mass_tablet": int_missing,
        "army": int_missing,
        "army_token": ["no-such-token", "t" * 200, "\x00", character.link_token],  # a character's is no army's
        "side": ["c", "\x00", "a" * 300],
        "run": int_missing,
        "print_run": int_missing,
        "table_import": int_missing,
        "help": ["nobody", "\x00"],
    }
    return w


def _mapped_import(event: Event) -> int:
    """An upload waiting on its column-mapping page (events/views_import.py)."""
    source = {"headers": ["имя"], "labels": ["Имя"], "rows": [["Olga"]], "numbers": [2], "mapped": True}
    return TableImport.objects.create(event=event, kind="characters", status="mapping", source=source, total=1).pk


def _mass_battle(event: Event, user: User | None) -> Situation:
    from cards.models_mass import Army, MagicCard, Warrior, WarriorType
    from duels.mass.start import start_mass_battle

    Event.objects.filter(pk=event.pk).update(mass_battles_on=True)
    event.refresh_from_db()
    assert event.catalogue is not None  # the event fixture's
    MagicCard.objects.create(catalogue=event.catalogue, name_ru="Огненный дождь", deck=2, magic_type="fire")
    MagicCard.objects.create(catalogue=event.catalogue, name_ru="Ветер", deck=5, magic_type="wind", keepable=True)
    kind = WarriorType.objects.create(event=event, name_ru="Саламандра", protections="fire")
    armies = [Army.objects.create(event=event, name=name) for name in ("Red", "Blue")]
    for army in armies:
        Warrior.objects.create(army=army, name="1", warrior_type=kind)
        Warrior.objects.create(army=army, name="2", warrior_type=kind, state=Warrior.State.HOSPITAL)
    return start_mass_battle(event, *armies, user=user, nonce=nonce()).situation


def _magic_card(event: Event) -> Any:
    from cards.models_mass import MagicCard

    return MagicCard.objects.filter(catalogue=event.catalogue).order_by("pk").first()


def _army(mass: Situation) -> Any:
    from cards.models_mass import Army

    return Army.objects.get(pk=mass.opening["armies"]["a"])


def _army_token(mass: Situation) -> str:
    return str(_army(mass).link_token)


def mass_warrior(w: Any) -> str:
    return str(w.mass.state["warriors"][0]["wid"])


# --- the fingerprint ----------------------------------------------------------------------------


def _mass_models() -> list[Any]:
    from cards.models_mass import Army, MagicCard, Warrior, WarriorType

    return [MagicCard, WarriorType, Army, Warrior]


FINGERPRINTED = (
    (User, ("id", "username", "password", "email", "is_active", "is_staff", "is_superuser")),
    (StaffRole, None),
    (Event, None),
    (LabRun, None),
    (Character, None),
    (Catalogue, None),
    (Card, None),
    (CounterRule, None),
    (PoolEntry, None),
    (ArsenalCard, None),
    (PreparedArsenal, None),
    (PreparedArsenalCard, None),
    # Every change of a situation's state bumps its version (duels.services.store.store_state).
    (Situation, ("id", "version", "ended", "next_deadline")),
    (LogEntry, ("id", "situation_id", "seq", "undone", "nonce")),
    *((model, None) for model in _mass_models()),
)


def fingerprint() -> str:
    """Every row that a request could change, as one hash (counts, versions, conditions, arsenals...).

    Plain SQL: it runs after every request, and the ORM would double the test's time.
    """
    tables = [
        (model._meta.db_table, fields or [column for f in model._meta.concrete_fields if (column := f.column)])
        for model, fields in FINGERPRINTED
    ]
    through = Situation.participants.through._meta
    tables.append((through.db_table, [column for f in through.concrete_fields if (column := f.column)]))
    rows = []
    with connection.cursor() as cursor:
        for table, columns in tables:
            quoted = ", ".join(connection.ops.quote_name(c) for c in columns)
            cursor.execute(f"SELECT {quoted} FROM {connection.ops.quote_name(table)} ORDER BY 1")
            rows.append(cursor.fetchall())
    return hashlib.sha256(repr(rows).encode()).hexdigest()


# --- what each URL is -----------------------------------------------------------------------------

# Who is in scope for the real ids of ``event``; ``OTHER_SCOPE`` for the ids of ``other_event``.
ALL = frozenset(
    {
        "anonymous",
        "inactive",  # an account deactivated after it logged in: an anonymous visitor from then on
        "player",
        "other_player",
        "referee",
        "other_referee",  # a referee of the other event only
        "organizer",
        "other_organizer",
        "superuser",  # the admin's owner: on the site's pages, no event role of its own
    }
)
SIGNED_IN = ALL - {"anonymous", "inactive"}
# The card only the player's fighting character holds (D4), and who may see it.
SECRET_CARD = "Secret card of Anton"
SEES_THE_HAND = frozenset({"player", "referee", "organizer"})
SCOPES = {
    "public": ALL,
    "signed_in": SIGNED_IN,
    "organizer": frozenset({"organizer"}),
    "staff": frozenset({"referee", "organizer"}),
    "owner": frozenset({"player"}),
    "token": ALL,
}
OTHER_SCOPE = {
    "public": ALL,
    "signed_in": SIGNED_IN,
    "organizer": frozenset({"other_organizer"}),
    "staff": frozenset({"other_organizer", "other_referee"}),
    "owner": frozenset(),
    "token": ALL,
}

Payload = Callable[[Any], dict[str, Any]]


@dataclass
class Spec:
    scope: str
    login: bool = True  # anonymous out of scope: a login redirect (else a 404)
    methods: str = "GET POST"  # "GET": require_GET, "POST": require_POST
    post_scope: str | None = None  # who may POST, when fewer than may GET
    get: dict[str, Any] = field(default_factory=dict)  # query parameters the view reads
    posts: list[Payload] = field(default_factory=list)  # well-formed bodies; garbage is made from them
    params: dict[str, str] = field(default_factory=dict)  # path parameter -> kind, when not the default
    lookups: bool = True  # an unknown path parameter is a 404
    strict: tuple[str, ...] = ()  # fields whose garbage must be refused (text fields may take "abc")
    htmx_targets: tuple[str, ...] = ()  # HX-Target values the view answers with a partial


PARAM_KINDS = {
    "event_id": "event",
    "character_id": "character",
    "token": "token",
    "card_id": "card",
    "magic_card_id": "magic_card",
    "role_id": "role",
    "entry_id": "entry",
    "prepared_id": "prepared",
    "situation_id": "situation",
    "side": "side",
    "army_id": "army",
    "run_id": "run",
    "import_id": "table_import",
    "role": "help",
}

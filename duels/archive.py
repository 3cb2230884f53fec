"""A whole event as one file: export it, import it on another installation (issue 13).

Used to move a game to another machine, or from the embedded SQLite to
PostgreSQL (docs/deployment.md), and as an organizer's backup. The file holds
the event and its settings, staff roles, characters with their players and
applications, the catalogue with its counter rules, pools, arsenals and
prepared arsenals, every fight with its full log, the secret links, condition
records, print runs' settings and saved lab runs: every model that belongs to
an event (``duels/archive_rows.py``).

Why ids are kept: a fight's cached state and log name characters and cards by
their database ids (the engine's uids are ``character:card:n``), and replaying
the log must give the stored state again. Rewriting ids inside every kind's
state would be a second copy of each kind's rules; keeping them is exact. So
an import refuses, changing nothing, when the target already has a row with
one of the file's ids (the usual targets, a new installation or a fresh
PostgreSQL database, have none), and PostgreSQL's id sequences are moved past
the imported rows afterwards.

A state's static parts (counter rules, card faces) are snapshots named by
their content hash (rules/snapshots.py): the file carries each with its
data, and an import writes the rows this installation lacks.

An event file creates its event and never touches another (issue 27): every
row it holds must name only rows of the same file (``duels/archive_refs.py``),
and a file that names anything else is refused whole. Accounts depend on who
imports: the site's upload (``ACCOUNTS_INVITE``) creates no account and gives
no existing one anything: players become invitations by user name, staff
roles are left for the importer to give again. ``manage.py import_event``,
an administrator moving an installation, matches accounts by user name and
creates the missing ones (``ACCOUNTS_CREATE``), with the file's password
hashes only with ``--with-passwords`` (``ACCOUNTS_MOVE``; only
``manage.py export_event --with-passwords`` writes them, the organizers'
download never does). Timestamps keep their microseconds: the log's order and
the engine's deadlines depend on them.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import User
from django.core import serializers
from django.core.exceptions import ObjectDoesNotExist
from django.core.management.color import no_style
from django.core.serializers import python as python_serializer
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, connection, models, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from cards.models_mass import Army
from duels.archive_refs import (
    created_ids,
    foreign_rows,
    forget_dangling,
    history_taken,
    invite_accounts,
    named_outside,
    staff_named,
)
from duels.archive_rows import accounts_of, archived_models, arriving, labels, leaving, rows_of, tracked_model
from duels.models import SNAPSHOT_FIELDS, Situation, store_snapshots
from duels.services.kinds import kind_of, replay
from events.models import Character, Event, new_link_token
from helpers.json_limits import JsonLimitError, JsonLimits, read_json
from rules import snapshots

FORMAT = "sumrak-event"
VERSION = 1

ACCOUNT_FIELDS = ("username", "first_name", "last_name", "is_active")

# Who the file's accounts become (see the module's docstring).
ACCOUNTS_INVITE = "invite"  # the site's upload: no account created, players invited by name
ACCOUNTS_CREATE = "create"  # manage.py import_event: missing accounts created without a usable password
ACCOUNTS_MOVE = "move"  # manage.py import_event --with-passwords: with the file's password hashes

# The bounds an event file is read within, before anything else (helpers/json_limits.py; docs/security.md).
# A played event nests ~10 levels (a fight's state) and its widest object has a few hundred keys.
MAX_DEPTH = 32
MAX_KEYS = 10_000
MAX_VALUES = 1_000_000


def read_event_file(content: bytes, *, max_bytes: int | None) -> Any:
    """The file's data, read within the bounds; ``ArchiveError`` with the reason otherwise."""
    limits = JsonLimits(max_bytes=max_bytes, max_depth=MAX_DEPTH, max_keys=MAX_KEYS, max_values=MAX_VALUES)
    try:
        return read_json(content, limits)
    except JsonLimitError as err:
        raise ArchiveError(_("This is not a Sumrak event file: %(reason)s") % {"reason": err}) from None


class ArchiveError(Exception):
    """The file cannot be imported; nothing was changed. The message is for the user."""


def _accounts(event: Event) -> models.QuerySet[User]:
    return User.objects.filter(pk__in=accounts_of(event)).order_by("username")


class _Encoder(json.JSONEncoder):
    """ISO timestamps with all their microseconds (Django's encoder cuts them to milliseconds)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, dt.datetime | dt.date | dt.time):
            return o.isoformat()
        if hasattr(o, "as_tuple"):  # Decimal
            return str(o)
        return super().default(o)


class _Serializer(python_serializer.Serializer):
    """Django's, except that a history row naming an account removed since names none (docs/history.md)."""

    def handle_fk_field(self, obj: models.Model, field: Any) -> None:
        try:
            super().handle_fk_field(obj, field)
        except ObjectDoesNotExist:
            self._current[field.name] = None  # type: ignore[attr-defined]  # Django names it so


def export_event(event: Event, *, with_passwords: bool = False) -> dict[str, Any]:
    objects: list[dict[str, Any]] = []
    for _model, rows in rows_of(event):
        objects += map(
            leaving,
            _Serializer().serialize(rows.order_by("pk"), use_natural_foreign_keys=True, use_natural_primary_keys=False),
        )
    objects = forget_dangling(objects, labels())
    objects = [_with_snapshots(item) for item in objects]
    accounts = []
    for user in _accounts(event):
        account: dict[str, Any] = {name: getattr(user, name) for name in ACCOUNT_FIELDS}
        if with_passwords:
            account["password"] = user.password
        accounts.append(account)
    return {
        "format": FORMAT,
        "version": VERSION,
        "event": event.name,
        "accounts": accounts,
        # json.loads(dumps(...)): the same plain data the file holds, whoever calls this.
        "objects": json.loads(json.dumps(objects, cls=_Encoder)),
    }


_SITUATION = Situation._meta.label_lower


def _with_snapshots(item: dict[str, Any]) -> dict[str, Any]:
    """A fight's row as the file holds it: each snapshot its states name carried with them.

    The file needs no snapshot rows (``StateSnapshot`` is not an event's model:
    rows are shared by content), and reads on an installation that has none.
    """
    if item["model"] != _SITUATION:
        return item
    fields = item["fields"]
    return {**item, "fields": {**fields, **{n: snapshots.inlined(fields[n]) for n in SNAPSHOT_FIELDS if n in fields}}}


def _stored_snapshots(item: dict[str, Any]) -> dict[str, Any]:
    """A fight's row of the file as it is saved here: its snapshots written (if missing), its states naming them.

    Every reference must carry its data, and the data must have its key: a
    file can never make a fight read a snapshot it does not hold (another
    event's), nor store data under another key. A state written before
    snapshots (an older file) holds its rules inline and is saved as it is.
    """
    if item["model"] != _SITUATION:
        return item
    fields = dict(item["fields"])
    for name in SNAPSHOT_FIELDS:
        value = fields.get(name)
        named = snapshots.refs(value)
        try:
            carried = snapshots.carried(value)
        except snapshots.UnknownSnapshot:
            carried = {}
        if named - carried.keys():
            raise ArchiveError(_("The event file is damaged."))
        store_snapshots(named, carried)
        fields[name] = snapshots.bare(value)
    return {**item, "fields": fields}


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, cls=_Encoder, ensure_ascii=False, indent=1)


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_nul(v) for v in value)
    return False


def _check_shape(data: Any) -> list[dict[str, Any]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArchiveError(_("This is not a Sumrak event file."))
    if data.get("version") != VERSION:
        raise ArchiveError(_("This event file has a version this installation cannot read."))
    objects = data.get("objects")
    accounts = data.get("accounts")
    if not isinstance(objects, list) or not isinstance(accounts, list):
        raise ArchiveError(_("The event file is damaged."))
    seen: set[tuple[str, int]] = set()
    known = labels()
    for item in objects:
        if (
            not isinstance(item, dict)
            or item.get("model") not in known
            or not isinstance(item.get("pk"), int)
            or isinstance(item["pk"], bool)
            or not isinstance(item.get("fields"), dict)
            or (item["model"], item["pk"]) in seen
        ):
            raise ArchiveError(_("The event file is damaged."))
        seen.add((item["model"], item["pk"]))
    for account in accounts:
        if not isinstance(account, dict) or not isinstance(account.get("username"), str) or not account["username"]:
            raise ArchiveError(_("The event file is damaged."))
    if sum(item["model"] == "events.event" for item in objects) != 1:
        raise ArchiveError(_("The event file must hold exactly one event."))
    if _has_nul(data):
        # No text of ours has one, and PostgreSQL refuses them.
        raise ArchiveError(_("The event file is damaged."))
    return objects


def _clashes(objects: Iterable[dict[str, Any]]) -> list[str]:
    wanted: dict[str, set[int]] = {}
    known = labels()
    for item in objects:
        wanted.setdefault(item["model"], set()).add(item["pk"])
    found = []
    for label, pks in wanted.items():
        taken = known[label]._default_manager.filter(pk__in=pks).count()
        if taken:
            found.append(f"{known[label]._meta.verbose_name_plural}: {taken}")
    return found


def _ensure_accounts(accounts: list[dict[str, Any]], *, with_passwords: bool) -> None:
    for account in accounts:
        user, created = User.objects.get_or_create(
            username=account["username"],
            defaults={
                "first_name": str(account.get("first_name") or "")[:150],
                "last_name": str(account.get("last_name") or "")[:150],
                "is_active": bool(account.get("is_active", True)),
            },
        )
        if created:
            password = account.get("password")
            if with_passwords and isinstance(password, str) and password:
                user.password = password
            else:
                user.set_unusable_password()
            user.save(update_fields=["password"])


def _refuse_foreign(what: list[str]) -> None:
    if what:
        raise ArchiveError(
            _(
                "The event file names rows it does not hold (%(rows)s). An event file may refer only to "
                "its own event, characters, cards, fights and accounts."
            )
            % {"rows": "; ".join(what)}
        )


def staff_left_out(data: dict[str, Any]) -> list[str]:
    """The staff roles an upload leaves out (``ACCOUNTS_INVITE``), as "anton (referee)"."""
    return staff_named(data["objects"], labels())


@transaction.atomic
def import_event(data: Any, *, accounts: str = ACCOUNTS_INVITE, rotate_links: bool = False) -> Event:
    """Create the file's event here, exactly; raise ArchiveError (and change nothing) if it cannot be."""
    objects = _check_shape(data)
    known = labels()
    usernames = {account["username"] for account in data["accounts"]}
    _refuse_foreign([*foreign_rows(objects, usernames, known), *history_taken(objects, known)])
    clashes = _clashes(objects)
    if clashes:
        raise ArchiveError(
            _(
                "This installation already has rows with the file's ids (%(rows)s). "
                "Import into a new installation or an empty database."
            )
            % {"rows": ", ".join(clashes)}
        )
    if accounts == ACCOUNTS_INVITE:
        objects = invite_accounts(objects, known)
    else:
        _ensure_accounts(data["accounts"], with_passwords=accounts == ACCOUNTS_MOVE)
    order = {label: n for n, label in enumerate(known)}
    try:
        for item in sorted(map(arriving, objects), key=lambda i: order[i["model"]]):
            item = _stored_snapshots(item)
            (deserialized,) = serializers.deserialize("python", [item], handle_forward_references=False)
            # Never an UPDATE: a row of the file that exists here by now is refused, not overwritten.
            deserialized.save(force_insert=True)
        # PostgreSQL checks foreign keys at commit: check them now, while a refusal can still say why.
        connection.check_constraints()
    except (DeserializationError, DatabaseError, ValueError, TypeError, KeyError, LookupError) as err:
        raise ArchiveError(_("The event file is damaged: %(error)s") % {"error": err}) from None
    event = Event.objects.get(pk=next(i["pk"] for i in objects if i["model"] == "events.event"))
    _refuse_foreign(named_outside(event, created_ids(objects, known)))
    _reset_sequences()
    if rotate_links:
        for character_id in Character.objects.filter(event=event).values_list("pk", flat=True):
            Character.objects.filter(pk=character_id).update(link_token=new_link_token())
        for army_id in Army.objects.filter(event=event).values_list("pk", flat=True):
            Army.objects.filter(pk=army_id).update(link_token=new_link_token())  # commanders' QR codes too
    broken = [s.pk for s in Situation.objects.filter(event=event) if not replays(s)]
    if broken:
        raise ArchiveError(
            _("Fights %(ids)s in the file do not replay to their stored state.") % {"ids": ", ".join(map(str, broken))}
        )
    return event


def replays(situation: Situation) -> bool:
    """DESIGN §4: the fight's log, replayed, gives its stored state."""
    kind = kind_of(situation)
    try:
        written = kind.to_dict(replay(kind, situation.opening, situation.log.order_by("seq")))
        if written == situation.state:
            return True
        # A state written before snapshots (rules inline) or before issue 24 (every finished step
        # inline: the row keeps the newest now) is compared as it reads.
        return written == kind.to_dict(kind.from_dict(situation.state))
    except Exception:  # a log the engine refuses is as broken as one that replays to another state
        return False


def _reset_sequences() -> None:
    """Move the id sequences past the imported rows, and past the deleted objects their history remembers.

    A new row must never get the id of a deleted object whose history came
    with the file: it would inherit that history (and its reverts). SQLite
    moves its own counters past inserted rows, not past remembered ids.
    """
    statements = connection.ops.sequence_reset_sql(no_style(), [*archived_models(), User])
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
        for model in archived_models():
            tracked = tracked_model(model)
            if tracked is None:
                continue
            table = tracked._meta.db_table
            # Any event's: Django's reset above moves a sequence back to the highest live row.
            highest = model._default_manager.aggregate(highest=Max("id"))["highest"] or 0
            if not highest or tracked._default_manager.filter(pk__gte=highest).exists():
                continue
            if connection.vendor == "postgresql":
                cursor.execute("SELECT setval(pg_get_serial_sequence(%s, 'id'), %s)", [table, highest])
            elif connection.vendor == "sqlite":
                cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
                row = cursor.fetchone()
                if row is None:
                    cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, highest])
                elif row[0] < highest:
                    cursor.execute("UPDATE sqlite_sequence SET seq = %s WHERE name = %s", [highest, table])

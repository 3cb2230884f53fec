"""An event file may name only its own rows (issue 27): the checks behind ``duels.archive.import_event``.

The file keeps its ids (duels/archive.py says why), so each of its rows could
name any row of the installation: a staff role for another event, a log entry
in another event's running fight, a pool entry for another event's character,
a fight whose state lists another event's characters (its write-back would
change them when it ends), a mass battle over another event's warriors. Two
checks stop all of them, and the file is refused when either finds one:

- ``foreign_rows`` (before anything is written): every foreign key and
  many-to-many value of every row names a row of the same file, and every
  account it names is one of the file's accounts;
- ``named_outside`` (after the rows are written, before the transaction
  commits): the ids the JSON columns hold, the characters and cards of a
  fight's state and log, a mass battle's warriors, magic cards and armies, an
  arsenal to restore, are the file's too. It reads them through each fight
  kind's own interface, as the write-back does.

The organizers' edit history (docs/history.md) keeps rows of deleted objects:
a history row may name an object the file holds, or one the file knows only
by its own history rows (a deleted prepared arsenal, a deleted card). Such a
remembered id must be free here (``history_taken``: a history row naming
another event's character, card or arsenal as "deleted" would put invented
changes, and reverts, on that object's history page), and the import keeps
it reserved (the id sequences move past it).

``invite_accounts`` turns the file's accounts into invitations for the web
path: an upload creates no account and gives no existing one anything.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models

from cards.models import Card
from cards.models_mass import Army
from cards.printing.models import PrintRun
from duels.archive_rows import tracked_model
from duels.models import Situation
from duels.services.kinds import kind_of
from events.models import Character, ConditionRecord, Event, StaffRole

Created = dict[type[models.Model], set[int]]


def created_ids(objects: Iterable[dict[str, Any]], labels: dict[str, type[models.Model]]) -> Created:
    created: Created = {}
    for item in objects:
        created.setdefault(labels[item["model"]], set()).add(item["pk"])
    return created


def remembered_ids(objects: Iterable[dict[str, Any]], labels: dict[str, type[models.Model]]) -> Created:
    """The objects the file's history rows record that the file does not hold: deleted ones, by model."""
    objects = list(objects)
    created = created_ids(objects, labels)
    remembered: Created = {}
    for item in objects:
        tracked = tracked_model(labels[item["model"]])
        own_id = item["fields"].get("id")
        if tracked is not None and _is_id(own_id) and own_id not in created.get(tracked, ()):
            remembered.setdefault(tracked, set()).add(own_id)
    return remembered


def _is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _names_own_account(value: Any, usernames: set[str]) -> bool:
    # Accounts travel by user name (natural keys): ["anton"].
    return isinstance(value, list) and len(value) == 1 and value[0] in usernames


def _relations(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    return [field for field in [*model._meta.concrete_fields, *model._meta.many_to_many] if field.is_relation]


def foreign_rows(
    objects: list[dict[str, Any]], usernames: set[str], labels: dict[str, type[models.Model]]
) -> list[str]:
    """What the file's rows name outside the file ("staff roles: event"), one entry per model and field."""
    created = created_ids(objects, labels)
    remembered = remembered_ids(objects, labels)
    user_model = get_user_model()
    found: dict[str, None] = {}
    for item in objects:
        model = labels[item["model"]]
        fields = item["fields"]
        history = tracked_model(model) is not None
        if history and not _is_id(fields.get("id")):
            found[f"{model._meta.verbose_name_plural}: id"] = None
        for field in _relations(model):
            value = fields.get(field.name)
            if value is None:
                continue
            target = field.related_model
            if field.many_to_many:
                ok = isinstance(value, list) and all(_is_id(v) and v in created.get(target, ()) for v in value)  # type: ignore[arg-type]
            elif target is user_model:
                ok = _names_own_account(value, usernames)
            else:
                ok = _is_id(value) and (
                    value in created.get(target, ())  # type: ignore[arg-type]
                    or (history and value in remembered.get(target, ()))  # type: ignore[arg-type]
                )
            if not ok:
                found[f"{model._meta.verbose_name_plural}: {field.verbose_name}"] = None
    return list(found)


def history_taken(objects: list[dict[str, Any]], labels: dict[str, type[models.Model]]) -> list[str]:
    """The deleted objects the file's history records whose ids are rows here (another event's)."""
    found = []
    for tracked, ids in remembered_ids(objects, labels).items():
        if tracked._default_manager.filter(pk__in=ids).exists():
            history = tracked.history.model  # type: ignore[attr-defined]
            found.append(f"{history._meta.verbose_name_plural}: {tracked._meta.verbose_name}")
    return sorted(found)


def forget_dangling(objects: list[dict[str, Any]], labels: dict[str, type[models.Model]]) -> list[dict[str, Any]]:
    """History rows as the file holds them: a reference to a row that is gone, and has no history, is empty.

    A history row outlives the rows it names (a staff role deleted since, an
    account removed): the file keeps the row and what it recorded, and names
    only rows it holds or remembers, so that it imports (``foreign_rows``).
    """
    created = created_ids(objects, labels)
    remembered = remembered_ids(objects, labels)
    kept = []
    for item in objects:
        model = labels[item["model"]]
        if tracked_model(model) is not None:
            fields = dict(item["fields"])
            for field in _relations(model):
                value = fields.get(field.name)
                target = field.related_model
                if value is None or target is get_user_model() or field.many_to_many:
                    continue
                if value not in created.get(target, ()) and value not in remembered.get(target, ()):  # type: ignore[arg-type]
                    fields[field.name] = None
            item = {**item, "fields": fields}
        kept.append(item)
    return kept


def named_outside(event: Event, created: Created) -> list[str]:
    """What the imported event's JSON columns name outside the file (read once its rows are written)."""
    found: dict[str, None] = {}
    cards = created.get(Card, set())
    for arsenal in Character.objects.filter(event=event).values_list("restorable_arsenal", flat=True):
        if not isinstance(arsenal, list) or not set(arsenal) <= cards:
            field = Character._meta.get_field("restorable_arsenal")
            found[f"{Character._meta.verbose_name_plural}: {field.verbose_name}"] = None
    # Plain ids: a condition record's fight (events knows nothing of fights), a print run's characters.
    fights = created.get(Situation, set())
    for fight in ConditionRecord.objects.filter(character__event=event).values_list("situation_id", flat=True):
        if fight is not None and fight not in fights:
            found[f"{ConditionRecord._meta.verbose_name_plural}: {Situation._meta.verbose_name}"] = None
    characters = created.get(Character, set())
    for chosen in PrintRun.objects.filter(event=event).values_list("character_ids", flat=True):
        if not isinstance(chosen, list) or not set(chosen) <= characters:
            found[f"{PrintRun._meta.verbose_name_plural}: {Character._meta.verbose_name_plural}"] = None
    for situation in Situation.objects.filter(event=event).order_by("pk"):
        try:
            names = _named_by_fight(situation)
        except Exception:  # a state the kind cannot read names nothing of the file (and is refused)
            names = {Situation: {-1}}
        for model, ids in names.items():
            if not ids <= created.get(model, set()):
                found[f"{Situation._meta.verbose_name_plural}: {model._meta.verbose_name_plural}"] = None
    return list(found)


def _named_by_fight(situation: Situation) -> dict[type[models.Model], set[int]]:
    """The characters, cards, warriors, magic cards and armies a fight's opening, state and log name."""
    return kind_of(situation).named_rows(situation)


def invite_accounts(objects: list[dict[str, Any]], labels: dict[str, type[models.Model]]) -> list[dict[str, Any]]:
    """The file's rows with no account in them: players invited by name, commanders named, the rest dropped.

    A character's player becomes an invitation (the character form's own way:
    whoever has or makes that account accepts or declines); an army's
    commander stays as the commander's name; a staff role is left out (the
    importer gives it again on the staff page, ``staff_named`` says to whom);
    who made a log entry is forgotten. No existing account is given anything.
    """
    user_model = get_user_model()
    kept = []
    for item in objects:
        model = labels[item["model"]]
        fields = dict(item["fields"])
        dropped = False
        for field in model._meta.concrete_fields:
            if field.related_model is not user_model or fields.get(field.name) is None:
                continue
            username = str(fields[field.name][0])
            if model is Character and field.name == "player":
                fields["invited_username"] = fields.get("invited_username") or username
            elif model is Army and field.name == "commander":
                fields["commander_name"] = fields.get("commander_name") or username
            if field.null:
                fields[field.name] = None
            else:
                dropped = True
        if not dropped:
            kept.append({**item, "fields": fields})
    return kept


def staff_named(objects: list[dict[str, Any]], labels: dict[str, type[models.Model]]) -> list[str]:
    """The staff roles an account-free import leaves out, as "anton (referee)", for the importer to give again."""
    user_model = get_user_model()
    named = []
    for item in objects:
        model = labels[item["model"]]
        for field in model._meta.concrete_fields:
            value = item["fields"].get(field.name)
            if field.related_model is user_model and not field.null and isinstance(value, list) and value:
                role = item["fields"].get("role", "")
                label = StaffRole.Role(role).label if role in StaffRole.Role.values else role
                named.append(f"{value[0]} ({label})" if label else str(value[0]))
    return sorted(set(named))

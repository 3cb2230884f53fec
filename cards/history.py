"""The history of organizers' edits and the revert of one change (issue 22, docs/history.md).

Two objects have a history page: a character (its own fields, its pool, its
current arsenal, its prepared arsenals and their cards) and a catalogue card
(its fields and the counter rules naming it). Each change is one history row
of django-simple-history (helpers/history.py), shown with what it changed.

A revert undoes exactly one change, through the same services and checks as the
builder and the forms (the pool covers the arsenal, no change during a fight,
names unique), with the organizer's reason recorded on the rows it writes. It
is refused, with nothing changed, when what it would put back was changed again
since (revert the later change first), when the object is gone, or when a check
says no.
"""

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from cards import arsenal
from cards.models import ArsenalCard, Card, CounterRule, PoolEntry, PreparedArsenal, PreparedArsenalCard
from cards.words import explain
from events.models import Character
from helpers.history import recording
from rules.errors import RuleError

CREATED, CHANGED, DELETED = "+", "~", "-"
# The page shows the latest changes; older ones stay in the database (and in the event's archive).
SHOWN = 300

TRACKED: dict[str, type[models.Model]] = {
    "character": Character,
    "pool": PoolEntry,
    "arsenal": ArsenalCard,
    "prepared": PreparedArsenal,
    "prepared-card": PreparedArsenalCard,
    "card": Card,
    "counter-rule": CounterRule,
}
# Columns that say where a row belongs rather than what it is: never listed as changed.
_OWNER_FIELDS = {"id", "character", "arsenal", "catalogue"}


def history_models() -> list[type[models.Model]]:
    """Every history model of the organizers' edits (the event archive must carry them)."""
    return [model.history.model for model in TRACKED.values()]  # type: ignore[attr-defined]


class RevertRefused(Exception):
    """The revert cannot be made; nothing was changed. The message is for the organizer."""


@dataclass
class FieldChange:
    label: str
    before: str
    after: str


@dataclass
class Change:
    kind: str  # a key of TRACKED
    record: Any
    previous: Any | None
    what: str = ""
    fields: list[FieldChange] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.record.history_id}"

    @property
    def action(self) -> str:
        return str(self.record.history_type)

    @property
    def at(self) -> datetime:
        return self.record.history_date

    @property
    def who(self) -> str:
        user = self.record.history_user
        return user.get_username() if user is not None else ""

    @property
    def reason(self) -> str:
        return self.record.history_change_reason or ""


def _tracked_fields(record: Any) -> list["models.Field[Any, Any]"]:
    return [f for f in type(record).tracked_fields if f.name not in _OWNER_FIELDS]


def _changed(record: Any, previous: Any) -> list["models.Field[Any, Any]"]:
    return [f for f in _tracked_fields(record) if getattr(record, f.attname) != getattr(previous, f.attname)]


def _shown(model_field: "models.Field[Any, Any]", value: Any) -> str:
    if value is None or value == "":
        return "—"
    if model_field.choices:
        return str(dict(model_field.flatchoices).get(value, value))
    if isinstance(model_field, models.BooleanField):
        return _("yes") if value else _("no")
    if model_field.is_relation and model_field.related_model is not None:
        related = model_field.related_model._default_manager.filter(pk=value).first()
        return str(related) if related is not None else f"#{value}"
    return str(value)[:300]


def _changes(kind: str, records: Iterable[Any]) -> list[Change]:
    """Each record with the one before it of the same object (the queryset is ordered by object, then time)."""
    changes: list[Change] = []
    last: dict[int, Any] = {}
    for record in records:
        previous = last.get(record.id) if record.history_type != CREATED else None
        change = Change(kind=kind, record=record, previous=previous)
        if record.history_type == CHANGED and previous is not None:
            change.fields = [
                FieldChange(
                    str(f.verbose_name), _shown(f, getattr(previous, f.attname)), _shown(f, getattr(record, f.attname))
                )
                for f in _changed(record, previous)
            ]
        changes.append(change)
        last[record.id] = record
    return changes


def _ordered(queryset: models.QuerySet[Any]) -> models.QuerySet[Any]:
    return queryset.select_related("history_user").order_by("id", "history_date", "history_id")


def _card_names(ids: set[int]) -> dict[int, str]:
    names = {card.pk: card.name for card in Card.objects.filter(pk__in=ids)}
    for record in Card.history.filter(id__in=ids - names.keys()).order_by("history_date"):
        names[record.id] = record.name_ru  # a card deleted since: its last known name
    return names


def _describe(changes: list[Change]) -> None:
    card_ids = {c.record.card_id for c in changes if hasattr(c.record, "card_id")}
    card_ids |= {c.record.defence_card_id for c in changes if c.kind == "counter-rule"}
    card_ids |= {c.record.attack_card_id for c in changes if c.kind == "counter-rule" and c.record.attack_card_id}
    names = _card_names(card_ids)
    arsenal_names = {
        r.id: r.name
        for r in PreparedArsenal.history.filter(
            id__in={c.record.arsenal_id for c in changes if c.kind == "prepared-card"}
        ).order_by("history_date")
    }
    for change in changes:
        change.what = _what(change, names, arsenal_names)


def _what(change: Change, names: dict[int, str], arsenal_names: dict[int, str]) -> str:
    r, kind = change.record, change.kind
    card = names.get(getattr(r, "card_id", 0), "")
    if kind == "character":
        return _("character “%(name)s”") % {"name": r.name}
    if kind == "pool":
        return _("pool: %(card)s ×%(copies)s") % {"card": card, "copies": r.copies}
    if kind == "arsenal":
        return _("current arsenal: %(card)s ×%(copies)s") % {"card": card, "copies": r.copies}
    if kind == "prepared":
        return _("prepared arsenal “%(name)s”") % {"name": r.name}
    if kind == "prepared-card":
        words = _("prepared arsenal “%(name)s”: %(card)s ×%(copies)s")
        return words % {"name": arsenal_names.get(r.arsenal_id, "?"), "card": card, "copies": r.copies}
    if kind == "card":
        return _("card “%(name)s”") % {"name": r.name_ru}
    attack = names.get(r.attack_card_id, "?") if r.attack_card_id else f"#{r.attack_tag}"
    outcome = dict(CounterRule.Outcome.choices).get(r.outcome, r.outcome)
    words = _("counter rule: %(defence)s against %(attack)s: %(outcome)s")
    return words % {"defence": names.get(r.defence_card_id, "?"), "attack": attack, "outcome": outcome}


def _latest_first(groups: list[tuple[str, models.QuerySet[Any]]]) -> list[Change]:
    changes = [change for kind, queryset in groups for change in _changes(kind, _ordered(queryset))]
    changes.sort(key=lambda c: (c.at, c.record.history_id), reverse=True)
    shown = changes[:SHOWN]
    _describe(shown)
    return shown


def character_changes(character_id: int) -> list[Change]:
    prepared_ids = PreparedArsenal.history.filter(character_id=character_id).values("id")
    return _latest_first(
        [
            ("character", Character.history.filter(id=character_id)),
            ("pool", PoolEntry.history.filter(character_id=character_id)),
            ("arsenal", ArsenalCard.history.filter(character_id=character_id)),
            ("prepared", PreparedArsenal.history.filter(character_id=character_id)),
            ("prepared-card", PreparedArsenalCard.history.filter(arsenal_id__in=prepared_ids)),
        ]
    )


def card_changes(card_id: int) -> list[Change]:
    rules = CounterRule.history.filter(Q(defence_card_id=card_id) | Q(attack_card_id=card_id))
    return _latest_first([("card", Card.history.filter(id=card_id)), ("counter-rule", rules)])


def find(changes: list[Change], key: str) -> Change | None:
    """The change of this page named by ``key``: a key from another page's object is not found."""
    return next((c for c in changes if c.key == key), None)


# --- the revert ------------------------------------------------------------------------------------


def revert(change: Change, reason: str) -> None:
    """Undo ``change``; every row this writes carries ``reason``. Raises ``RevertRefused``."""
    note = _("Revert of the change of %(when)s: %(reason)s") % {
        "when": change.at.strftime("%Y-%m-%d %H:%M:%S"),
        "reason": reason,
    }
    try:
        with transaction.atomic(), recording(reason=note):
            _REVERTS[change.kind](change)
    except RuleError as err:
        raise RevertRefused(explain(err)) from None
    except ValidationError as err:
        raise RevertRefused(" ".join(err.messages)) from None


def _again() -> RevertRefused:
    return RevertRefused(_("This was changed again since; revert the later change first."))


def _gone() -> RevertRefused:
    return RevertRefused(_("This no longer exists; revert its deletion first."))


def _revert_fields(change: Change, *, may_delete: bool) -> None:
    """A model edited field by field (a character, a card, a counter rule)."""
    record, model = change.record, TRACKED[change.kind]
    current = model._default_manager.select_for_update().filter(pk=record.id).first()
    if change.action == CHANGED:
        if current is None:
            raise _gone()
        if change.previous is None:
            raise RevertRefused(_("The state before this change was not recorded."))
        for f in _changed(record, change.previous):
            if getattr(current, f.attname) != getattr(record, f.attname):
                raise _again()
            setattr(current, f.attname, getattr(change.previous, f.attname))
        current.full_clean()
        current.save()
    elif change.action == CREATED:
        if not may_delete:
            raise RevertRefused(_("A character is not deleted by a revert."))
        if current is None:
            raise RevertRefused(_("This was deleted already."))
        if isinstance(current, Card) and _card_in_use(current):
            raise RevertRefused(_("The card is in a character's pool or arsenal; remove it from there first."))
        current.delete()
    else:
        if current is not None:
            raise RevertRefused(_("This exists again; nothing to bring back."))
        restored = record.instance
        restored.full_clean()
        restored.save(force_insert=True)


def _card_in_use(card: Card) -> bool:
    return (
        PoolEntry.objects.filter(card=card).exists()
        or ArsenalCard.objects.filter(card=card).exists()
        or PreparedArsenalCard.objects.filter(card=card).exists()
    )


def _owner(character_id: int) -> Character:
    character = Character.objects.select_related("event").filter(pk=character_id).first()
    if character is None:
        raise _gone()
    return character


def _undone(held: Counter[int], change: Change) -> Counter[int]:
    """A card list with one card row's change undone, or refused if that row changed again since."""
    record = change.record
    now = held[record.card_id]
    if change.action == DELETED:
        if now:
            raise _again()
        held[record.card_id] = record.copies
    elif now != record.copies:
        raise _again()
    elif change.action == CREATED:
        del held[record.card_id]
    elif change.previous is not None:
        held[record.card_id] = change.previous.copies
    return held


def _ids(cards: Counter[int]) -> list[int]:
    return sorted(cards.elements())


def _revert_pool(change: Change) -> None:
    record = change.record
    character = _owner(record.character_id)
    held = Counter(dict(PoolEntry.objects.filter(character=character).values_list("card_id", "copies")))
    wanted = _undone(held, change)[record.card_id]
    entry = PoolEntry.objects.filter(character=character, card_id=record.card_id).first()
    if entry is not None:
        arsenal.set_pool_copies(character, entry, wanted)
        return
    card = Card.objects.filter(pk=record.card_id).first()
    if card is None:
        raise RevertRefused(_("The card was deleted from the catalogue; revert its deletion first."))
    arsenal.add_to_pool(character, card, wanted)


def _revert_arsenal(change: Change) -> None:
    character = _owner(change.record.character_id)
    held = Counter(dict(ArsenalCard.objects.filter(character=character).values_list("card_id", "copies")))
    arsenal.build_arsenal(character, _ids(_undone(held, change)))


def _revert_prepared_card(change: Change) -> None:
    prepared = PreparedArsenal.objects.filter(pk=change.record.arsenal_id).first()
    if prepared is None:
        raise RevertRefused(_("The prepared arsenal was deleted; revert its deletion first."))
    held = Counter(dict(prepared.cards.values_list("card_id", "copies")))
    arsenal.save_prepared(_owner(prepared.character_id), prepared.name, _ids(_undone(held, change)))


def _revert_prepared(change: Change) -> None:
    record = change.record
    current = PreparedArsenal.objects.filter(pk=record.id).first()
    if change.action == CREATED:
        if current is None:
            raise RevertRefused(_("This was deleted already."))
        arsenal.delete_prepared(current)
    elif change.action == DELETED:
        if current is not None:
            raise RevertRefused(_("This exists again; nothing to bring back."))
        character = _owner(record.character_id)
        if PreparedArsenal.objects.filter(character=character, name=record.name).exists():
            raise RevertRefused(_("The character has a prepared arsenal of this name again."))
        arsenal.save_prepared(character, record.name, _ids(_cards_when_deleted(record)))
    else:
        if current is None:
            raise _gone()
        if change.previous is None or current.name != record.name:
            raise _again()
        current.name = change.previous.name
        current.full_clean()
        current.save()


def _cards_when_deleted(record: Any) -> Counter[int]:
    """The cards a deleted prepared arsenal held: its card rows whose last record is their deletion."""
    last: dict[int, Any] = {}
    for row in PreparedArsenalCard.history.filter(arsenal_id=record.id).order_by("history_date", "history_id"):
        last[row.id] = row
    return Counter({row.card_id: row.copies for row in last.values() if row.history_type == DELETED})


_REVERTS = {
    "character": lambda change: _revert_fields(change, may_delete=False),
    "card": lambda change: _revert_fields(change, may_delete=True),
    "counter-rule": lambda change: _revert_fields(change, may_delete=True),
    "pool": _revert_pool,
    "arsenal": _revert_arsenal,
    "prepared": _revert_prepared,
    "prepared-card": _revert_prepared_card,
}

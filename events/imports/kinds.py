"""The kinds of table an organizer imports, and the registry the apps fill (events/imports/runner.py).

A kind says which columns it reads, how it checks every row without writing (or in short
transactions that are rolled back) and how it writes one batch of rows, noting in the
batch's journal entry what to undo (events/imports/journal.py). The characters are this
app's (events/resources.py); the cards app registers its catalogue, mass-battle and
arsenal kinds in ``CardsConfig.ready`` (the layers run one way).

``ResourceKind`` is every kind that django-import-export reads: a row is checked by the
resource's own dry run, slice by slice, and written by the same resource, batch by batch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import tablib
from django.conf import settings
from django.db import models
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from import_export.results import RowResult

from events.imports import journal
from helpers.names import name_key
from helpers.tables import Table, read_table, result_errors

Tick = Callable[[int], None]
# (row number or None for the whole file, column or None, message); the column is the kind's own
# (``side``), which the import's page names as the file does (events/imports/mapping.py).
RowErrors = list[tuple[int | None, str | None, str]]


class ImportStopped(Exception):
    """A batch found what the check had not (the data changed meanwhile): the import is undone."""

    def __init__(self, errors: RowErrors) -> None:
        super().__init__("; ".join(message for _row, _column, message in errors[:3]))
        self.errors = errors


@dataclass
class FieldSpec:
    """A field a column of a file may be matched to (events/imports/mapping.py)."""

    key: str
    label: str
    required: bool = False
    # (stored value, label) of each choice; a column matched to a field with choices has its values matched.
    choices: tuple[tuple[str, str], ...] = ()
    # Every spelling of each choice (its label in every language, common words): value -> spellings.
    choice_labels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The field's label in every language, and other names a header may give it.
    labels: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


def in_every_language(text: Any) -> tuple[str, ...]:
    """A lazy translatable text in each of the site's languages."""
    found = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            found.append(str(text))
    return tuple(dict.fromkeys(found))


@dataclass
class Checked:
    """What the check found: the errors (nothing is written if any), and what the write needs."""

    errors: RowErrors = field(default_factory=list)
    warnings: RowErrors = field(default_factory=list)
    # How many units the write goes through, batch by batch (rows, or characters for arsenals).
    units: int = 0
    plan: Any = None


class ImportKind:
    """One kind of table; a subclass fills in the columns, the check and the write."""

    key: str = ""
    label: str | Promise = ""
    columns: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    # The page the organizer goes back to (a URL name taking the event's id).
    done_view: str = "events:characters"

    def read(self, content: bytes, file_format: str) -> Table:
        return read_table(content, file_format, columns=self.columns, required=self.required)

    def done_message(self, record: Any) -> str:
        return _("Imported: %(new)s new, %(updated)s updated.") % {"new": record.created, "updated": record.updated}

    def lookups(self, event: Any) -> dict[str, Iterable[str]]:
        """The columns that look a name up, and the names they may take (events/imports/suggest.py)."""
        return {}

    def fields(self, event: Any) -> list[FieldSpec]:
        """The fields a file's columns may be matched to (plain text unless a subclass says more)."""
        return [FieldSpec(key, key, key in self.required, labels=(key,)) for key in self.columns]

    def check(self, event: Any, table: Table, tick: Tick) -> Checked:
        raise NotImplementedError

    def write(
        self, event: Any, table: Table, checked: Checked, start: int, stop: int, entry: dict[str, Any]
    ) -> tuple[int, int]:
        """Write units ``start:stop`` (inside the runner's transaction); (created, updated)."""
        raise NotImplementedError


_KINDS: dict[str, ImportKind] = {}


def register(kind: ImportKind) -> None:
    _KINDS[kind.key] = kind


def kind_of(key: str) -> ImportKind:
    return _KINDS[key]


def registered() -> dict[str, ImportKind]:
    return dict(_KINDS)


# --- kinds read by django-import-export -----------------------------------------------------------

CHECK_SLICE = 200


def _dataset(table: Table, start: int, stop: int) -> tablib.Dataset:
    data = tablib.Dataset(headers=table.headers)
    for row in table.rows[start:stop]:
        data.append(row)
    return data


def duplicate_rows(table: Table, identity: Sequence[str], message: str) -> RowErrors:
    """Rows naming the same thing as an earlier row, by the one name folding (helpers/names.py)."""
    columns = [table.headers.index(c) for c in identity if c in table.headers]
    if not identity or len(columns) != len(identity):
        return []
    seen: dict[tuple[str, ...], int] = {}
    errors: RowErrors = []
    for number, row in zip(table.numbers, table.rows, strict=True):
        key = tuple(name_key("" if row[i] is None else str(row[i])) for i in columns)
        if not all(key):
            continue
        if key in seen:
            name = " / ".join(str(row[i]) for i in columns)
            errors.append((number, identity[0], message % {"name": name, "row": seen[key]}))
        else:
            seen[key] = number
    return errors


@dataclass
class ResourceKind(ImportKind):
    """A kind read by an import-export resource made for the event (``make_resource``)."""

    key: str = ""
    label: str | Promise = ""
    columns: tuple[str, ...] = ()
    required: tuple[str, ...] = ()
    done_view: str = "events:characters"
    make_resource: Callable[[Any], Any] = lambda event: None
    # The columns that name one row (a second row with the same names is an error), if any.
    identity: tuple[str, ...] = ()
    # A resource that creates rows while it reads one (the warriors' armies) is checked in
    # short transactions that are rolled back; the others are checked without writing at all.
    check_in_transaction: bool = False
    warn: Callable[[Table], RowErrors] = lambda table: []
    # Other names a header may give a column (a JoinRPG project's «Сторона» is ``side``), and labels
    # for the columns that are no model field.
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict)
    labels: dict[str, Any] = field(default_factory=dict)
    # The success's words, with %(created)d and %(updated)d (the generic ones if None).
    done_text: Any = None
    # The columns that look a name up (a counter rule's cards), for "did you mean ...?".
    find_names: Callable[[Any], dict[str, Iterable[str]]] = lambda event: {}

    def lookups(self, event: Any) -> dict[str, Iterable[str]]:
        return self.find_names(event)

    def done_message(self, record: Any) -> str:
        if self.done_text is None:
            return super().done_message(record)
        return str(self.done_text) % {"created": record.created, "updated": record.updated}

    def fields(self, event: Any) -> list[FieldSpec]:
        from events.import_widgets import ChoiceWidget, YesNoWidget

        resource = self.make_resource(event)
        model = resource._meta.model
        found = []
        for key in self.columns:
            column = resource.fields[key]
            label: Any = self.labels.get(key)
            if label is None:
                try:
                    label = model._meta.get_field(column.attribute).verbose_name
                except Exception:  # not a model field: its column's name
                    label = key
            choices: tuple[tuple[str, str], ...] = ()
            spellings: dict[str, tuple[str, ...]] = {}
            widget = column.widget
            if isinstance(widget, ChoiceWidget):
                choices = tuple((str(stored), str(name)) for stored, name in widget.choices if str(stored) != "")
                spellings = {str(stored): in_every_language(name) for stored, name in widget.choices}
            elif isinstance(widget, YesNoWidget):
                choices = (("yes", _("yes")), ("no", _("no")))
                spellings = {"yes": tuple(widget.TRUE), "no": tuple(widget.FALSE - {""})}
            found.append(
                FieldSpec(
                    key,
                    str(label),
                    key in self.required,
                    choices,
                    spellings,
                    in_every_language(label),
                    self.aliases.get(key, ()),
                )
            )
        return found

    def check(self, event: Any, table: Table, tick: Tick) -> Checked:
        message = _("The name “%(name)s” appears twice in the file (first in row %(row)d).")
        checked = Checked(errors=duplicate_rows(table, self.identity, message), units=len(table.rows))
        checked.warnings = self.warn(table)
        updates: dict[int, Any] = {}
        for start in range(0, len(table.rows), CHECK_SLICE):
            stop = min(len(table.rows), start + CHECK_SLICE)
            resource = self.make_resource(event)
            part = _dataset(table, start, stop)
            if self.check_in_transaction:
                options = {"use_transactions": True, "rollback_on_validation_errors": True, "raise_errors": False}
                result = resource.import_data(part, dry_run=True, **options)
            else:
                result = resource.import_data_inner(part, True, False, False, False)
            checked.errors.extend(self._named(resource, result_errors(result, table.numbers[start:stop])))
            if len(result.rows) == stop - start:
                for offset, row_result in enumerate(result.rows):
                    if row_result.import_type == RowResult.IMPORT_TYPE_UPDATE and row_result.object_id:
                        updates[start + offset] = row_result.object_id
            tick(stop)
        checked.errors.sort(key=lambda item: item[0] or 0)
        checked.plan = updates
        return checked

    @staticmethod
    def _named(resource: Any, errors: RowErrors) -> RowErrors:
        """Errors keyed by the resource's attribute (``invited_email``) under the file's column (``email``)."""
        columns = {f.attribute: f.column_name for f in resource.fields.values() if f.attribute}
        columns.update((f.column_name, f.column_name) for f in resource.fields.values())
        return [(row, columns.get(column, column) if column else None, message) for row, column, message in errors]

    def _existing(self, resource: Any, table: Table, checked: Checked, start: int, stop: int) -> models.QuerySet:
        """The rows this batch will update, as they are now (the check's, and any of the same name since)."""
        model = resource._meta.model
        pks = {checked.plan[i] for i in range(start, stop) if i in checked.plan}
        found = model._default_manager.filter(pk__in=pks)
        ids = resource.get_import_id_fields()
        if len(ids) == 1 and ids[0] in table.headers:
            column = table.headers.index(ids[0])
            names = {str(row[column]).strip() for row in table.rows[start:stop] if row[column] not in (None, "")}
            found = found | resource.get_queryset().filter(**{f"{resource.fields[ids[0]].attribute}__in": names})
        return found

    def write(
        self, event: Any, table: Table, checked: Checked, start: int, stop: int, entry: dict[str, Any]
    ) -> tuple[int, int]:
        resource = self.make_resource(event)
        before = list(self._existing(resource, table, checked, start, stop))
        if before:
            entry["rows"].append(journal.snapshot(before))
        # The runner's transaction is the batch's: no savepoint per row (two round trips each on
        # PostgreSQL). A row refused now rolls the whole batch back, and the import is undone.
        result = resource.import_data(_dataset(table, start, stop), dry_run=False, use_transactions=False)
        errors = self._named(resource, result_errors(result, table.numbers[start:stop]))
        if errors:
            raise ImportStopped(errors[:1])
        model_label = journal.label(resource._meta.model)
        # What the rows needed on the way (a warriors' file's armies) first: undo deletes newest first.
        entry["created"].extend(getattr(resource, "created_on_the_way", []))
        for row_result in result.rows:
            if row_result.import_type == RowResult.IMPORT_TYPE_NEW and row_result.object_id:
                entry["created"].append([model_label, row_result.object_id])
        return result.totals.get("new", 0), result.totals.get("update", 0)

"""Characters to and from CSV/XLSX (django-import-export), always within one event.

Columns use fixed English keys (``name``, ``player``, ``side`` …) so that a file
exported in one language imports in any other. An import is all or nothing:
every row is checked in a dry run first, and the real import runs in one
transaction only when no row has an error.
"""

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import tablib
from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from import_export import fields, resources, widgets
from import_export.formats.base_formats import XLSX

from events.forms import user_by_username
from events.models import Character, Event

COLUMNS = ("name", "player", "side", "kind", "power_level", "condition", "arsenal_limit", "status", "arrived", "notes")
# Spreadsheets run a cell starting with one of these as a formula: exported text gets a
# leading apostrophe (OWASP's advice), which the import takes off again.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class ImportFileError(Exception):
    """The file as a whole cannot be read; nothing was imported."""


class ChoiceWidget(widgets.Widget):
    """A choice by its stored value (``light``) or its label in any of the site's languages, case-insensitive.

    A file then imports whatever language its author or the importer uses. An
    empty cell is the empty choice where there is one; otherwise, with
    ``required=False``, None (the column's default), else an error.
    """

    def __init__(self, choices: Iterable[tuple[Any, Any]], *, required: bool = True) -> None:
        super().__init__()
        self.choices = list(choices)
        self.required = required
        self._names: dict[str, Any] | None = None

    def names(self) -> dict[str, Any]:
        """Every accepted spelling, folded, mapped to its stored value (built once per import)."""
        if self._names is None:
            self._names = {}
            for code, _name in settings.LANGUAGES:
                with translation.override(code):
                    self._names.update((str(label).casefold(), stored) for stored, label in self.choices)
            self._names.update((str(stored).casefold(), stored) for stored, _label in self.choices)
        return self._names

    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> Any:
        if isinstance(value, float) and value.is_integer():
            value = int(value)  # a spreadsheet's 5.0 is the power level 5
        text = "" if value is None else str(value).strip()
        if text.casefold() in self.names():
            return self.names()[text.casefold()]
        if not text and not self.required:
            return None
        allowed = ", ".join(str(stored) for stored, _label in self.choices if stored) or "—"
        raise ValueError(_("“%(value)s” is not one of: %(allowed)s.") % {"value": text, "allowed": allowed})

    def render(self, value: Any, obj: Any = None, **kwargs: Any) -> str:
        return "" if value is None else str(value)


class UsernameWidget(widgets.Widget):
    def clean(self, value, row=None, **kwargs):
        try:
            return user_by_username("" if value is None else str(value))
        except ValidationError as err:
            raise ValueError(" ".join(err.messages)) from None

    def render(self, value, obj=None, **kwargs):
        return value.get_username() if value is not None else ""


class YesNoWidget(widgets.Widget):
    TRUE = {"1", "yes", "true", "y", "x", "да", "+"}
    FALSE = {"0", "no", "false", "n", "нет", "-", ""}

    def clean(self, value, row=None, **kwargs):
        if isinstance(value, bool):
            return value
        if isinstance(value, int | float):
            value = int(value)
        text = "" if value is None else str(value).strip().casefold()
        if text in self.TRUE:
            return True
        if text in self.FALSE:
            return False
        raise ValueError(_("“%(value)s” is not yes or no.") % {"value": value})

    def render(self, value, obj=None, **kwargs):
        return "yes" if value else "no"


class LimitWidget(widgets.Widget):
    """The arsenal size limit: empty means the default of the power level."""

    def clean(self, value, row=None, **kwargs):
        text = "" if value is None else str(value).strip()
        if not text:
            return None
        try:
            number = float(text)
        except ValueError:
            number = 0.5  # not a whole number either way
        if not number.is_integer() or number < 1 or number > 100:
            raise ValueError(_("“%(value)s” is not a whole number from 1 to 100.") % {"value": text})
        return int(number)

    def render(self, value, obj=None, **kwargs):
        return "" if value is None else str(value)


def _choice_column(name: str) -> fields.Field:
    """A column of one of the character's choices; an empty cell takes the model's default."""
    model_field = Character._meta.get_field(name)
    if not isinstance(model_field, models.Field):
        raise LookupError(f"Character.{name} is not a column")
    widget = ChoiceWidget(model_field.flatchoices, required=False)
    return fields.Field(attribute=name, column_name=name, widget=widget, default=model_field.default)


class CharacterResource(resources.ModelResource):
    name = fields.Field(attribute="name", column_name="name", widget=widgets.CharWidget())
    player = fields.Field(attribute="player", column_name="player", widget=UsernameWidget())
    side = _choice_column("side")
    kind = _choice_column("kind")
    power_level = _choice_column("power_level")
    condition = _choice_column("condition")
    arsenal_limit = fields.Field(attribute="arsenal_limit", column_name="arsenal_limit", widget=LimitWidget())
    status = _choice_column("status")
    arrived = fields.Field(attribute="arrived", column_name="arrived", widget=YesNoWidget())
    notes = fields.Field(attribute="notes", column_name="notes", widget=widgets.CharWidget())

    class Meta:
        model = Character
        fields = COLUMNS
        export_order = COLUMNS
        # A row updates the event's character of the same name, or creates one.
        import_id_fields = ["name"]
        clean_model_instances = True
        skip_diff = True
        use_transactions = True

    def __init__(self, event: Event, **kwargs):
        super().__init__(**kwargs)
        self.event = event
        self._names_seen: set[str] = set()

    def get_queryset(self):
        return Character.objects.filter(event=self.event).select_related("player")

    def init_instance(self, row=None):
        return Character(event=self.event)

    def before_import(self, dataset, **kwargs):
        self._names_seen = set()

    def before_import_row(self, row, **kwargs):
        for key, value in row.items():
            if isinstance(value, str):
                value = value.strip()
                if len(value) > 1 and value[0] == "'" and value[1] in FORMULA_STARTS:
                    value = value[1:]
                row[key] = value
        name = str(row.get("name") or "").casefold()
        if name and name in self._names_seen:
            raise ValueError(_("The name “%(name)s” appears twice in the file.") % {"name": row["name"]})
        self._names_seen.add(name)

    def get_instance(self, instance_loader, row):
        try:
            return super().get_instance(instance_loader, row)
        except Character.MultipleObjectsReturned:
            raise ValueError(
                _("The event has several characters named “%(name)s”; rename them first.") % {"name": row["name"]}
            ) from None

    def before_save_instance(self, instance, row, **kwargs):
        if instance.arrived and instance.arrived_at is None:
            instance.arrived_at = timezone.now()
        elif not instance.arrived:
            instance.arrived_at = None

    def export_field(self, field, instance, **kwargs):
        value = super().export_field(field, instance, **kwargs)
        if isinstance(value, str) and value.startswith(FORMULA_STARTS):
            return "'" + value
        return value


@dataclass
class ImportReport:
    errors: list[tuple[int | None, str]] = field(default_factory=list)
    created: int = 0
    updated: int = 0


def _csv_dataset(content: bytes) -> tablib.Dataset:
    for encoding in ("utf-8-sig", "cp1251"):
        try:
            text = content.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:  # pragma: no cover - cp1251 decodes almost anything
        raise ImportFileError(_("The file is not readable text."))
    try:
        dialect = csv.Sniffer().sniff(text.split("\n", 1)[0], delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        delimiter = ","
    try:
        # newline="": the csv module itself reads line breaks, also those inside quoted cells.
        rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
    except csv.Error:
        raise ImportFileError(_("The file could not be read as CSV.")) from None
    return _dataset(rows)


def _xlsx_dataset(content: bytes) -> tablib.Dataset:
    try:
        sheet = XLSX().create_dataset(content)
    except Exception as exc:  # openpyxl raises many kinds for a broken file
        raise ImportFileError(_("The file could not be read as an XLSX workbook.")) from exc
    return _dataset([list(sheet.headers or []), *sheet])


def _blank(row: list) -> bool:
    return all(cell is None or str(cell).strip() == "" for cell in row)


def _dataset(rows: list[list]) -> tablib.Dataset:
    """Headers normalised; blank rows dropped; each row keeps its line number in the file."""
    first = next((i for i, row in enumerate(rows) if not _blank(row)), None)
    if first is None:
        raise ImportFileError(_("The file is empty."))
    if any(isinstance(cell, str) and "\x00" in cell for row in rows for cell in row):
        # NUL bytes are no text (a binary or UTF-16 file): SQLite would store them in names, PostgreSQL refuses them.
        raise ImportFileError(_("The file is not readable text."))
    headers = [str(h or "").strip().lower().replace(" ", "_") for h in rows[first]]
    unknown = [h for h in headers if h and h not in COLUMNS]
    if unknown:
        raise ImportFileError(
            _("Unknown columns: %(unknown)s. The columns are: %(columns)s.")
            % {"unknown": ", ".join(unknown), "columns": ", ".join(COLUMNS)}
        )
    if "name" not in headers:
        raise ImportFileError(_("The file has no “name” column."))
    if len(set(filter(None, headers))) != len([h for h in headers if h]):
        raise ImportFileError(_("A column appears twice in the file."))
    keep = [i for i, h in enumerate(headers) if h]
    dataset = tablib.Dataset(headers=[headers[i] for i in keep])
    dataset.line_numbers = []
    for line, row in enumerate(rows[first + 1 :], start=first + 2):
        if _blank(row):
            continue
        padded = list(row) + [None] * (len(headers) - len(row))
        dataset.append([padded[i] for i in keep])
        dataset.line_numbers.append(line)
    if not len(dataset):
        raise ImportFileError(_("The file has no rows to import."))
    return dataset


def load_dataset(content: bytes, file_format: str) -> tablib.Dataset:
    if file_format == "xlsx":
        return _xlsx_dataset(content)
    return _csv_dataset(content)


def _errors(result, line_numbers: list[int]) -> list[tuple[int | None, str]]:
    errors: list[tuple[int | None, str]] = [(None, str(error.error)) for error in result.base_errors]
    for number, row_errors in result.row_errors():
        for error in row_errors:
            errors.append((line_numbers[number - 1], str(error.error)))
    for invalid in result.invalid_rows:
        for column, messages in invalid.error_dict.items():
            prefix = "" if column == "__all__" else f"{column}: "
            for message in messages:
                errors.append((line_numbers[invalid.number - 1], prefix + str(message)))
    errors.sort(key=lambda item: item[0] or 0)
    return errors


def import_characters(event: Event, dataset: tablib.Dataset) -> ImportReport:
    """Check every row, then import all of them at once — or nothing if any row is wrong."""
    lines = getattr(dataset, "line_numbers", None) or list(range(2, len(dataset) + 2))
    options = {"use_transactions": True, "rollback_on_validation_errors": True, "raise_errors": False}
    checked = CharacterResource(event).import_data(dataset, dry_run=True, **options)
    report = ImportReport(errors=_errors(checked, lines))
    if report.errors:
        return report
    with transaction.atomic():
        result = CharacterResource(event).import_data(dataset, dry_run=False, **options)
        report.errors = _errors(result, lines)
        if report.errors:
            # Someone changed the event between the check and the import: undo it all.
            transaction.set_rollback(True)
            return report
    report.created = result.totals["new"]
    report.updated = result.totals["update"]
    return report


def export_characters(event: Event, file_format: str) -> bytes | str:
    dataset = CharacterResource(event).export(
        Character.objects.filter(event=event).select_related("player").order_by("name", "pk")
    )
    if file_format == "xlsx":
        return XLSX().export_data(dataset)
    return dataset.export("csv")

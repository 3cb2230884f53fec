"""Characters to and from CSV/XLSX/JSON (django-import-export), always within one event.

Columns use fixed English keys (``name``, ``player``, ``side`` …) so that a file
exported in one language imports in any other. Reading, row numbers, limits and
the all-or-nothing run are the shared pipeline's (helpers/tables.py).
"""

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from import_export import fields, resources, widgets

from events.models import Character, Event
from helpers.tables import ImportReport, Table, export_bytes, read_table, run_import

COLUMNS = ("name", "player", "side", "kind", "power_level", "condition", "arsenal_limit", "status", "arrived", "notes")


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
    """The player's user name as written; never looked up, so no row says whether an account exists (issue 13)."""

    def clean(self, value, row=None, **kwargs):
        return "" if value is None else str(value).strip()

    def render(self, value, obj=None, **kwargs):
        return value.get_username() if value is not None else ""


class PlayerField(fields.Field):
    """Naming a player invites that account, as the character form does (events/forms.py CharacterForm).

    An empty cell leaves the character without a player; the current player's
    own name changes nothing; any other name becomes the invitation, accepted
    on the account's home page.
    """

    def save(self, instance, row, is_m2m=False, **kwargs):
        username = self.clean(row, **kwargs)
        current = instance.player.get_username() if instance.player_id else ""
        if not username:
            instance.player, instance.invited_username = None, ""
        elif username.casefold() != current.casefold():
            instance.invited_username = username
        else:
            instance.invited_username = ""


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
    player = PlayerField(attribute="player", column_name="player", widget=UsernameWidget())
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
        # Cells arrive stripped and without an export's anti-formula apostrophe (helpers/tables.py).
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


def read_characters(content: bytes, file_format: str) -> Table:
    """The characters file through the shared pipeline (helpers/tables.py). Raises ``TableError``."""
    return read_table(content, file_format, columns=COLUMNS, required=("name",))


def import_characters(event: Event, table: Table) -> ImportReport:
    """Check every row, then import all of them at once — or nothing if any row is wrong."""
    return run_import(lambda: CharacterResource(event), table)


def export_characters(event: Event, file_format: str) -> bytes:
    dataset = CharacterResource(event).export(
        Character.objects.filter(event=event).select_related("player").order_by("name", "pk")
    )
    return export_bytes(dataset, file_format)

"""Import and export of mass-battle data: magic cards, the armlist, and the armies' warriors.

Same conventions as ``cards.resources``, through the shared pipeline
(helpers/tables.py: encodings, limits, row numbers, all or nothing): choices
by value or by label in any of the site's languages; matching by name so a
second import updates instead of duplicating. Magic cards belong to the
event's catalogue; warrior types and warriors to the event.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from import_export import fields, resources, widgets

from cards.models_mass import Army, MagicCard, MagicType, Warrior, WarriorType
from cards.resources_base import ScopedResource, TextCells
from events.import_widgets import ChoiceWidget, ModelResource, YesNoWidget
from events.imports.journal import label
from events.imports.kinds import ResourceKind, register
from events.models import Character, Event
from helpers.tables import TableError, export_bytes

MAGIC_CARD_COLUMNS = ("name_ru", "name_en", "deck", "magic_type", "text", "acts_on_protected", "keepable", "copies")
# M3: files written before the rename say "negative", the opposite of "acts_on_protected"; still accepted.
OLD_NEGATIVE = "negative"
MAGIC_CARD_IMPORT_COLUMNS = (*MAGIC_CARD_COLUMNS, OLD_NEGATIVE)
WARRIOR_TYPE_COLUMNS = ("name_ru", "name_en", "protections", "description")
WARRIOR_COLUMNS = ("army", "name", "warrior_type", "character", "state")
COLUMNS = {"magic_cards": MAGIC_CARD_COLUMNS, "warrior_types": WARRIOR_TYPE_COLUMNS, "warriors": WARRIOR_COLUMNS}
REQUIRED = {
    "magic_cards": ("name_ru", "deck", "magic_type"),
    "warrior_types": ("name_ru",),
    "warriors": COLUMNS["warriors"][:3],
}


class MagicCardResource(ScopedResource):
    deck = fields.Field("deck", "deck", widget=ChoiceWidget([(d, str(d)) for d in (2, 4, 5, 6)]))
    magic_type = fields.Field("magic_type", "magic_type", widget=ChoiceWidget(MagicType.choices))
    acts_on_protected = fields.Field("acts_on_protected", "acts_on_protected", widget=YesNoWidget())
    keepable = fields.Field("keepable", "keepable", widget=YesNoWidget())
    # Read only to fill ``acts_on_protected`` (before_import_row); never written, never exported.
    negative = fields.Field(attribute=None, column_name=OLD_NEGATIVE, readonly=True)
    scope_field, ordering, text_columns = "catalogue", ("deck", "name_ru"), ("name_ru", "name_en", "text")

    def get_export_fields(self, *args: Any, **kwargs: Any) -> list[Any]:
        return [f for f in super().get_export_fields(*args, **kwargs) if f.column_name != OLD_NEGATIVE]

    def before_import_row(self, row: Any, **kwargs: Any) -> None:
        super().before_import_row(row, **kwargs)
        if OLD_NEGATIVE in row and "acts_on_protected" not in row:
            old = row[OLD_NEGATIVE]
            if old is None or str(old).strip() == "":
                row["acts_on_protected"] = "no"  # no word: the default, protection covers the card
            else:
                # A card that was not negative acted on protected warriors (M3).
                row["acts_on_protected"] = "no" if YesNoWidget().clean(old) else "yes"

    class Meta:
        model = MagicCard
        fields = MAGIC_CARD_IMPORT_COLUMNS
        export_order = MAGIC_CARD_COLUMNS
        import_id_fields = ("name_ru",)
        clean_model_instances = True
        skip_diff = True


class WarriorTypeResource(ScopedResource):
    scope_field, ordering, text_columns = "event", ("name_ru",), WARRIOR_TYPE_COLUMNS

    class Meta:
        model = WarriorType
        fields = WARRIOR_TYPE_COLUMNS
        export_order = WARRIOR_TYPE_COLUMNS
        import_id_fields = ("name_ru",)
        clean_model_instances = True
        skip_diff = True


class _ByName(widgets.ForeignKeyWidget):
    """A row of this event by its name (an army is created on first mention; the rest must exist)."""

    def __init__(self, model: Any, event: Event, field: str, *, create: bool = False, required: bool = True) -> None:
        super().__init__(model, field=field)
        self.event, self.create, self.required = event, create, required
        # [model label, pk] of each row created on the way: an import's journal lists them (events/imports).
        self.created: list[list[Any]] = []

    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> Any:
        name = "" if value is None else str(value).strip()
        if not name:
            if self.required:
                raise ValueError(_("This column may not be empty."))
            return None
        found = self.model.objects.filter(event=self.event, **{self.field: name}).first()
        if found is None and self.create:
            found = self.model.objects.create(event=self.event, **{self.field: name})
            self.created.append([label(self.model), found.pk])
        if found is None:
            raise ValueError(_("“%(name)s” is not in this event.") % {"name": name})
        return found

    def render(self, value: Any, obj: Any = None, **kwargs: Any) -> str:
        return "" if value is None else str(getattr(value, self.field))


class WarriorResource(TextCells, ModelResource):
    state = fields.Field("state", "state", widget=ChoiceWidget(Warrior.State.choices, required=False))
    text_columns = ("army", "name", "warrior_type", "character")

    class Meta:
        model = Warrior
        fields = WARRIOR_COLUMNS
        export_order = WARRIOR_COLUMNS
        import_id_fields = ("army", "name")
        clean_model_instances = True
        skip_diff = True

    def __init__(self, event: Event) -> None:
        self.event = event
        super().__init__()
        self.fields["army"] = fields.Field("army", "army", widget=_ByName(Army, event, "name", create=True))
        self.fields["warrior_type"] = fields.Field(
            "warrior_type", "warrior_type", widget=_ByName(WarriorType, event, "name_ru")
        )
        self.fields["character"] = fields.Field(
            "character", "character", widget=_ByName(Character, event, "name", required=False)
        )

    @property
    def created_on_the_way(self) -> list[list[Any]]:
        """The armies this resource created for its rows (an import's journal deletes them on undo)."""
        return list(self.fields["army"].widget.created)

    def get_queryset(self) -> QuerySet[Warrior]:
        return (
            Warrior.objects.filter(army__event=self.event)
            .select_related("army", "warrior_type", "character")
            .order_by("army__name", "name")
        )

    def get_instance(self, instance_loader: Any, row: Any) -> Warrior | None:
        try:
            return super().get_instance(instance_loader, row)
        except ValueError:
            return None  # reported as the column's error by import_instance

    def before_import_row(self, row: Any, **kwargs: Any) -> None:
        super().before_import_row(row, **kwargs)
        if "state" in row and not row["state"]:
            row["state"] = Warrior.State.FIELD


def resource_for(what: str, event: Event) -> resources.ModelResource:
    if what == "magic_cards":
        if event.catalogue is None:
            raise TableError(_("The event has no card catalogue yet."))
        return MagicCardResource(event.catalogue)
    return WarriorTypeResource(event) if what == "warrior_types" else WarriorResource(event)


def _catalogue_of(event: Event) -> Any:
    if event.catalogue is None:
        raise TableError(_("The event has no card catalogue yet."))
    return event.catalogue


MASS_KINDS = (
    ResourceKind(
        key="magic_cards",
        label=gettext_lazy("magic cards"),
        columns=MAGIC_CARD_IMPORT_COLUMNS,
        labels={OLD_NEGATIVE: gettext_lazy("negative (old column: the opposite of “acts on protected warriors too”)")},
        required=REQUIRED["magic_cards"],
        done_view="cards:mass-data",
        make_resource=lambda event: MagicCardResource(_catalogue_of(event)),
        identity=("name_ru",),
    ),
    ResourceKind(
        key="warrior_types",
        label=gettext_lazy("armlist (warrior types)"),
        columns=WARRIOR_TYPE_COLUMNS,
        required=REQUIRED["warrior_types"],
        done_view="cards:mass-data",
        make_resource=WarriorTypeResource,
        identity=("name_ru",),
    ),
    ResourceKind(
        key="warriors",
        label=gettext_lazy("warriors of the armies"),
        columns=WARRIOR_COLUMNS,
        required=REQUIRED["warriors"],
        done_view="cards:mass-data",
        make_resource=WarriorResource,
        identity=("army", "name"),
        # A warriors' file creates the armies it names: checked in short transactions rolled back.
        check_in_transaction=True,
        find_names=lambda event: {
            "warrior_type": WarriorType.objects.filter(event=event).values_list("name_ru", flat=True),
            "character": Character.objects.filter(event=event).values_list("name", flat=True),
        },
    ),
)


def register_kinds() -> None:
    for kind in MASS_KINDS:
        register(kind)


def export_file(event: Event, what: str, file_format: str) -> bytes:
    """Magic cards, the armlist or the warriors as a file, safe to open in a spreadsheet."""
    return export_bytes(resource_for(what, event).export(), file_format)

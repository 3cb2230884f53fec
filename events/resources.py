"""Characters to and from CSV/XLSX/JSON (django-import-export), always within one event.

Columns use fixed English keys (``name``, ``player``, ``side`` …) so that a file
exported in one language imports in any other. Reading, row numbers, limits and
the all-or-nothing run are the shared pipeline's (helpers/tables.py).
"""

from collections import defaultdict
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from import_export import fields, instance_loaders, widgets

from events.import_widgets import (
    ChoiceWidget,
    ContactField,
    EmailField,
    GroupsWidget,
    LimitWidget,
    ModelResource,
    PlayerField,
    UsernameWidget,
    YesNoWidget,
)
from events.imports.kinds import ResourceKind, RowErrors, register
from events.models import Character, Event
from helpers.names import mixed_script_note, name_key
from helpers.tables import Table, export_bytes, read_table

# The columns of a characters file; after ``notes``, what an import from another tool brings (issue 22).
COLUMNS = (
    "name",
    "player",
    "side",
    "kind",
    "power_level",
    "condition",
    "arsenal_limit",
    "status",
    "arrived",
    "notes",
    "email",
    "player_name",
    "vk",
    "telegram",
    "groups",
    "external_id",
)


def _choice_column(name: str) -> fields.Field:
    """A column of one of the character's choices; an empty cell takes the model's default."""
    model_field = Character._meta.get_field(name)
    if not isinstance(model_field, models.Field):
        raise LookupError(f"Character.{name} is not a column")
    widget = ChoiceWidget(model_field.flatchoices, required=False)
    return fields.Field(attribute=name, column_name=name, widget=widget, default=model_field.default)


class CharactersByName(instance_loaders.ModelInstanceLoader):
    """The event's characters a batch names, read in one query (not one per row).

    A row with the character's id in the other tool (``external_id``: a second import from
    JoinRPG, or its sync) finds it by that id, renamed or not; any other row by its name.
    """

    def __init__(self, resource: Any, dataset: Any = None) -> None:
        super().__init__(resource, dataset)
        headers = dataset.headers if dataset is not None else []
        names = {str(n).strip() for n in dataset["name"] if n} if "name" in headers else set()
        ids = {str(n).strip() for n in dataset["external_id"] if n} if "external_id" in headers else set()
        self.found: dict[str, list[Character]] = defaultdict(list)
        self.by_id: dict[str, Character] = {}
        query = Q(name__in=names) | Q(external_id__in=ids) if ids else Q(name__in=names)
        for character in resource.get_queryset().filter(query):
            self.found[character.name].append(character)
            if character.external_id:
                self.by_id[character.external_id] = character

    def get_instance(self, row: Any) -> Character | None:
        known = self.by_id.get(str(row.get("external_id") or "").strip())
        if known is not None:
            return known
        found = self.found.get(str(row.get("name") or "").strip(), [])
        if len(found) > 1:
            raise Character.MultipleObjectsReturned
        return found[0] if found else None


class CharacterResource(ModelResource):
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
    email = EmailField(attribute="invited_email", column_name="email", widget=widgets.CharWidget())
    player_name = ContactField("player_name", key="name")
    vk = ContactField("vk", attribute="contact_vk")
    telegram = ContactField("telegram", attribute="contact_telegram")
    groups = fields.Field(attribute="groups", column_name="groups", widget=GroupsWidget())
    external_id = fields.Field(attribute="external_id", column_name="external_id", widget=widgets.CharWidget())

    class Meta:
        model = Character
        fields = COLUMNS
        export_order = COLUMNS
        # A row updates the event's character of the same name, or creates one.
        import_id_fields = ["name"]
        clean_model_instances = True
        skip_diff = True
        use_transactions = True
        instance_loader_class = CharactersByName

    def __init__(self, event: Event, **kwargs):
        super().__init__(**kwargs)
        self.event = event
        self.taken_name_keys: dict[str, list[int]] = {}

    def before_import(self, dataset, **kwargs):
        # One query for the folded names of the whole batch, instead of one per row (issue 27).
        keys = {name_key(str(name)) for name in dataset["name"] if name} if "name" in dataset.headers else set()
        self.taken_name_keys = defaultdict(list)
        rows = Character.objects.filter(event=self.event, name_key__in=keys).values_list("name_key", "pk")
        for key, pk in rows:
            self.taken_name_keys[key].append(pk)

    def after_init_instance(self, instance, new, row, **kwargs):
        instance.taken_name_keys = self.taken_name_keys

    def validate_instance(self, instance, import_validation_errors=None, validate_unique=True):
        # The event is the page's own and the player is set by the invitation, never by a cell:
        # no query per row to check that they exist. The only unique column is the random link.
        errors = dict(import_validation_errors or {})
        for column in ("event", "player", "focus_card"):
            errors.setdefault(column, None)
        known = {key: value for key, value in errors.items() if value is not None}
        try:
            instance.full_clean(exclude=list(errors), validate_unique=False)
        except ValidationError as error:
            known = error.update_error_dict(known)
        if known:
            raise ValidationError(known)

    def get_queryset(self):
        return Character.objects.filter(event=self.event).select_related("player")

    def init_instance(self, row=None):
        return Character(event=self.event)

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


def mixed_script_names(table: Table, column: str = "name") -> RowErrors:
    """A warning for each name that mixes scripts in a word (a Latin A among Cyrillic letters): most likely a typo."""
    if column not in table.headers:
        return []
    index = table.headers.index(column)
    notes = (
        (number, mixed_script_note(row[index]) if isinstance(row[index], str) else None)
        for number, row in zip(table.numbers, table.rows, strict=True)
    )
    return [(number, column, note) for number, note in notes if note]


# Other names a header may give a column: Russian organizers' own tables, JoinRPG project fields,
# allrpg.info and Google Forms questions (the presets of events/imports/presets.py name theirs).
ALIASES = {
    "name": ("имя", "персонаж", "имя персонажа", "character", "character name", "роль"),
    "player": ("игрок", "логин", "username", "user name", "user", "аккаунт"),
    "side": ("сторона", "фракция", "сторона конфликта"),
    "kind": ("вид", "тип", "вид иного", "kind of other", "раса"),
    "power_level": ("уровень силы", "уровень", "сила", "level", "power"),
    "condition": ("состояние",),
    "arsenal_limit": ("лимит арсенала", "размер арсенала", "arsenal size"),
    "status": ("статус", "статус заявки"),
    "arrived": ("приехал", "заехал", "заезд", "отметка о заезде"),
    "notes": ("заметки", "примечания", "комментарий мастеров"),
    "email": ("e-mail", "почта", "электронная почта", "адрес электронной почты", "email address", "игрок.email"),
    "player_name": ("имя игрока", "фио", "player's name"),
    "vk": ("вк", "вконтакте", "vkontakte", "игрок.extra.vk"),
    "telegram": ("телеграм", "телеграмм", "tg", "игрок.extra.telegram"),
    "groups": ("группы", "группа", "groups", "group"),
    "external_id": ("id", "номер заявки", "ссылка"),
}
LABELS = {
    "email": gettext_lazy("player's e-mail"),
    "player_name": gettext_lazy("player's name"),
    "vk": gettext_lazy("VK"),
    "telegram": gettext_lazy("Telegram"),
    "player": gettext_lazy("player (user name, or name with an e-mail)"),
}

CHARACTERS = ResourceKind(
    key="characters",
    label=gettext_lazy("characters"),
    columns=COLUMNS,
    required=("name",),
    make_resource=CharacterResource,
    identity=("name",),
    warn=mixed_script_names,
    aliases=ALIASES,
    labels=LABELS,
    done_text=gettext_lazy("Imported: %(created)d new characters, %(updated)d updated."),
)


def register_kinds() -> None:
    register(CHARACTERS)


def export_characters(event: Event, file_format: str) -> bytes:
    dataset = CharacterResource(event).export(
        Character.objects.filter(event=event).select_related("player").order_by("name", "pk")
    )
    return export_bytes(dataset, file_format)

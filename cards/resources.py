"""Import and export of a catalogue's cards and counter rules (django-import-export).

Reading, row numbers, limits and the all-or-nothing run are the shared
pipeline's (helpers/tables.py), as for the characters.

Files carry the stable values (``attack``, ``parried``...), so an export imports
back unchanged; on import a choice may also be written as its label in any of
the site's languages, in any case. Cards are matched by their Russian name within the
catalogue, counter rules by (defence card, attack card or tag): importing again
updates instead of duplicating.
"""

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from import_export import fields, widgets

from cards.forms import CARD_FIELDS, normalise_tags
from cards.models import Card, Catalogue, CounterRule, Effect
from cards.resources_base import ScopedResource
from events.import_widgets import ChoiceWidget, ModelResource
from events.imports.kinds import ResourceKind, register
from helpers.tables import export_bytes

CARD_COLUMNS = CARD_FIELDS
RULE_COLUMNS = ("defence_card", "attack_card", "attack_tag", "outcome")


class CardByName(widgets.ForeignKeyWidget):
    """A card of this catalogue and kind, by its Russian (or English) name."""

    def __init__(self, catalogue: Catalogue, kind: str) -> None:
        super().__init__(Card, field="name_ru")
        self.catalogue = catalogue
        self.kind = kind

    def clean(self, value: Any, row: Any = None, **kwargs: Any) -> Card | None:
        name = str(value if value is not None else "").strip()
        if not name:
            return None
        cards = Card.objects.filter(catalogue=self.catalogue, kind=self.kind)
        card = cards.filter(name_ru=name).first() or cards.filter(name_en=name).first()
        if card is None:
            kind_label = Card.Kind(self.kind).label
            raise ValueError(_("No %(kind)s card “%(name)s” in this catalogue.") % {"kind": kind_label, "name": name})
        return card


class CardResource(ScopedResource):
    category = fields.Field("category", "category", widget=ChoiceWidget(Card.Category.choices))
    kind = fields.Field("kind", "kind", widget=ChoiceWidget(Card.Kind.choices))
    magic_type = fields.Field("magic_type", "magic_type", widget=ChoiceWidget(Card.MagicType.choices))
    full_effect = fields.Field("full_effect", "full_effect", widget=ChoiceWidget(Effect.choices))
    softened_effect = fields.Field("softened_effect", "softened_effect", widget=ChoiceWidget(Effect.choices))
    action_kind = fields.Field("action_kind", "action_kind", widget=ChoiceWidget(Card.ActionKind.choices))
    trigger_kind = fields.Field("trigger_kind", "trigger_kind", widget=ChoiceWidget(Card.TriggerKind.choices))
    double_attack = fields.Field("double_attack", "double_attack", widget=widgets.BooleanWidget())

    class Meta:
        model = Card
        fields = CARD_COLUMNS
        export_order = CARD_COLUMNS
        import_id_fields = ("name_ru",)
        clean_model_instances = True
        skip_diff = True

    scope_field, ordering, text_columns = "catalogue", ("kind", "name_ru"), CARD_COLUMNS

    def before_import_row(self, row: Any, **kwargs: Any) -> None:
        super().before_import_row(row, **kwargs)
        if "tags" in row:
            row["tags"] = normalise_tags(row["tags"])


class CounterRuleResource(ModelResource):
    class Meta:
        model = CounterRule
        fields = RULE_COLUMNS
        export_order = RULE_COLUMNS
        import_id_fields = ("defence_card", "attack_card", "attack_tag")
        clean_model_instances = True
        skip_diff = True

    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        super().__init__()
        self.fields["defence_card"] = fields.Field(
            "defence_card", "defence_card", widget=CardByName(catalogue, Card.Kind.DEFENCE)
        )
        self.fields["attack_card"] = fields.Field(
            "attack_card", "attack_card", widget=CardByName(catalogue, Card.Kind.ATTACK)
        )
        self.fields["outcome"] = fields.Field("outcome", "outcome", widget=ChoiceWidget(CounterRule.Outcome.choices))

    def get_queryset(self) -> QuerySet[CounterRule]:
        return (
            CounterRule.objects.filter(defence_card__catalogue=self.catalogue)
            .select_related("defence_card", "attack_card")
            .order_by("defence_card__name_ru", "attack_card__name_ru", "attack_tag")
        )

    def get_instance(self, instance_loader: Any, row: Any) -> CounterRule | None:
        # An unknown card name is reported as that column's error by import_instance,
        # not as a crash while looking the rule up.
        try:
            return super().get_instance(instance_loader, row)
        except ValueError:
            return None

    def before_import_row(self, row: Any, **kwargs: Any) -> None:
        if "attack_tag" in row:
            row["attack_tag"] = "" if row["attack_tag"] is None else str(row["attack_tag"]).strip().lower()

    def validate_instance(self, instance: CounterRule, import_validation_errors: Any = None, **kwargs: Any) -> None:
        errors = dict(import_validation_errors or {})
        has_card = instance.attack_card_id is not None or "attack_card" in errors
        if has_card == bool(instance.attack_tag):
            # Keyed on attack_tag, which also keeps full_clean from adding the raw constraint name.
            errors.setdefault(
                "attack_tag", ValidationError(_("Give either an attack card or an attack tag, not both or neither."))
            )
        super().validate_instance(instance, errors, **kwargs)


def resource_for(what: str, catalogue: Catalogue) -> CardResource | CounterRuleResource:
    return CardResource(catalogue) if what == "cards" else CounterRuleResource(catalogue)


def expected_columns(what: str) -> tuple[str, ...]:
    return CARD_COLUMNS if what == "cards" else RULE_COLUMNS


def required_columns(what: str) -> tuple[str, ...]:
    """Cards are matched by name, so only the name column is needed; a rule needs all its columns."""
    return ("name_ru",) if what == "cards" else RULE_COLUMNS


def _card_names(event: Any, kind: str) -> list[str]:
    cards = Card.objects.filter(catalogue=event.catalogue, kind=kind).values_list("name_ru", "name_en")
    return [name for pair in cards for name in pair if name]


CATALOGUE_KINDS = (
    ResourceKind(
        key="cards",
        label=gettext_lazy("catalogue cards"),
        columns=CARD_COLUMNS,
        required=("name_ru",),
        done_view="cards:catalogue-import",
        make_resource=lambda event: CardResource(event.catalogue),
        identity=("name_ru",),
        aliases={
            "name_ru": ("название", "имя", "карта", "название карты", "name"),
            "name_en": ("english name", "english", "название по-английски"),
            "kind": ("тип", "атака или защита"),
            "category": ("категория", "заклинание или способность"),
            "rules_text": ("текст", "описание", "правила"),
        },
    ),
    ResourceKind(
        key="counter_rules",
        label=gettext_lazy("counter rules"),
        columns=RULE_COLUMNS,
        required=RULE_COLUMNS,
        done_view="cards:catalogue-import",
        make_resource=lambda event: CounterRuleResource(event.catalogue),
        find_names=lambda event: {
            "defence_card": _card_names(event, Card.Kind.DEFENCE),
            "attack_card": _card_names(event, Card.Kind.ATTACK),
        },
    ),
)


def register_kinds() -> None:
    for kind in CATALOGUE_KINDS:
        register(kind)


def export_file(catalogue: Catalogue, what: str, file_format: str) -> bytes:
    """The catalogue's cards or counter rules as a file, safe to open in a spreadsheet."""
    return export_bytes(resource_for(what, catalogue).export(), file_format)

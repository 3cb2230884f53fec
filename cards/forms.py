"""Forms of the cards pages: catalogue, card, pool, arsenal selection, focus, import/export."""

import re
from typing import Any, cast

from django import forms
from django.db.models import Q, QuerySet
from django.utils.translation import gettext_lazy as _

from cards.models import Card, Catalogue, PoolEntry
from events.models import same_name_exists
from helpers import tables
from helpers.ids import MAX_ID

MAX_COPIES = 99
CARD_FIELD = re.compile(r"^card_(\d+)$")
# The largest id a database row can have (a signed 64-bit integer): a larger one
# posted by hand names no card, and the database would refuse to even look it up.


def normalise_tags(raw: str) -> str:
    """Tags are compared lower-case (CR2 tag rules); keep each once, in the order given."""
    seen: list[str] = []
    for tag in raw.split(","):
        tag = tag.strip().lower()
        if tag and tag not in seen:
            seen.append(tag)
    return ", ".join(seen)


class CatalogueForm(forms.ModelForm):
    class Meta:
        model = Catalogue
        fields = ["name", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 2})}


# What an organizer edits on a card, and the columns of a catalogue file (cards/resources.py).
CARD_FIELDS = (
    "name_ru",
    "name_en",
    "category",
    "kind",
    "magic_type",
    "full_effect",
    "softened_effect",
    "rules_text",
    "tags",
    "action_kind",
    "trigger_text",
    "trigger_kind",
    "double_attack",
)


class CardForm(forms.ModelForm):
    class Meta:
        model = Card
        fields = list(CARD_FIELDS)
        widgets = {"rules_text": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args: Any, catalogue: Catalogue, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.instance.catalogue = catalogue
        self.catalogue = catalogue

    def clean_name_ru(self) -> str:
        # The unique constraint involves ``catalogue``, which is not a form field,
        # so Django's own unique check skips it; names that look the same clash too.
        name = self.cleaned_data["name_ru"]
        others = Card.objects.filter(catalogue=self.catalogue).exclude(pk=self.instance.pk)
        if same_name_exists(others, name, "name_ru"):
            raise forms.ValidationError(_("The catalogue already has a card with this name."))
        return name

    def clean_tags(self) -> str:
        return normalise_tags(self.cleaned_data["tags"])


class CardFilterForm(forms.Form):
    q = forms.CharField(label=_("Search"), required=False, max_length=100)
    kind = forms.ChoiceField(label=_("attack or defence"), required=False)
    category = forms.ChoiceField(label=_("spell or ability"), required=False)
    magic_type = forms.ChoiceField(label=_("magic type"), required=False)
    tag = forms.ChoiceField(label=_("tag"), required=False)

    def __init__(self, *args: Any, tags: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        anything = [("", _("any"))]
        # The fields declared above are choice fields; ``self.fields`` holds them as plain ``Field``s.
        cast(forms.ChoiceField, self.fields["kind"]).choices = anything + list(Card.Kind.choices)
        cast(forms.ChoiceField, self.fields["category"]).choices = anything + list(Card.Category.choices)
        cast(forms.ChoiceField, self.fields["magic_type"]).choices = anything + [
            c for c in Card.MagicType.choices if c[0]
        ]
        cast(forms.ChoiceField, self.fields["tag"]).choices = anything + [(t, t) for t in tags]

    def filter(self, cards: QuerySet[Card]) -> QuerySet[Card]:
        if not self.is_valid():
            return cards
        data = self.cleaned_data
        for field in ("kind", "category", "magic_type"):
            if data[field]:
                cards = cards.filter(**{field: data[field]})
        if data["tag"]:
            # Tags are a comma-separated list: match a whole tag, not a substring of another.
            cards = cards.filter(tags__iregex=r"(^|,)\s*" + re.escape(data["tag"]) + r"\s*(,|$)")
        if data["q"]:
            # iregex, not icontains: SQLite's LIKE folds the case of ASCII letters only, not of Cyrillic.
            pattern = re.escape(data["q"].strip())
            cards = cards.filter(
                Q(name_ru__iregex=pattern) | Q(name_en__iregex=pattern) | Q(rules_text__iregex=pattern)
            )
        return cards


class PoolAddForm(forms.Form):
    card = forms.ModelChoiceField(label=_("Card"), queryset=Card.objects.none())
    copies = forms.IntegerField(label=_("Copies"), min_value=1, max_value=MAX_COPIES, initial=1)

    def __init__(self, *args: Any, catalogue: Catalogue | None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if catalogue is not None:
            cast(forms.ModelChoiceField, self.fields["card"]).queryset = catalogue.cards.order_by("kind", "name_ru")


class PoolCopiesForm(forms.Form):
    copies = forms.IntegerField(label=_("copies"), min_value=0, max_value=MAX_COPIES)


class ArsenalSelectionForm(forms.Form):
    """Copies per pool card; the rules check (limit, pool, copies) is the engine's, not the form's."""

    name = forms.CharField(label=_("name of the prepared arsenal"), required=False, max_length=100)

    def __init__(self, *args: Any, pool: list[PoolEntry], selected: dict[int, int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pool = pool
        for entry in pool:
            self.fields[f"card_{entry.card_id}"] = forms.IntegerField(
                label=entry.card.name,
                min_value=0,
                max_value=MAX_COPIES,
                required=False,
                initial=selected.get(entry.card_id, 0),
            )

    def pool_rows(self) -> list[tuple[PoolEntry, forms.BoundField]]:
        return [(entry, self[f"card_{entry.card_id}"]) for entry in self.pool]

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        # Cards posted that are not in the pool are kept, so the engine can refuse
        # them by name instead of the form silently dropping them.
        extra: dict[int, int] = {}
        for key, value in self.data.items():
            match = CARD_FIELD.match(key)
            if match and key not in self.fields:
                try:
                    count = int(value or 0)
                except ValueError:
                    raise forms.ValidationError(_("Copies must be whole numbers.")) from None
                if not 0 <= count <= MAX_COPIES:
                    raise forms.ValidationError(_("Copies must be between 0 and %(max)s.") % {"max": MAX_COPIES})
                if int(match.group(1)) > MAX_ID:
                    raise forms.ValidationError(_("The selection names a card that does not exist."))
                extra[int(match.group(1))] = count
        cleaned["extra"] = extra
        return cleaned

    def card_ids(self) -> list[int]:
        """One id per copy, the form the engine's check takes."""
        ids: list[int] = []
        for entry in self.pool:
            ids.extend([entry.card_id] * (self.cleaned_data.get(f"card_{entry.card_id}") or 0))
        for card_id, count in self.cleaned_data["extra"].items():
            ids.extend([card_id] * count)
        return ids


class FocusForm(forms.Form):
    # A plain integer, not a choice among defence cards: F1 is the engine's check,
    # and a refused focus must say why.
    card = forms.IntegerField(
        label=_("focused defence card"),
        required=False,
        min_value=1,
        max_value=MAX_ID,
        widget=forms.Select(attrs={"class": "form-select"}),
    )

    def __init__(self, *args: Any, hand: list[tuple[Card, int]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [("", _("no focus"))] + [(card.pk, card.name) for card, _n in hand if not card.is_attack]
        self.fields["card"].widget.choices = choices


FILE_FORMATS = [("csv", "CSV"), ("xlsx", "XLSX"), ("json", "JSON")]


class TransferWhat(forms.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        choices = [("cards", _("cards")), ("rules", _("counter rules"))]
        super().__init__(label=_("what"), choices=choices, **kwargs)


class ImportForm(forms.Form):
    what = TransferWhat()
    file = forms.FileField(
        label=_("file"), help_text=_("CSV (UTF-8 or cp1251), XLSX or JSON, e.g. as exported from here.")
    )
    file_format = forms.ChoiceField(
        label=_("format"), choices=[("", _("from the file name")), *FILE_FORMATS], required=False
    )

    def clean(self) -> dict[str, Any]:
        super().clean()
        cleaned = self.cleaned_data
        upload = cleaned.get("file")
        if upload is None:
            return cleaned
        if upload.size > tables.MAX_BYTES:
            raise forms.ValidationError(
                _("The file is too large (at most %(limit)d MB).") % {"limit": tables.MAX_BYTES // (1024 * 1024)}
            )
        file_format = tables.format_of(upload.name, cleaned.get("file_format") or "")
        if file_format is None:
            raise forms.ValidationError(_("Choose the file's format: its name does not tell."))
        cleaned["file_format"] = file_format
        return cleaned


class ExportForm(forms.Form):
    what = TransferWhat()
    file_format = forms.ChoiceField(label=_("format"), choices=FILE_FORMATS)

"""Names people type (events, characters, cards, catalogues): one written form each.

Why: a name pasted from a chat may carry invisible characters or a right-to-left
override that makes «Завулон» render as something else on the referee's tablet,
and two names that look the same on paper («Антон» typed with a Latin A) would
be two characters the referee cannot tell apart.

``normalize_name`` is what is stored: Unicode NFKC, no format characters
(bidirectional overrides, zero-width joiners, soft hyphens, BOMs), no control
characters, and every run of white space one plain space. ``name_key`` is what
is compared for duplicates: the normalized name case-folded, with the Latin
letters that look like Cyrillic ones read as Cyrillic.
"""

import unicodedata
from collections.abc import Sequence
from typing import Any

from django import forms
from django.db import models

# Latin letters drawn the same as Cyrillic ones in common fonts, in either case
# (after case folding: the capitals T and Cyrillic Te look alike, so t counts as Te too).
_LOOKALIKES = str.maketrans("abcehkmoptxy", "авсенкмортху")


def normalize_name(value: str) -> str:
    text = unicodedata.normalize("NFKC", value)
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category == "Cf" or (category == "Cc" and not char.isspace()):
            continue  # invisible: bidi overrides and isolates, ZWJ/ZWNJ, soft hyphen, BOM, NUL
        kept.append(" " if char.isspace() else char)
    return " ".join("".join(kept).split())


def name_key(value: str) -> str:
    """Two names with the same key look the same to a person: they are duplicates."""
    return normalize_name(value).casefold().translate(_LOOKALIKES)


class NameFormField(forms.CharField):
    def to_python(self, value: object) -> str | None:
        text = super().to_python(value)
        return normalize_name(text) if text else text


class NameField(models.CharField):  # type: ignore[type-arg]  # django-stubs' generic field
    """A CharField whose value is always stored normalized, whichever way it arrives (forms, imports, admin)."""

    def pre_save(self, model_instance: models.Model, add: bool) -> Any:
        value = getattr(model_instance, self.attname)
        if isinstance(value, str):
            value = normalize_name(value)
            setattr(model_instance, self.attname, value)
        return value

    def formfield(self, **kwargs: Any) -> forms.Field | None:
        return super().formfield(**{"form_class": NameFormField, **kwargs})

    def deconstruct(self) -> tuple[str, str, Sequence[Any], dict[str, Any]]:
        # The column is a plain varchar: migrations see a CharField, so none is needed.
        name, _path, args, kwargs = super().deconstruct()
        return name, "django.db.models.CharField", args, kwargs

"""Names people type (events, characters, cards, catalogues): one written form each, one folding.

Why: a name pasted from a chat may carry invisible characters or a right-to-left
override that makes «Завулон» render as something else on the referee's tablet,
and two names that look the same on paper («Антон» typed with a Latin A, «3авулон»
with the digit 3) would be two characters the referee cannot tell apart.

``normalize_name`` is what is stored: Unicode NFKC, no format characters
(bidirectional overrides, zero-width joiners, soft hyphens, BOMs), no control
characters, and every run of white space one plain space.

``name_key`` is the one folding (issue 22), used both by the duplicate checks and by
search (events/search.py), and stored in an indexed column beside the name
(``NameKeyField``): the normalized name case-folded, «ё» read as «е», the Latin and
Greek letters drawn like Cyrillic ones read as Cyrillic, and in a word with letters
the digits drawn like letters (0 as «о», 3 as «з») read as those letters. A number
on its own («Страж 3») stays a number.

``mixed_script`` says whether a name mixes scripts inside one word: it is warned
about when it is entered, as it is most likely a typing accident.
"""

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

from django import forms
from django.db import models
from django.utils.translation import gettext as _

# Letters drawn the same as Cyrillic ones in common fonts, after case folding (so each capital's
# lower case counts: Latin T and Greek Τ look like Cyrillic Т, so t and τ read as т).
_LATIN = ("abcehkmoptxy", "авсенкмортху")
_GREEK = ("αβεηκμοπρτυχ", "авенкмопртух")
_LOOKALIKES = str.maketrans(_LATIN[0] + _GREEK[0] + "ё", _LATIN[1] + _GREEK[1] + "е")
# Digits drawn like letters, read so only inside a word that has letters («0льга», «3авулон»).
_DIGITS = str.maketrans("03", "оз")
_WORD = re.compile(r"\w+")


def normalize_name(value: str) -> str:
    text = unicodedata.normalize("NFKC", value)
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if category == "Cf" or (category == "Cc" and not char.isspace()):
            continue  # invisible: bidi overrides and isolates, ZWJ/ZWNJ, soft hyphen, BOM, NUL
        kept.append(" " if char.isspace() else char)
    return " ".join("".join(kept).split())


def _fold_word(match: re.Match[str]) -> str:
    word = match.group(0)
    if any(char.isalpha() for char in word):
        word = word.translate(_DIGITS)
    return word.translate(_LOOKALIKES)


def name_key(value: str) -> str:
    """Two names with the same key look the same to a person: they are duplicates, and search finds both."""
    return _WORD.sub(_fold_word, normalize_name(value).casefold())


def _script(char: str) -> str:
    if char.isdigit():
        return "digit"
    if not char.isalpha():
        return ""
    name = unicodedata.name(char, "")
    for script in ("CYRILLIC", "LATIN", "GREEK"):
        if name.startswith(script):
            return script
    return "other"


def mixed_script(value: str) -> bool:
    """Whether a word of the name mixes Cyrillic with Latin or Greek letters, or with a digit («3авулон»)."""
    for word in _WORD.findall(normalize_name(value)):
        scripts = {_script(char) for char in word} - {""}
        if "CYRILLIC" in scripts and scripts & {"LATIN", "GREEK", "digit"}:
            return True
    return False


def mixed_script_note(value: str) -> str | None:
    """The warning shown when a name is entered that mixes scripts in a word (None when it does not)."""
    if not mixed_script(value):
        return None
    return _("“%(name)s” mixes Cyrillic with Latin or Greek letters or digits; check how it is typed.") % {
        "name": normalize_name(value)
    }


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


class NameKeyField(models.CharField):  # type: ignore[type-arg]
    """The folded key (``name_key``) of another field of the row, computed on every save and bulk_create.

    Django calls ``pre_save`` for each field of ``save()`` and of ``bulk_create``, so no path
    that writes through the model can store a name without its key; a queryset ``update``
    of the name must set the key too. Not editable: no form or import writes it. The model
    indexes it with its scope (``Index(fields=["event", "name_key"])``).
    """

    def __init__(self, *args: Any, source: str = "name", **kwargs: Any) -> None:
        self.source = source
        kwargs.setdefault("editable", False)
        kwargs.setdefault("default", "")
        super().__init__(*args, **kwargs)

    def pre_save(self, model_instance: models.Model, add: bool) -> str:
        value = name_key(str(getattr(model_instance, self.source) or ""))
        setattr(model_instance, self.attname, value)
        return value

    def deconstruct(self) -> tuple[str, str, Sequence[Any], dict[str, Any]]:
        name, _path, args, kwargs = super().deconstruct()
        for key in ("editable", "default"):
            kwargs.pop(key, None)
        kwargs["source"] = self.source
        return name, "helpers.names.NameKeyField", args, kwargs


class NameKeyQuerySet[M: models.Model](models.QuerySet[M]):
    """Keeps ``NameKeyField`` right where Django skips ``pre_save``: ``update`` and ``bulk_update``.

    The model names its keyed fields in ``NAME_KEYS`` (``{"name": "name_key"}``).
    """

    def _keys(self) -> dict[str, str]:
        return dict(getattr(self.model, "NAME_KEYS", {}))

    def update(self, **kwargs: Any) -> int:
        for source, key in self._keys().items():
            if isinstance(kwargs.get(source), str) and key not in kwargs:
                kwargs[source] = normalize_name(kwargs[source])
                kwargs[key] = name_key(kwargs[source])
        return super().update(**kwargs)

    def bulk_update(self, objs: Iterable[M], fields: Iterable[str], batch_size: int | None = None) -> int:
        objs = list(objs)
        fields = list(fields)
        for source, key in self._keys().items():
            if source in fields:
                for obj in objs:
                    setattr(obj, key, name_key(str(getattr(obj, source) or "")))
                if key not in fields:
                    fields.append(key)
        return super().bulk_update(objs, fields, batch_size=batch_size)

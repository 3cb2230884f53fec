"""The mass battle's words from the catalogue, kept per process (issue 24, cards/catalogue_version.py).

A mass battle's tablet shows its magic cards' names and texts and its
warriors' type names in the reader's language; the state keeps only the
ids (and the Russian type name it started with). Both languages are kept
per catalogue version, as ``cards.words.card_names`` keeps the cards'
names: a step reads the version (one cache round trip) and the database
only for ids this process has not seen under it. A magic card, a warrior
type or a warrior saved or deleted makes a new version, so an edit shows at
the next page; ``NAMES_TTL`` bounds a write that skipped the bump.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from django.utils.translation import get_language

from cards.catalogue_version import PerVersion
from cards.models_mass import MagicCard, Warrior
from helpers.ids import is_id

NAMES_TTL = 300.0
NAMES_MAX = 50_000


def _english() -> bool:
    return (get_language() or "ru").startswith("en")


class HasName(Protocol):
    """A magic card as a log line names it: ``MagicCardWords`` or the ``MagicCard`` row itself."""

    @property
    def name(self) -> str: ...


@dataclass(frozen=True)
class MagicCardWords:
    """What a page shows of a magic card's row: its name in the reader's language and its text."""

    name_ru: str
    name_en: str
    text: str

    @property
    def name(self) -> str:
        return self.name_en if self.name_en and _english() else self.name_ru


@dataclass(frozen=True)
class Named:
    name_ru: str
    name_en: str

    @property
    def name(self) -> str:
        return self.name_en if self.name_en and _english() else self.name_ru


_CARDS: PerVersion[MagicCardWords] = PerVersion(NAMES_TTL, NAMES_MAX)
_TYPES: PerVersion[Named] = PerVersion(NAMES_TTL, NAMES_MAX)


def _load_cards(ids: set[int]) -> dict[int, MagicCardWords]:
    rows = MagicCard.objects.filter(pk__in=ids).values_list("pk", "name_ru", "name_en", "text")
    return {pk: MagicCardWords(ru, en, text) for pk, ru, en, text in rows}


def _load_types(ids: set[int]) -> dict[int, Named]:
    rows = Warrior.objects.filter(pk__in=ids).values_list("pk", "warrior_type__name_ru", "warrior_type__name_en")
    return {pk: Named(ru, en) for pk, ru, en in rows}


def magic_card_words(card_ids: Iterable[int], version: str | None = None) -> dict[int, MagicCardWords]:
    """The magic cards' rows by id (none for an id without a row); at most one query."""
    return _CARDS.get({c for c in card_ids if is_id(c)}, _load_cards, version)


def warrior_type_names(warrior_ids: Iterable[int], version: str | None = None) -> dict[int, str]:
    """Each warrior's type name in the active language, by warrior id; at most one query."""
    found = _TYPES.get({w for w in warrior_ids if is_id(w)}, _load_types, version)
    english = _english()  # once, not per warrior (a context variable's lookup each)
    return {wid: n.name_en if english and n.name_en else n.name_ru for wid, n in found.items()}


def forget() -> None:
    """Drop what this process keeps (tests)."""
    _CARDS.clear()
    _TYPES.clear()

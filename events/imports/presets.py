"""Headers recognised as another tool's export (issue 22; worked examples in docs/import.md).

Column names as those tools write them (read from their public source):

- **JoinRPG, characters** (``CharacterListItemViewModelExporter``): «Персонаж» (the name),
  «Персонаж» again (the character's link), «Занят?», «Группы» (" | " between them),
  «Входит в группы» (their links), «Ответственный мастер», the project's fields by their
  names, then the player: «Игрок» (the display name), «Игрок.SurName», «Игрок.FatherName»,
  «Игрок.BornName», «Игрок.Email», «Игрок.Extra.Vk», «Игрок.Extra.Skype»,
  «Игрок.Extra.Telegram», «Игрок.Extra.Livejournal», «Игрок.Extra.PhoneNumber».
- **JoinRPG, claims** (``ClaimListItemViewModelExporter``): «Имя» (the character's name), an
  unnamed column (the claim's link), «Статус» (Подана, Предложена, Принята, Отозвана,
  Отклонена, Обсуждается, В листе ожидания, Игрок заехал), «Причина отказа», «Обновлена»,
  «Создана», the fees, «Ответственный», the player's columns as above, the project's fields.
- **allrpg.info, applications** (``ApplicationView::generateExcel``: an HTML table sent as
  ``.xls``): «#» (the application's number), a link column, «Игрок» (a cell with the e-mail,
  phone and name), «Статус» (подана, обсуждается, принята, отклонена), «Ответственный мастер»,
  …, «Персонаж», «Группы», the project's fields, «Дата подачи заявки», «Комментарии».
- **Google Forms** (a responses sheet saved as CSV): «Отметка времени» / «Timestamp» first,
  then one column per question, «Адрес электронной почты» / «Email Address» if collected.

A preset names the columns it knows (``None`` leaves a column to the generic match by name),
adds spellings of choices (JoinRPG's «Принята» is ``accepted``) and transforms (a JoinRPG link
becomes the character's id there, ``joinrpg:1234``). Everything stays editable on the page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from helpers.names import name_key

IGNORE = ""

STATUS_WORDS = {
    # JoinRPG (ClaimStatusView) and allrpg.info (application statuses), folded as the mapping folds.
    "принята": "accepted",
    "игрок заехал": "accepted",
    "подана": "pending",
    "предложена": "pending",
    "обсуждается": "pending",
    "в листе ожидания": "pending",
    "отклонена": "rejected",
    "отозвана": "rejected",
}
SIDE_WORDS = {
    "свет": "light",
    "светлые": "light",
    "светлый": "light",
    "ночной дозор": "light",
    "тьма": "dark",
    "темные": "dark",
    "темный": "dark",
    "дневной дозор": "dark",
    "инквизиция": "inquisition",
    "нейтрал": "neutral",
    "нейтралы": "neutral",
    "нейтральный": "neutral",
    "люди": "neutral",
}
POWER_WORDS = {"вне категории": "beyond", "вне категорий": "beyond", **{f"{n} уровень": str(n) for n in range(1, 8)}}
VALUE_WORDS = {"status": STATUS_WORDS, "side": SIDE_WORDS, "power_level": POWER_WORDS}

_JOINRPG_PLAYER = {
    "игрок": "player",
    "игрок.email": "email",
    "игрок.extra.vk": "vk",
    "игрок.extra.telegram": "telegram",
    "вк": "vk",
    "телеграм": "telegram",
}
_JOINRPG_IGNORED = {
    "занят",
    "входит в группы",
    "ответственный мастер",
    "ответственный",
    "игрок.surname",
    "игрок.fathername",
    "игрок.bornname",
    "игрок.extra.skype",
    "игрок.extra.livejournal",
    "игрок.extra.phonenumber",
    "причина отказа",
    "обновлена",
    "создана",
    "итого взнос",
    "осталось",
    "уплачено",
    "льготник",
    "тип поселения",
    "комната",
    "lastmodifiedby",
}


def _fold(text: Any) -> str:
    return name_key(str(text or "")).strip(" .:?*«»\"'")


def _folded(words: dict[str, str]) -> dict[str, str]:
    return {_fold(word): value for word, value in words.items()}


_JOINRPG_PLAYER = _folded(_JOINRPG_PLAYER)
_JOINRPG_IGNORED = set(_folded(dict.fromkeys(_JOINRPG_IGNORED, "")))
_ALLRPG = _folded({"#": "external_id", "персонаж": "name", "игрок": "player", "статус": "status", "группы": "groups"})
_ALLRPG_IGNORED = set(_folded(dict.fromkeys(("комментарии", "дата подачи заявки", "ответственный мастер"), "")))
_EMAIL_QUESTIONS = set(_folded(dict.fromkeys(("адрес электронной почты", "email address", "e-mail", "email"), "")))


@dataclass(frozen=True)
class Preset:
    key: str
    kinds: tuple[str, ...]
    detect: Callable[[list[str]], bool]
    known: Callable[[list[str], int], str | None]
    values: dict[str, dict[str, str]] = field(default_factory=dict)
    transforms: dict[str, str] = field(default_factory=dict)

    def column(self, labels: list[str], index: int) -> str | None:
        return self.known(labels, index)


def _joinrpg_characters(labels: list[str], index: int) -> str | None:
    folded = [_fold(label) for label in labels]
    here = folded[index]
    if here == "персонаж":
        return "name" if folded.index("персонаж") == index else "external_id"
    if here == "группы":
        return "groups"
    if here in _JOINRPG_PLAYER:
        return _JOINRPG_PLAYER[here]
    return IGNORE if here in _JOINRPG_IGNORED else None


def _joinrpg_claims(labels: list[str], index: int) -> str | None:
    here = _fold(labels[index])
    if here in ("имя", "имя персонажа"):  # Cyrillic only: folding leaves them as they are
        return "name"
    if here == "статус":
        return "status"
    if here == "":
        return IGNORE  # the claim's link
    if here in _JOINRPG_PLAYER:
        return _JOINRPG_PLAYER[here]
    return IGNORE if here in _JOINRPG_IGNORED else None


def _allrpg(labels: list[str], index: int) -> str | None:
    here = _fold(labels[index])
    if here in _ALLRPG:
        return _ALLRPG[here]
    return IGNORE if index == 1 or here in _ALLRPG_IGNORED else None


def _google_forms(labels: list[str], index: int) -> str | None:
    here = _fold(labels[index])
    if index == 0:
        return IGNORE
    if here in _EMAIL_QUESTIONS:
        return "email"
    if "персонаж" in here or _fold("character") in here:
        return "name"
    return None


def _is_joinrpg_characters(labels: list[str]) -> bool:
    folded = [_fold(label) for label in labels]
    return folded.count("персонаж") >= 2 and "занят" in folded


def _is_joinrpg_claims(labels: list[str]) -> bool:
    folded = [_fold(label) for label in labels]
    return "статус" in folded and "причина отказа" in folded and ("имя" in folded or "имя персонажа" in folded)


def _is_allrpg(labels: list[str]) -> bool:
    folded = [_fold(label) for label in labels]
    return bool(folded) and folded[0] == "#" and "статус" in folded and "игрок" in folded


def _is_google_forms(labels: list[str]) -> bool:
    return bool(labels) and _fold(labels[0]) in (_fold("отметка времени"), _fold("timestamp"))


PRESETS = (
    Preset(
        "joinrpg_characters",
        ("characters",),
        _is_joinrpg_characters,
        _joinrpg_characters,
        VALUE_WORDS,
        {"external_id": "joinrpg_character"},
    ),
    Preset("joinrpg_claims", ("characters",), _is_joinrpg_claims, _joinrpg_claims, VALUE_WORDS),
    Preset("allrpg", ("characters",), _is_allrpg, _allrpg, VALUE_WORDS, {"external_id": "allrpg_application"}),
    Preset("google_forms", ("characters",), _is_google_forms, _google_forms, VALUE_WORDS),
)


def detect(kind: str, labels: Sequence[str]) -> Preset | None:
    for preset in PRESETS:
        if kind in preset.kinds and preset.detect(list(labels)):
            return preset
    return None


def by_key(key: str) -> Preset | None:
    return next((preset for preset in PRESETS if preset.key == key), None)


_JOINRPG_CHARACTER = re.compile(r"/character/(\d+)")


def transform(name: str, value: Any) -> Any:
    """A cell as the preset reads it: a JoinRPG character link is ``joinrpg:1234``, an allrpg number ``allrpg:56``."""
    text = str(value).strip()
    if name == "joinrpg_character":
        found = _JOINRPG_CHARACTER.search(text)
        return f"joinrpg:{found.group(1)}" if found else text
    if name == "allrpg_application":
        number = text[:-2] if text.endswith(".0") else text
        return f"allrpg:{number}" if number.isdigit() else text
    return value

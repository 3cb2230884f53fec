"""The column-mapping step (issue 22): which column of the file is which field, and how its values read.

After an upload whose header is not the import's own (a JoinRPG export, allrpg.info's
applications, a Google Forms sheet, a hand-made table), every column of the file is matched
to one of the kind's fields or ignored, and for the fields with choices each value the
file uses is matched to a choice; the organizer sees it all, with a preview, before anything
is written. A mapping is a JSON object kept with the import (``TableImport.mapping``)::

    {"preset": "joinrpg_characters",          # what the header was recognised as, if anything
     "columns": ["name", "external_id", "", "side", ...],   # one field (or "" = ignored) per column
     "values": {"side": {"Свет": "light"}},   # a file value -> the stored choice (missing = as written)
     "transforms": {"external_id": "joinrpg_url"},          # presets/transforms.py
     "corrections": {"7:card": "Щит мага"}}   # a suggestion the organizer chose for row 7 (issue 22)

and remembered per event and header (``ColumnMapping``), so the next file shaped the same
is mapped the same. ``apply`` turns the file's rows into the kind's own columns; every row
error is then named by the file's row and column («Статус», column C).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from events.imports import presets
from events.imports.kinds import FieldSpec, ImportKind
from helpers.names import name_key
from helpers.tables import Table

MAX_DISTINCT = 50  # values of one column offered for matching; a column with more is read as written
AS_WRITTEN = ""


def fold(text: Any) -> str:
    """A header or a value as it is compared: the one name folding, punctuation around it ignored."""
    return name_key(str(text or "")).strip(" .:?*«»\"'")


def letter(index: int) -> str:
    """A spreadsheet's column letter: 0 -> A, 25 -> Z, 26 -> AA."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def column_label(labels: Sequence[str], index: int) -> str:
    label = labels[index] if index < len(labels) else ""
    return f"«{label}» ({letter(index)})" if label else _("column %(letter)s") % {"letter": letter(index)}


def signature(labels: Sequence[str]) -> str:
    """The header's fingerprint: a remembered mapping applies to a file with the same columns."""
    return hashlib.sha256("\x1f".join(fold(label) for label in labels).encode()).hexdigest()[:40]


@dataclass
class Mapping:
    columns: list[str]
    values: dict[str, dict[str, str]]
    preset: str = ""
    transforms: dict[str, str] | None = None
    corrections: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "columns": self.columns,
            "values": self.values,
            "transforms": self.transforms or {},
            "corrections": self.corrections or {},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Mapping:
        return cls(
            columns=list(data.get("columns", [])),
            values={k: dict(v) for k, v in data.get("values", {}).items()},
            preset=data.get("preset", ""),
            transforms=dict(data.get("transforms", {})),
            corrections=dict(data.get("corrections", {})),
        )


def distinct_values(table: Table, index: int) -> list[str]:
    """The different values of a column, in the order they first appear (at most ``MAX_DISTINCT`` + 1)."""
    seen: dict[str, None] = {}
    for row in table.rows:
        value = row[index]
        if value in (None, ""):
            continue
        seen.setdefault(str(value), None)
        if len(seen) > MAX_DISTINCT:
            break
    return list(seen)


def guess_column(spec_by_name: dict[str, str], label: str, taken: set[str]) -> str:
    key = spec_by_name.get(fold(label), "")
    return key if key and key not in taken else ""


def names_of(specs: Sequence[FieldSpec]) -> dict[str, str]:
    """Every spelling a header may use for a field (its key, its labels, its aliases), folded."""
    found: dict[str, str] = {}
    for spec in specs:
        for name in (spec.key, spec.key.replace("_", " "), *spec.labels, *spec.aliases):
            found.setdefault(fold(name), spec.key)
    return found


def guess_values(spec: FieldSpec, values: Sequence[str], extra: dict[str, str]) -> dict[str, str]:
    """Each value matched to the choice whose value, label (any language) or preset spelling it is."""
    known = {fold(stored): stored for stored, _label in spec.choices}
    for stored, labels in spec.choice_labels.items():
        known.update((fold(label), stored) for label in labels)
    known.update((fold(word), stored) for word, stored in extra.items())
    return {value: known[fold(value)] for value in values if fold(value) in known}


def guess(kind: ImportKind, specs: Sequence[FieldSpec], table: Table, remembered: dict[str, Any] | None) -> Mapping:
    """The mapping to show first: the event's remembered one for this header, a preset's, or by names."""
    if remembered and len(remembered.get("columns", [])) == len(table.labels):
        return Mapping.from_json({**remembered, "corrections": {}})
    preset = presets.detect(kind.key, table.labels)
    columns: list[str] = []
    taken: set[str] = set()
    by_name = names_of(specs)
    for index, label in enumerate(table.labels):
        key = preset.column(table.labels, index) if preset else None
        if key is None:
            key = guess_column(by_name, label, taken)
        if key and key in taken:
            key = ""
        columns.append(key)
        if key:
            taken.add(key)
    mapping = Mapping(columns, {}, preset.key if preset else "", dict(preset.transforms) if preset else {})
    by_key = {spec.key: spec for spec in specs}
    for index, key in enumerate(columns):
        spec = by_key.get(key)
        if spec is not None and spec.choices:
            values = distinct_values(table, index)
            if len(values) <= MAX_DISTINCT:
                words = preset.values.get(key, {}) if preset else {}
                mapping.values[key] = guess_values(spec, values, words)
    return mapping


def problems(mapping: Mapping, specs: Sequence[FieldSpec]) -> list[str]:
    """What keeps the mapping from being used: a required field unmatched, a field matched twice."""
    found: list[str] = []
    chosen = [key for key in mapping.columns if key]
    for spec in specs:
        if spec.required and spec.key not in chosen:
            found.append(_("Choose the column of “%(field)s”: it is required.") % {"field": spec.label})
        if chosen.count(spec.key) > 1:
            found.append(_("Only one column may be “%(field)s”.") % {"field": spec.label})
    unknown = set(chosen) - {spec.key for spec in specs}
    if unknown:
        found.append(_("Unknown fields: %(fields)s.") % {"fields": ", ".join(sorted(unknown))})
    return found


def apply(mapping: Mapping, table: Table) -> Table:
    """The file's rows in the kind's own columns: values matched, transforms and the chosen corrections applied."""
    picked = [(index, key) for index, key in enumerate(mapping.columns) if key and index < len(table.labels)]
    headers = [key for _index, key in picked]
    corrections = mapping.corrections or {}
    transforms = mapping.transforms or {}
    rows = []
    for number, row in zip(table.numbers, table.rows, strict=True):
        cells = []
        for index, key in picked:
            value = row[index]
            if value not in (None, "") and key in mapping.values:
                value = mapping.values[key].get(str(value), value)
            if key in transforms and value not in (None, ""):
                value = presets.transform(transforms[key], value)
            value = corrections.get(f"{number}:{key}", value)
            cells.append(value)
        rows.append(cells)
    return Table(headers, rows, list(table.numbers), table.encoding, headers)


def labels_of(mapping: Mapping, labels: Sequence[str]) -> dict[str, str]:
    """Each field as the file names its column («Статус» (C)), for the errors of a mapped import."""
    found: dict[str, str] = {}
    for index, key in enumerate(mapping.columns):
        if key and key not in found:
            found[key] = column_label(labels, index)
    return found

"""What one batch of an import wrote, and how to take it back (docs/import.md: all or nothing).

An entry (``ImportBatch.entry``) is a JSON object written in the same transaction as the
batch it describes:

- ``created``: ``[[model label, pk], ...]`` rows the batch added (undo deletes them);
- ``cleared``: ``[[model label, {field: value}], ...]`` sets of rows the batch replaced
  (undo deletes what is there now, before the old rows come back);
- ``rows``: Django's JSON serialization of rows as they were before the batch
  (undo saves them back, primary keys and all);
- ``fields``: ``[[model label, pk, {field: value}], ...]`` single columns to put back.

Undo takes the entries back newest first, each in its own short transaction, so the
database's write lock is never held long (issue 27); each entry taken back is deleted
in that same transaction, so an undo cut short resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.core import serializers
from django.db import models, transaction


def snapshot(rows: Iterable[models.Model]) -> str:
    """The rows as they are now, to be put back by ``undo_entry``."""
    return serializers.serialize("json", list(rows))


def label(model: type[models.Model] | models.Model) -> str:
    return model._meta.label_lower


def new_entry() -> dict[str, list[Any]]:
    return {"created": [], "cleared": [], "rows": [], "fields": []}


def undo_entry(entry: dict[str, Any]) -> None:
    """Take one batch back (the caller holds the transaction)."""
    for model_label, pk in reversed(entry.get("created", [])):
        apps.get_model(model_label)._default_manager.filter(pk=pk).delete()
    for model_label, lookup in entry.get("cleared", []):
        apps.get_model(model_label)._default_manager.filter(**lookup).delete()
    for data in entry.get("rows", []):
        for restored in serializers.deserialize("json", data):
            restored.save()
    for model_label, pk, values in entry.get("fields", []):
        apps.get_model(model_label)._default_manager.filter(pk=pk).update(**values)


def undo_import(import_id: int) -> int:
    """Take back every batch the import wrote, newest first, one short transaction each; how many."""
    from events.imports.models import ImportBatch

    undone = 0
    while True:
        with transaction.atomic():
            batch = ImportBatch.objects.filter(table_import_id=import_id).order_by("-number").first()
            if batch is None:
                return undone
            undo_entry(batch.entry)
            batch.delete()
            undone += 1

"""What the import/export resources of cards/resources.py and cards/resources_mass.py share.

``TextCells`` turns a row's text cells into the strings the model wants;
``ScopedResource`` is a table of the rows of one catalogue or one event.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.db import models

from events.import_widgets import ModelResource


class TextCells:
    """Spreadsheet cells come back empty as None and numbers as numbers; text fields want strings."""

    text_columns: ClassVar[tuple[str, ...]] = ()

    def before_import_row(self, row: Any, **kwargs: Any) -> None:
        for column in self.text_columns:
            if column in row:
                value = row[column]
                if isinstance(value, float) and value.is_integer():
                    value = int(value)  # a spreadsheet's warrior "7.0" is warrior 7
                row[column] = "" if value is None else str(value).strip()


class ScopedResource(TextCells, ModelResource):
    """The rows of one catalogue or event (``scope``): an export lists only them, an imported row joins it.

    A subclass names the model's foreign key to the scope (``scope_field``), the export's order
    (``ordering``) and its text columns, besides its ``Meta``.
    """

    scope_field: ClassVar[str]
    ordering: ClassVar[tuple[str, ...]]

    def __init__(self, scope: models.Model) -> None:
        super().__init__()
        self.scope = scope

    def get_queryset(self) -> models.QuerySet[Any]:
        return self._meta.model.objects.filter(**{self.scope_field: self.scope}).order_by(*self.ordering)

    def init_instance(self, row: Any = None) -> models.Model:
        return self._meta.model(**{self.scope_field: self.scope})

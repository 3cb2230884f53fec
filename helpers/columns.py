"""Model rows read by hand-written SQL and built as the ORM builds them (issue 24).

A request that sends the same statement every time need not compile it with
the ORM (``as_sql``, ``get_select``: a quarter of a step's CPU once). Here a
model's columns give their SELECT list and turn a row into an instance exactly
as the ORM would: the same columns, the fields' own converters
(``from_db_value``, the backend's datetime and boolean handling) and
``Model.from_db``. duels/services/rows.py (the step's statements) and
helpers/auth.py (the session's user) use them; tests/services/test_rows.py
holds them to what the ORM reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.backends.base.base import BaseDatabaseWrapper

Converter = Callable[[Any, Any, Any], Any]


_QUOTED: dict[str, str] = {}


def quoted(name: str | None) -> str:
    """``name`` quoted for the default database (kept: its engine is fixed for the process's life)."""
    assert name is not None  # a concrete column always has one
    found = _QUOTED.get(name)
    if found is None:
        found = _QUOTED[name] = connection.ops.quote_name(name)
    return found


def db() -> BaseDatabaseWrapper:
    """The default connection: ``django.db.connection`` is a proxy that looks it up on every attribute (~1 µs)."""
    return connections[DEFAULT_DB_ALIAS]


class Columns:
    """Some concrete columns of a model: their SELECT list, and instances built from rows as the ORM builds them."""

    def __init__(self, model: type[models.Model], *, only: Iterable[str] | None = None, leave: Iterable[str] = ()):
        wanted = None if only is None else set(only)
        left = set(leave)
        self.model = model
        self.table = model._meta.db_table
        # In the model's own order: ``Model.from_db`` fills the columns not read as deferred.
        self.fields = [
            f
            for f in model._meta.concrete_fields
            if (wanted is None or f.attname in wanted or f.name in wanted) and f.name not in left
        ]
        self.attnames = [f.attname for f in self.fields]
        self.cols = [f.get_col(self.table) for f in self.fields]
        self.select = ", ".join(f"{quoted(self.table)}.{quoted(f.column)}" for f in self.fields)
        self._converters: dict[str, list[tuple[int, Any, list[Converter]]]] = {}

    def __len__(self) -> int:
        return len(self.fields)

    def converters(self, db: BaseDatabaseWrapper) -> list[tuple[int, Any, list[Converter]]]:
        """Per column that has any, what the ORM's compiler applies to a value read (backend's, then field's)."""
        found = self._converters.get(db.alias)
        if found is None:
            found = []
            for i, col in enumerate(self.cols):
                converters = [*db.ops.get_db_converters(col), *col.get_db_converters(db)]
                if converters:
                    found.append((i, col, converters))
            self._converters[db.alias] = found
        return found

    def values(self, row: Sequence[Any], db: BaseDatabaseWrapper) -> list[Any]:
        out = list(row)
        for i, col, converters in self.converters(db):
            value = out[i]
            for convert in converters:
                value = convert(value, col, db)
            out[i] = value
        return out

    def build(self, row: Sequence[Any], db: BaseDatabaseWrapper) -> Any:
        return self.model.from_db(db.alias, self.attnames, self.values(row, db))


class WithParent:
    """A model's columns and those of the row a foreign key names, read by one INNER JOIN.

    ``select`` is the statement's start (the caller adds its WHERE); ``build`` makes the child
    from a row with the parent cached on it, as ``select_related`` leaves it.
    """

    def __init__(self, child: Columns, parent: Columns, fk: str) -> None:
        self.child, self.parent = child, parent
        field = child.model._meta.get_field(fk)
        assert isinstance(field, models.ForeignKey)  # a foreign key of the child's own
        self.field = field
        c, p = quoted(child.table), quoted(parent.table)
        on = f"{c}.{quoted(self.field.column)} = {p}.{quoted(parent.model._meta.pk.column)}"
        self.select = f"SELECT {child.select}, {parent.select} FROM {c} INNER JOIN {p} ON ({on})"

    def build(self, row: Sequence[Any], db: BaseDatabaseWrapper) -> Any:
        child = self.child.build(row[: len(self.child)], db)
        self.field.set_cached_value(child, self.parent.build(row[len(self.child) :], db))
        return child

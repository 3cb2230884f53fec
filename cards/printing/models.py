"""A print run: one event's cards and sheets made into one PDF, in the background (issue 14)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class PrintRun(models.Model):
    class GroupBy(models.TextChoices):
        NONE = "", _("no grouping (by name)")
        SIDE = "side", _("by side")
        GROUP = "group", _("by group (the first one listed)")

    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting")
        RUNNING = "running", _("printing")
        JOINING = "joining", _("joining the parts")
        DONE = "done", _("ready")
        FAILED = "failed", _("failed")

    event = models.ForeignKey(
        "events.Event", on_delete=models.CASCADE, related_name="print_runs", verbose_name=_("event")
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("started"), default=timezone.now)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # The organizer's language when they asked: the worker prints in it.
    language = models.CharField(max_length=10, default="ru")
    character_ids = models.JSONField(default=list)
    with_sheets = models.BooleanField(_("character sheets"), default=True)
    with_cards = models.BooleanField(_("cards"), default=True)
    with_magic_decks = models.BooleanField(_("magic decks"), default=False)
    with_rosters = models.BooleanField(_("army rosters"), default=False)
    # Issue 22: each group's sheets and cards together, after a page naming it; an envelope per character.
    group_by = models.CharField(_("grouped"), max_length=10, choices=GroupBy.choices, blank=True, default="")
    with_envelopes = models.BooleanField(_("envelopes"), default=False)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    # Progress in pages: ``total`` is the planned pages (0 until planned), ``done`` those of the printed parts.
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    pages = models.PositiveIntegerField(default=0)
    # The parts the worker prints, in order (cards/printing/runs.py plan_parts), and how many are printed.
    parts = models.JSONField(default=list)
    parts_done = models.PositiveIntegerField(default=0)
    file_name = models.CharField(max_length=100, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        verbose_name = _("print run")
        verbose_name_plural = _("print runs")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.event} #{self.pk}"

    @property
    def percent(self) -> int:
        if self.status == self.Status.DONE:
            return 100
        return int(100 * self.done / self.total) if self.total else 0

    @property
    def finished(self) -> bool:
        return self.status in {self.Status.DONE, self.Status.FAILED}

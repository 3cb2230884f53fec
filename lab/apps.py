from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LabConfig(AppConfig):
    name = "lab"
    verbose_name = _("Balance lab and reports")

    def ready(self) -> None:
        # Saved lab runs travel with their event's file (issue 20); the archive imports no lab.
        from duels.archive_rows import archive_also
        from lab.models import LabRun

        archive_also(LabRun, lambda event: LabRun.objects.filter(event=event))

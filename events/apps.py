from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop


class EventsConfig(AppConfig):
    name = "events"
    verbose_name = _("Events and characters")

    def import_models(self) -> None:
        super().import_models()
        # The import records live with the import pipeline (events/imports/), still in this app.
        import events.imports.models  # noqa: F401

    def ready(self) -> None:
        import events.imports.tasks  # registers the long imports' Celery task
        import events.signals  # noqa: F401  (connects the secret-link rotation)
        from events.resources import register_kinds

        register_kinds()


# Django 6.1's label for an empty choice in every select; Django's own Russian
# catalogue does not have it yet, so ours carries its translation.
DJANGO_BLANK_CHOICE_LABEL = gettext_noop("- Select an option -")

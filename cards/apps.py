from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = _("Cards and arsenals")

    def import_models(self) -> None:
        super().import_models()
        # The print run's model lives with the prints (cards/printing/), still in this app.
        import cards.printing.models  # noqa: F401

    def ready(self) -> None:
        import cards.printing.tasks  # noqa: F401  (registers the print run's Celery tasks)

        # The layers run one way (docs/architecture.md): the character page is
        # the events app's, its arsenal part is ours.
        from cards.views_player import character_page_part
        from events.hooks import register_character_page_part

        register_character_page_part(character_page_part)

        # The import kinds of the cards app join the one import pipeline (events/imports/kinds.py).
        from cards import arsenal_import, resources, resources_mass

        for module in (resources, resources_mass, arsenal_import):
            module.register_kinds()

        # Names cached per catalogue version (cards/catalogue_version.py): any card save or delete bumps it.
        from cards import catalogue_version

        catalogue_version.connect()

        from cards.models_mass import check_keepable_decks
        from events.models import EVENT_CHECKS

        if check_keepable_decks not in EVENT_CHECKS:
            EVENT_CHECKS.append(check_keepable_decks)

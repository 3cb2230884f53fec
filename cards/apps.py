from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = _("Cards and arsenals")

    def ready(self) -> None:
        # The layers run one way (docs/architecture.md): the character page is
        # the events app's, its arsenal part is ours.
        from cards.views_player import character_page_part
        from events.hooks import register_character_page_part

        register_character_page_part(character_page_part)

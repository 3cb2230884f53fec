from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "cards"
    verbose_name = _("Cards and arsenals")

    def ready(self) -> None:
        from cards.models_mass import check_keepable_decks
        from events.models import EVENT_CHECKS

        if check_keepable_decks not in EVENT_CHECKS:
            EVENT_CHECKS.append(check_keepable_decks)

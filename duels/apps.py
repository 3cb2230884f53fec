from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DuelsConfig(AppConfig):
    name = "duels"
    verbose_name = _("Fights")

    def ready(self) -> None:
        # The layers run one way (docs/architecture.md): cards asks "is this
        # character in a fight?" through its hook, and the fight side answers.
        import duels.services.timers  # noqa: F401  (registers the Celery tasks in web and worker processes)
        from duels.battle import kind as battle
        from duels.duel import kind as duel
        from duels.mass import kind as mass
        from duels.services.kinds import register

        # Every kind of fight is a wing on the one situation core (docs/architecture.md).
        for kind in (duel.KIND, battle.KIND, mass.KIND):
            register(kind)
        from cards.hooks import register_fight_check
        from duels.services import in_active_situation

        register_fight_check(in_active_situation)

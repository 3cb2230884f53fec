from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DuelsConfig(AppConfig):
    name = "duels"
    verbose_name = _("Fights")

    def ready(self) -> None:
        # The layers run one way (docs/architecture.md): cards asks "is this
        # character in a fight?" through its hook, and the fight side answers.
        import duels.services.timers  # noqa: F401  (registers the Celery tasks in web and worker processes)
        from duels.battle import kind as battle_kind
        from duels.battle import views as battle_views
        from duels.duel import kind as duel_kind
        from duels.duel import views as duel_views
        from duels.mass import kind as mass_kind
        from duels.mass import views as mass_views
        from duels.models import read_snapshots
        from duels.services.kinds import register
        from duels.web.pages import register_pages

        # Every kind of fight is a wing on the one situation core (docs/architecture.md): its
        # kind for the services, its pages for the shared views. Neither core imports a wing.
        for kind, pages in (
            (duel_kind.KIND, duel_views.PAGES),
            (battle_kind.KIND, battle_views.PAGES),
            (mass_kind.KIND, mass_views.PAGES),
        ):
            register(kind)
            register_pages(pages)
        from rules import snapshots

        # States name their static parts by content (rules/snapshots.py); this process reads them here.
        snapshots.set_resolver(read_snapshots)

        # IA1: an instant attack on a duellist or a combatant joins their fight - the battle wing's.
        from duels.battle.instant import strike_into_battle, strike_into_duel
        from duels.services.opening import register_strike_in

        register_strike_in(duel_kind.KIND.key, strike_into_duel)
        register_strike_in(battle_kind.KIND.key, strike_into_battle)

        from cards.hooks import register_fight_check
        from duels.services import in_active_situation

        register_fight_check(in_active_situation)

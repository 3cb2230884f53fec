from django.apps import AppConfig
from django.contrib.admin.apps import AdminConfig


class SumrakAdminConfig(AdminConfig):
    default_site = "config.admin.SumrakAdminSite"


class ProjectConfig(AppConfig):
    """The project itself as an app, for commands that span the apps (``manage.py load_demo``).

    It sits at the top of the layers (docs/architecture.md): it may use every
    app, and no app imports it, so the demo game, which fills events and cards,
    is loaded from here rather than from inside one of them.
    """

    name = "config"
    label = "sumrak"
    verbose_name = "Sumrak"

from django.contrib.admin.apps import AdminConfig


class SumrakAdminConfig(AdminConfig):
    default_site = "config.admin.SumrakAdminSite"

from django.contrib import admin
from django.urls import include, path

from events import views_home

urlpatterns = [
    path("", views_home.home, name="home"),
    path("help/", views_home.help_index, name="help"),
    path("help/<str:role>/", views_home.help_page, name="help-role"),
    path("accounts/signup/", views_home.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("events.urls")),
    path("", include("cards.urls")),
    path("", include("duels.urls")),
]

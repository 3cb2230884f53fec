from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config import views as config_views
from events import views_home

# A database that is away or a full disk: the 503 page (config/unavailable.py); any other error: the
# app's 500 page; 400 (an unknown host) in the app's layout too (config/errors.py).
handler500 = "config.unavailable.server_error"
handler400 = "config.errors.bad_request"
handler403 = "config.errors.permission_denied"
handler404 = "config.errors.page_not_found"

urlpatterns = [
    path("", views_home.home, name="home"),
    path("ping/", config_views.ping, name="ping"),
    # The fights before the rest: their polls are most requests (duels/urls.py); no route of it matches another's.
    path("", include("duels.urls")),
    path("help/", views_home.help_index, name="help"),
    path("help/<str:role>/", views_home.help_page, name="help-role"),
    path("accounts/signup/", views_home.signup, name="signup"),
    # No password reset by mail: accounts have no e-mail address and the game site no mail server (an
    # attempt would fail at send time). A superuser sets a new password: manage.py changepassword.
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password_change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("events.urls")),
    path("", include("cards.urls")),
    path("", include("lab.urls")),
]

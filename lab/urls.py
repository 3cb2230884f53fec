from django.urls import path

from lab import views

app_name = "lab"

urlpatterns = [
    path("events/<int:event_id>/lab/", views.lab_home, name="home"),
    path("events/<int:event_id>/lab/compare/", views.compare, name="compare"),
    path("lab/runs/<int:run_id>/", views.run_page, name="run"),
    path("lab/runs/<int:run_id>/cancel/", views.run_cancel, name="cancel"),
    path("events/<int:event_id>/report/", views.postgame, name="postgame"),
]

"""The project's URLs and handlers, plus a page that fails (tests/web/test_error_pages.py)."""

from django.urls import path

from config.urls import handler400, handler403, handler404, handler500
from config.urls import urlpatterns as project

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]


def boom(request):
    raise RuntimeError("a bug in a view")


urlpatterns = [path("boom/", boom), *project]

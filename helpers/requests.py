"""The request the site's views receive: Django's, with what django-htmx's middleware adds."""

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxRequest(HttpRequest):
    """Every request passes django-htmx's middleware (settings.MIDDLEWARE), which sets ``request.htmx``:
    whether htmx sent it, and for which target. A view that reads it takes this as its request type
    (the type django-htmx documents for type checkers); at run time nothing changes.
    """

    htmx: HtmxDetails

"""The error pages in the app's layout and the user's language, with a way back (issue 20).

Django's own ``bad_request`` (400: an unknown host, a broken request), its CSRF
failure page and its ``server_error`` (500) render without the request, so
their pages had no layout, no language switch and, in game-site mode (DEBUG
off), were Django's bare English text. These views render ``400.html``,
``403_csrf.html`` and ``500.html`` with the request (its language, which
``LocaleMiddleware`` activated, or the one its headers ask for when the error
came before it), and offer the page the user came from when it is on this
site, and the home page.

The 500 page is drawn without the database (no user, no session, no
messages), as the 503 page of ``config/unavailable.py`` is: whatever broke may
be the database. If even that fails, a plain bilingual page is sent.
"""

from __future__ import annotations

import logging

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme

logger = logging.getLogger(__name__)

PLAIN_500 = (
    '<!doctype html><html lang="ru"><meta charset="utf-8"><title>Ошибка сервера · Server error</title>'
    "<h1>Ошибка сервера · Server error</h1>"
    "<p>Ничего не изменилось; попробуйте ещё раз. Nothing was changed; try again.</p>"
    '<p><a href="/">На главную · Home page</a></p></html>'
)


def way_back(request: HttpRequest) -> str:
    """The page the user came from, when it is on this site (never another site's address), else ""."""
    referer = request.META.get("HTTP_REFERER", "")
    try:
        host = request.get_host()
    except Exception:
        return ""
    if referer and url_has_allowed_host_and_scheme(referer, allowed_hosts={host}, require_https=request.is_secure()):
        return referer
    return ""


def _render(request: HttpRequest, template: str, status: int, **context: object) -> HttpResponse:
    # An error before LocaleMiddleware (or after it deactivated): the language the request asks for.
    language = getattr(request, "LANGUAGE_CODE", None) or translation.get_language_from_request(request)
    with translation.override(language):
        page = render_to_string(template, {"back": way_back(request), "status": status, **context}, request=request)
    response = HttpResponse(page, status=status)
    response["Content-Language"] = language
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``: an unknown host, a broken request body, too many fields."""
    return _render(request, "400.html", 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler403``: Django's, with the way back."""
    return _render(request, "403.html", 403, exception=str(exception or ""))


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: Django's, with the way back (the path is not echoed: a secret link may be in it)."""
    return _render(request, "404.html", 404)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: cookies cleared, a page kept open past its token, another site's form."""
    return _render(request, "403_csrf.html", 403, no_cookie=not request.COOKIES)


def server_error(request: HttpRequest) -> HttpResponse:
    """The 500 page, drawn without the database; a plain bilingual page if even that fails."""
    try:
        # Drawn without the database: these replace what the context processors would look up.
        return _render(request, "500.html", 500, user=AnonymousUser(), messages=[])
    except Exception:
        logger.exception("the 500 page could not be drawn")
        return HttpResponse(PLAIN_500, status=500)

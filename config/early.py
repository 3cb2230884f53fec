"""A live poll answered before Django's handler (issue 24): the WSGI entry's first look.

A spectator's page and a player's link poll every 2 s and mostly find nothing
changed. The poll shortcut (duels/web/shortcut.py) already answers those 304s
after three middleware; Django's handler around it - the request object,
the signals, the middleware chain, the response object and its headers -
still cost as much as the answer itself. This wrapper of the WSGI
application looks first: a GET htmx poll with an ETag of ``/watch/<id>/`` or
``/c/<token>/live/`` is checked by the shortcut's own function
(``unchanged_etag``, cache only: the situation's cached meta, or the link's
cached answer with its fight's meta, in one Redis round trip) and, when its
ETag is the current one, answered here with the very 304 the full path
sends, its headers written as a list. A poll of a newer version that some
viewer had rendered already (the fragment is cached under its ETag: one more
Redis round trip) is answered here too, as the view's ``cached_fragment``
answers it: the clock, the nonces and the CSRF token filled in, the cookie
renewed where the token is used (a fragment with forms and no CSRF cookie
yet goes the full way: Django makes the secret). ``/mass/<id>/watch/`` is
answered only for a mass battle (the full path refuses the other kinds).

Airtight as the full path: a link's cached answer counts only while none of
its scopes is marked pending and each still has the generation it was stamped
with (events/link_cache.py), so a revoked or rotated link stops at once.
Whenever the cache has no answer, or anything is unusual, the poll goes
Django's full way, with what was read handed on (``polls.SEEN`` in the
environ) so it is not read twice: a request the skipped middleware would
treat otherwise (a body, a host not allowed, an http request to be
redirected to https, a session or CSRF cookie they would rewrite), any
error here, and always when ``settings.MIDDLEWARE`` is not the list this was
written against (``EXPECTED_MIDDLEWARE``): the constant headers of the 304
and the 200 are those of exactly these middleware. tests/web/test_poll_early.py
and test_poll_early_changed.py compare its answers with the full path's,
header by header, for a fight of each kind.
"""

from __future__ import annotations

import logging
import time
import traceback
from collections.abc import Callable, Iterable
from importlib import import_module
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpResponse, parse_cookie
from django.http.request import split_domain_port, validate_host
from django.utils import translation
from django.utils.csp import CSP, build_policy
from django.utils.http import http_date
from django.utils.module_loading import import_string

logger = logging.getLogger(__name__)

# The middleware whose headers the early 304 reproduces, in this order; any other list turns it off.
EXPECTED_MIDDLEWARE = (
    "config.unavailable.ServiceUnavailableMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "duels.web.shortcut.UnchangedPollMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "config.limits.RequestSizeLimitMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
)
# By name, as settings name middleware: the fight app's polls (config imports no fight app).
SHORTCUT = "duels.web.shortcut"
NOT_MODIFIED = "304 Not Modified"
OK = "200 OK"
_STAND_IN = "S" * 32  # a CSRF secret's length: the cookie's text made once, the secret put in per response

Headers = list[tuple[str, str]]
StartResponse = Callable[..., Any]


class _Asked:
    """What ``get_language_from_request`` reads of a request: its cookies and its environ."""

    __slots__ = ("COOKIES", "META")

    def __init__(self, cookies: dict[str, str], meta: dict[str, Any]) -> None:
        self.COOKIES = cookies
        self.META = meta


class EarlyPolls:
    """The WSGI application: an unchanged poll answered here, anything else by ``app`` (Django's handler)."""

    def __init__(self, app: Callable[[dict[str, Any], StartResponse], Iterable[bytes]]) -> None:
        self.app = app
        try:
            self.on = _usable()
        except Exception:
            # A setting or URLconf Django itself will refuse on the first request: it reports it then.
            logger.warning("the early poll path is off: the settings could not be checked", exc_info=True)
            self.on = False
        if not self.on:
            return
        shortcut = import_module(SHORTCUT)
        self.current: Callable[..., Any] = shortcut.current
        self.unchanged: Callable[..., bool] = shortcut.unchanged
        self.cached_body: Callable[..., tuple[bytes, bool] | None] = shortcut.cached_body
        self.content_type = f"text/html; charset={settings.DEFAULT_CHARSET}"
        self.cookie: tuple[int, str] = (0, "")
        self.prefixes: tuple[str, ...] = shortcut.POLL_PREFIXES
        self.csrf_chars = frozenset(import_string("django.middleware.csrf.CSRF_ALLOWED_CHARS"))
        self.csrf_length: int = import_string("django.middleware.csrf.CSRF_SECRET_LENGTH")
        self.live = (
            ("Cache-Control", import_string("duels.web.live.NEVER_STORED")),
            ("Vary", import_string("duels.web.live.LIVE_VARY")),
        )
        self.redirect = bool(settings.SECURE_SSL_REDIRECT)
        self.proxy_ssl = settings.SECURE_PROXY_SSL_HEADER
        self.hsts = _hsts()
        # After Content-Language and Content-Length, in the order the middleware add them on the way out:
        # clickjacking, CSP, then SecurityMiddleware's (HSTS only over https).
        self.framing = _framing()
        self.security = _security()
        self.expires: tuple[int, str] = (0, "")
        self.hosts: tuple[Any, dict[str, bool]] = (None, {})

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if (
            self.on
            and environ.get("REQUEST_METHOD") == "GET"
            and environ.get("HTTP_HX_REQUEST") == "true"
            and environ.get("HTTP_IF_NONE_MATCH")
            and environ.get("PATH_INFO", "").startswith(self.prefixes)
        ):
            try:
                answer = self.answer(environ)
            except Exception as error:
                # Never a 500 from here: the full path answers (and reports what it meets itself). Where it
                # failed, not its message: that could hold the secret link, which no log may show (issue 13).
                where = traceback.extract_tb(error.__traceback__)[-1]
                logger.warning(
                    "the early poll path failed (%s at %s:%s); the full path answers",
                    type(error).__name__,
                    where.filename,
                    where.lineno,
                )
                answer = None
            if answer is not None:
                status, headers, body = answer
                start_response(status, headers)
                return [body] if body else []
        return self.app(environ, start_response)

    def answer(self, environ: dict[str, Any]) -> tuple[str, Headers, bytes] | None:
        """The poll's answer if the cache has it and nothing but it would differ, else None (the full path).

        Unchanged: the 304. Changed, to a version some viewer had rendered already: that fragment, as the
        view's ``cached_fragment`` sends it (its clock, nonces and CSRF token filled in for this response).
        """
        path = environ["PATH_INFO"]
        if not path.isascii() or environ.get("CONTENT_LENGTH") not in (None, "", "0"):
            return None
        cookies = self.cookies(environ)
        if cookies is None or not self.host_allowed(environ):
            return None
        secure = self.is_secure(environ)
        if self.redirect and not secure:
            return None  # SecurityMiddleware redirects it to https
        # As LocaleMiddleware decides (no i18n_patterns: the cookie, Accept-Language, the default).
        translation.activate(translation.get_language_from_request(_Asked(cookies, environ)))  # type: ignore[arg-type]
        found = self.current(environ, path, cache_only=True)
        if found is None:
            return None
        if self.unchanged(environ, found):
            return NOT_MODIFIED, self.not_modified(found.etag, secure), b""
        cached = self.cached_body(environ, found, cookies.get(settings.CSRF_COOKIE_NAME))
        if cached is None:
            return None
        body, token_used = cached
        return OK, self.changed(found.etag, secure, len(body), token_used, cookies), body

    def not_modified(self, etag: str, secure: bool) -> Headers:
        return [
            ("ETag", etag),
            ("Expires", self.now()),
            *self.live,
            ("Content-Language", translation.get_language()),
            ("Content-Length", "0"),
            *self.framing,
            *(self.hsts if secure else ()),
            *self.security,
        ]

    def changed(self, etag: str, secure: bool, length: int, token_used: bool, cookies: dict[str, str]) -> Headers:
        """The 200's headers, as the view's, then the middleware on the way out, write them."""
        headers = [
            ("Content-Type", self.content_type),
            ("ETag", etag),
            ("Expires", self.now()),
            *self.live,
            *self.framing,
            ("Content-Length", str(length)),
            ("Content-Language", translation.get_language()),
            *(self.hsts if secure else ()),
            *self.security,
        ]
        if token_used:
            # CsrfViewMiddleware renews the cookie whenever the token is used (Django's get_token).
            headers.append(("Set-Cookie", self.csrf_cookie(cookies[settings.CSRF_COOKIE_NAME])))
        return headers

    def cookies(self, environ: dict[str, Any]) -> dict[str, str] | None:
        """The request's cookies, or None if the session or CSRF middleware would rewrite one (as the shortcut)."""
        raw = environ.get("HTTP_COOKIE")
        if not raw:
            return {}
        if not raw.isascii():
            return None  # Django decodes it its own way (get_str_from_wsgi)
        cookies = parse_cookie(raw)
        session = cookies.get(settings.SESSION_COOKIE_NAME)
        if session is not None and len(session) < 8:
            return None  # SessionMiddleware deletes it
        csrf = cookies.get(settings.CSRF_COOKIE_NAME)
        if csrf is not None and (len(csrf) != self.csrf_length or not set(csrf) <= self.csrf_chars):
            return None  # CsrfViewMiddleware sets a new one
        return cookies

    def host_allowed(self, environ: dict[str, Any]) -> bool:
        """``request.get_host()`` would not refuse it (CommonMiddleware's 400); no Host header: the full path."""
        host = environ.get("HTTP_HOST")
        if not host:
            return False
        allowed = settings.ALLOWED_HOSTS
        known = self.hosts
        if known[0] is not allowed:  # the setting changed (tests): forget what was found
            known = self.hosts = (allowed, {})
        found = known[1].get(host)
        if found is None:
            if settings.DEBUG and not allowed:
                allowed = [".localhost", "127.0.0.1", "[::1]"]
            domain, _port = split_domain_port(host)
            found = bool(domain) and validate_host(domain, allowed)
            if len(known[1]) < 64:  # the names this server is asked by: a few
                known[1][host] = found
        return found

    def is_secure(self, environ: dict[str, Any]) -> bool:
        """``request.is_secure()``: the proxy's header if one is configured and sent, else the WSGI scheme."""
        if self.proxy_ssl:
            header, secure_value = self.proxy_ssl
            value = environ.get(header)
            if value is not None:
                return bool(value.split(",", 1)[0].strip() == secure_value)
        return bool(environ.get("wsgi.url_scheme") == "https")

    def csrf_cookie(self, secret: str) -> str:
        """The Set-Cookie value CsrfViewMiddleware writes for ``secret`` (its expiry: this second's), made once a
        second by Django's own ``set_cookie`` around a stand-in (a secret is [a-zA-Z0-9]: never quoted)."""
        second = int(time.time())
        kept = self.cookie
        if kept[0] != second:
            response = HttpResponse()
            response.set_cookie(
                settings.CSRF_COOKIE_NAME,
                _STAND_IN,
                max_age=settings.CSRF_COOKIE_AGE,
                domain=settings.CSRF_COOKIE_DOMAIN,
                path=settings.CSRF_COOKIE_PATH,
                secure=settings.CSRF_COOKIE_SECURE,
                httponly=settings.CSRF_COOKIE_HTTPONLY,
                samesite=settings.CSRF_COOKIE_SAMESITE,
            )
            kept = self.cookie = (second, response.cookies[settings.CSRF_COOKIE_NAME].OutputString())
        return kept[1].replace(f"={_STAND_IN}", f"={secret}", 1)

    def now(self) -> str:
        """``http_date()`` of this second, formatted once a second."""
        second = int(time.time())
        kept = self.expires
        if kept[0] != second:
            kept = self.expires = (second, http_date(second))
        return kept[1]


def _usable() -> bool:
    """Whether the skipped middleware would add only the headers written here (else: always the full path)."""
    if tuple(settings.MIDDLEWARE) != EXPECTED_MIDDLEWARE:
        return False
    if (
        settings.CSRF_USE_SESSIONS
        or settings.SESSION_SAVE_EVERY_REQUEST
        or settings.PREPEND_WWW
        or settings.DISALLOWED_USER_AGENTS
        or settings.USE_X_FORWARDED_HOST
    ):
        return False
    from django.conf.urls.i18n import is_language_prefix_patterns_used

    if is_language_prefix_patterns_used(settings.ROOT_URLCONF)[0]:
        return False  # LocaleMiddleware would read the language from the path
    proxy = settings.SECURE_PROXY_SSL_HEADER
    if proxy and len(proxy) != 2:
        raise ImproperlyConfigured("The SECURE_PROXY_SSL_HEADER setting must be a tuple containing two values.")
    return True


def _hsts() -> tuple[tuple[str, str], ...]:
    if not settings.SECURE_HSTS_SECONDS:
        return ()
    value = f"max-age={settings.SECURE_HSTS_SECONDS}"
    if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
        value += "; includeSubDomains"
    if settings.SECURE_HSTS_PRELOAD:
        value += "; preload"
    return (("Strict-Transport-Security", value),)


def _framing() -> tuple[tuple[str, str], ...]:
    """XFrameOptionsMiddleware's header, then ContentSecurityPolicyMiddleware's (no nonce: a 304 renders none)."""
    found = [("X-Frame-Options", getattr(settings, "X_FRAME_OPTIONS", "DENY").upper())]
    policies = ((CSP.HEADER_ENFORCE, settings.SECURE_CSP), (CSP.HEADER_REPORT_ONLY, settings.SECURE_CSP_REPORT_ONLY))
    for header, config in policies:
        if config:
            found.append((str(header), build_policy(config)))  # type: ignore[arg-type]
    return tuple(found)


def _security() -> tuple[tuple[str, str], ...]:
    """SecurityMiddleware's headers but HSTS, as its ``process_response`` writes them."""
    found = []
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        found.append(("X-Content-Type-Options", "nosniff"))
    policy = settings.SECURE_REFERRER_POLICY
    if policy:
        values = [v.strip() for v in policy.split(",")] if isinstance(policy, str) else policy
        found.append(("Referrer-Policy", ",".join(values)))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        found.append(("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY))
    return tuple(found)

"""The early poll path's tests' tools (config/early.py): WSGI calls, poll environs, the production's settings."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core import signals
from django.db import close_old_connections
from django.test import RequestFactory

SHORTCUT = "duels.web.shortcut.UnchangedPollMiddleware"
WITHOUT_SHORTCUT = [m for m in settings.MIDDLEWARE if m != SHORTCUT]
# The production's security settings (config/settings.py without DEBUG): https behind a proxy.
PRODUCTION = {
    "SECURE_SSL_REDIRECT": True,
    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
    "SECURE_HSTS_SECONDS": 31536000,
    "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
    "SECURE_HSTS_PRELOAD": True,
}


class Inner:
    """The application behind the early path: records what reached it, answers 200."""

    def __init__(self) -> None:
        self.reached: list[dict[str, Any]] = []

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        self.reached.append(environ)
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [b"full path"]


@contextmanager
def no_connection_reset() -> Iterator[None]:
    # As Django's test client: the handler's signal would close the test's transaction's connection.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def call(app: Any, environ: dict[str, Any]) -> tuple[int, list[tuple[str, str]], bytes]:
    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        seen.update(status=status, headers=headers)

    with no_connection_reset():
        result = app(environ, start_response)
        try:
            body = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
    return int(seen["status"].split()[0]), seen["headers"], body


def poll_environ(url: str, etag: str, language: str = "en", secure: bool = False, **headers: str) -> dict[str, Any]:
    sent = {"HX-Request": "true", "If-None-Match": etag, "Accept-Language": language, "Host": "testserver", **headers}
    if secure:
        sent["X-Forwarded-Proto"] = "https"
    return RequestFactory().get(url, headers=sent).environ


def compared(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    # Expires is the clock's second; the rest must be the same, name for name, value for value.
    return sorted((k.lower(), v) for k, v in headers if k.lower() != "expires")


def current_etag(client: Any, url: str, language: str = "en") -> str:
    hx = {"HX-Request": "true", "Accept-Language": language}
    etag = client.get(url, headers=hx)["ETag"]
    client.get(url, headers={**hx, "If-None-Match": etag})  # a first poll keeps a link's answer
    return etag

"""Browser-test harness (DESIGN.md §7): Playwright's sync API driving Debian's chromium.

Fixtures:
- ``phone_page`` / ``tablet_page``: a page in a fresh 390x844 phone / 1024x768 tablet
  context; ``phone`` / ``tablet`` make more of them (two players, a referee...).
- ``log_in_with_form(page, username, password)``: through the real login form.
- ``log_in_as(page, user)``: sets a session cookie made by ``Client.force_login``.
- ``screenshot(page, suffix="")``: saves ``test-artifacts/<test name>.png``.
- ``url(name, *args)``: the live server's absolute URL of a named route.

The live server and the test share the database: pytest-django gives a test that
uses ``live_server`` a ``transactional_db`` (on SQLite the in-memory database's
connection is shared with the server thread).
"""

import os
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

# Playwright's sync API runs an event loop in this thread; the ORM calls made
# by the test itself are still plain synchronous code.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
TABLET = {"viewport": {"width": 1024, "height": 768}, "device_scale_factor": 1, "is_mobile": True, "has_touch": True}
# English by default, as in the other tests; a test that wants Russian passes locale="ru-RU".
LOCALE = "en-GB"


def pytest_configure(config: pytest.Config) -> None:
    # pytest-playwright's own base_url shim trips a pytest deprecation; not ours to fix.
    config.addinivalue_line("filterwarnings", "ignore:Session-scoped fixtures defined as instance methods")


def _in_ci() -> bool:
    return os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    chromium = shutil.which("chromium")
    if chromium is None:
        if _in_ci():
            pytest.fail("Debian's chromium is missing; .ci/run installs it (apt-get install chromium).")
        pytest.skip("Debian's chromium is not installed (apt-get install chromium).")
    return {**browser_type_launch_args, "executable_path": chromium, "args": CHROMIUM_FLAGS}


@pytest.fixture
def phone(new_context) -> Callable[..., object]:
    """``phone(**context_args)`` -> a new page in its own phone-sized context."""

    def make(**kwargs: object):
        return new_context(**(PHONE | {"locale": LOCALE} | kwargs)).new_page()

    return make


@pytest.fixture
def tablet(new_context) -> Callable[..., object]:
    def make(**kwargs: object):
        return new_context(**(TABLET | {"locale": LOCALE} | kwargs)).new_page()

    return make


@pytest.fixture
def phone_page(phone):
    return phone()


@pytest.fixture
def tablet_page(tablet):
    return tablet()


@pytest.fixture
def url(live_server) -> Callable[..., str]:
    def absolute(name: str, *args: object) -> str:
        return live_server.url + reverse(name, args=args)

    return absolute


@pytest.fixture
def log_in_with_form(url):
    def log_in(page, username: str, password: str) -> None:
        page.goto(url("login"))
        page.fill("input[name=username]", username)
        page.fill("input[name=password]", password)
        with page.expect_navigation():
            page.locator("main form button[type=submit]").click()
        assert "/accounts/login/" not in page.url, f"login as {username} failed"

    return log_in


@pytest.fixture
def log_in_as(live_server):
    """Skip the form: a session made by the test client, handed to the browser as a cookie."""

    def log_in(page, user: User) -> None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])

    return log_in


@pytest.fixture
def screenshot(request) -> Callable[..., Path]:
    def save(page, suffix: str = "") -> Path:
        name = re.sub(r"[^\w.-]+", "_", request.node.name).strip("_") + (f"-{suffix}" if suffix else "")
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save

"""400, 403, 404, 500 and the CSRF failure: the app's layout, the user's language, a way back (issue 20).

Run as the game site runs: DEBUG off (Django's test runner turns it off; set here too),
exceptions answered as pages, not raised into the test.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

# Layout: the app's menu and its language switch; a way back: the home page's button.
LAYOUT = ('id="main-menu"', 'id="language-switch"', 'id="home-link"')
WORDS = {
    "en": {
        400: "Bad request",
        403: "Not allowed",
        404: "Page not found",
        500: "Server error",
        "csrf": "The page was too old to send",
    },
    "ru": {
        400: "Неверный запрос",
        403: "Нет доступа",
        404: "Страница не найдена",
        500: "Ошибка сервера",
        "csrf": "Страница устарела, её нельзя отправить",
    },
}


@pytest.fixture(autouse=True)
def game_site(settings):
    settings.DEBUG = False
    settings.ROOT_URLCONF = "tests.web.error_urls"


def client() -> Client:
    return Client(raise_request_exception=False)


def assert_error_page(response, status, language, key=None):
    text = response.content.decode()
    assert response.status_code == status
    for mark in LAYOUT:
        assert mark in text, f"{mark} missing from the {status} page"
    assert f'<html lang="{language}">' in text
    assert WORDS[language][key or status] in text
    assert "Traceback" not in text and "RuntimeError" not in text
    return text


@pytest.mark.parametrize("language", ["en", "ru"])
def test_404_in_the_layout_and_language_with_the_way_back(language):
    back = "http://testserver/help/"
    response = client().get("/no-such-page/", headers={"accept-language": language, "referer": back})
    text = assert_error_page(response, 404, language)
    assert 'id="back-link"' in text and f'href="{back}"' in text


def test_the_way_back_never_leads_to_another_site():
    response = client().get("/no-such-page/", headers={"accept-language": "en", "referer": "https://evil.example/x"})
    text = assert_error_page(response, 404, "en")
    assert "evil.example" not in text and 'id="back-link"' not in text


@pytest.mark.parametrize("language", ["en", "ru"])
def test_403_in_the_layout_and_language(language, django_user_model):
    user = django_user_model.objects.create_user("nobody", password="pass-nobody")
    c = client()
    c.force_login(user)
    response = c.get(reverse("duels:event-import"), headers={"accept-language": language})
    assert_error_page(response, 403, language)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_400_for_an_unknown_host_in_the_layout_and_language(language):
    response = client().get("/", headers={"accept-language": language}, HTTP_HOST="not-the-game.example")
    text = assert_error_page(response, 400, language)
    assert 'id="back-link"' not in text


@pytest.mark.parametrize("language", ["en", "ru"])
def test_500_in_the_layout_and_language(language, django_user_model):
    user = django_user_model.objects.create_user("someone", password="pass-someone")
    c = client()
    c.force_login(user)
    response = c.get("/boom/", headers={"accept-language": language, "referer": "http://testserver/help/"})
    text = assert_error_page(response, 500, language)
    assert 'href="http://testserver/help/"' in text
    # Drawn without the database: nobody is shown as logged in.
    assert "someone" not in text


@pytest.mark.parametrize("language", ["en", "ru"])
def test_csrf_failure_after_cookies_were_cleared(language):
    c = Client(enforce_csrf_checks=True, raise_request_exception=False)
    response = c.post(
        reverse("login"),
        {"username": "x", "password": "y"},
        headers={"accept-language": language, "referer": "http://testserver/accounts/login/"},
    )
    text = assert_error_page(response, 403, language, "csrf")
    assert 'href="http://testserver/accounts/login/"' in text
    assert 'id="csrf-why"' in text

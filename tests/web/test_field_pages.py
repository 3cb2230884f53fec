"""Error pages in the site's layout and the user's language, with a hint; the favicon (issue 10)."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "title", "hint"),
    [
        ("en", "Page not found", "ask the organizers for your new link"),
        ("ru", "Страница не найдена", "попросите у организаторов новую ссылку"),
    ],
)
def test_an_unknown_secret_link_is_a_404_in_the_sites_layout_with_a_hint(client, language, title, hint):
    client.cookies["django_language"] = language
    response = client.get("/c/no-such-token/")
    html = response.content.decode()
    assert response.status_code == 404
    assert title in html and hint in html
    assert 'id="main-menu"' in html and 'rel="icon"' in html  # the site's own layout


def test_the_favicon_is_served_from_static(client):
    from django.contrib.staticfiles import finders

    assert finders.find("favicon.svg")

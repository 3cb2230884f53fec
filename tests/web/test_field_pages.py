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


def test_F1_the_character_page_in_a_fight_shows_the_live_hand_and_focus_not_the_old_arsenal(
    as_user, player, character, rival, referee, attack_card, defence_card
):
    """During a fight the page loads the live fragment (hand, focus, focus control), not the arsenal rows."""
    from duels import services
    from tests.services.kit import arm, nonce

    arm(character, attack_card, defence_card)
    arm(rival, defence_card)
    services.declare_aggression(character.event, character, rival, None, user=referee, nonce=nonce())
    client = as_user(player)
    html = client.get(f"/characters/{character.pk}/").content.decode()
    assert 'id="player-live"' in html and 'hx-trigger="load, every 2s' in html
    assert 'id="character-state"' not in html and 'id="arsenal-locked"' in html
    live = client.get(f"/characters/{character.pk}/live/", headers={"HX-Request": "true"}).content.decode()
    assert "Focus on this card" in live and "My hand in this fight" in live

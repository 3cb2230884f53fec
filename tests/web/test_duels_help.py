"""Help pages per role, and the role's help linked from its screens."""

import pytest
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("secret_hands")]


@pytest.mark.parametrize("language", ["ru", "en"])
def test_help_pages_render_for_everyone(client, language):
    client.cookies["django_language"] = language
    index = client.get(reverse("help"))
    assert index.status_code == 200
    for role in ("organizer", "referee", "player"):
        assert reverse("help-role", args=[role]) in index.content.decode()
        page = client.get(reverse("help-role", args=[role]))
        assert page.status_code == 200


def test_referee_help_explains_the_readings(client):
    html = client.get(reverse("help-role", args=["referee"])).content.decode()
    # The chosen readings of RULES.md are told in plain words.
    for rule in ("S2", "IA1", "IA3", "IA4", "IA5", "IA6", "F1", "D8", "D10", "D11", "CR2"):
        assert f"({rule}" in html or f"{rule})" in html or f" {rule}" in html, rule


def test_screens_link_their_roles_help(as_user, referee, player, shown, character):
    referee_page = as_user(referee).get(reverse("duels:situation", args=[shown.pk])).content.decode()
    assert reverse("help-role", args=["referee"]) in referee_page
    player_page = as_user(player).get(reverse("duels:player-live", args=[character.pk])).content.decode()
    assert reverse("help-role", args=["player"]) in player_page

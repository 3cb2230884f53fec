"""Live polls answer 304 when nothing shown changed, and no response may be kept by a browser (D4, DESIGN.md §5)."""

import pytest
from django.urls import reverse

from cards.models import Card

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("secret_hands")]
HX = {"HX-Request": "true"}


def test_D4_the_players_hand_outside_a_fight_polls_304_until_a_card_of_it_changes(
    as_user, player, character, armed, defence_card
):
    client = as_user(player)
    url = reverse("duels:player-live", args=[character.pk])
    first = client.get(url, headers=HX)
    etag = first["ETag"]
    assert first.status_code == 200 and "Mage Shield" in first.content.decode()
    again = client.get(url, headers={**HX, "If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    # The organizer renames a card the player holds: the poll must bring the new name.
    Card.objects.filter(pk=defence_card.pk).update(name_en="Mage Wall")
    renamed = client.get(url, headers={**HX, "If-None-Match": etag})
    assert renamed.status_code == 200 and "Mage Wall" in renamed.content.decode()


@pytest.mark.parametrize("who", ["referee", "player", "spectator"])
def test_D4_no_live_response_may_be_stored_by_a_browser_not_even_a_304(
    who, client, as_user, referee, player, character, shown
):
    if who == "referee":
        client, url = as_user(referee), reverse("duels:situation", args=[shown.pk])
    elif who == "player":
        client, url = as_user(player), reverse("duels:player-live", args=[character.pk])
    else:
        url = reverse("duels:watch", args=[shown.pk])
    full = client.get(url, headers=HX)
    unchanged = client.get(url, headers={**HX, "If-None-Match": full["ETag"]})
    assert (full.status_code, unchanged.status_code) == (200, 304)
    for response in (full, unchanged):
        assert "no-store" in response["Cache-Control"] and response["ETag"] == full["ETag"]

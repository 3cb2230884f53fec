"""Error pages in the site's layout and the user's language, with a hint; the favicon (issue 10)."""

import pytest

from duels.duel.start import declare_aggression

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
    from tests.services.kit import arm, nonce

    arm(character, attack_card, defence_card)
    arm(rival, defence_card)
    declare_aggression(character.event, character, rival, None, user=referee, nonce=nonce())
    client = as_user(player)
    html = client.get(f"/characters/{character.pk}/").content.decode()
    assert 'id="player-live"' in html and 'hx-trigger="load, every 2s' in html
    assert 'id="character-state"' not in html and 'id="arsenal-locked"' in html
    live = client.get(f"/characters/{character.pk}/live/", headers={"HX-Request": "true"}).content.decode()
    assert "Focus on this card" in live and "My hand in this fight" in live


@pytest.mark.parametrize(
    ("waiting", "label"), [(1, "заявка ждёт"), (2, "заявки ждут"), (5, "заявок ждут"), (21, "заявка ждёт")]
)
def test_russian_plurals_agree_with_the_number_of_waiting_applications(as_user, organizer, event, waiting, label):
    from events.models import Character

    for n in range(waiting):
        Character.objects.create(event=event, name=f"P{n}", status=Character.Status.PENDING)
    client = as_user(organizer)
    client.cookies["django_language"] = "ru"
    html = client.get(f"/events/{event.pk}/organize/").content.decode()
    assert f'<div class="h3 mb-0">{waiting}</div><div class="small">{label}</div>' in html


def test_a_tap_at_the_gate_updates_the_counter_and_undoing_an_arrival_asks_first(as_user, organizer, character):
    client = as_user(organizer)
    page = client.get(f"/events/{character.event_id}/check-in/").content.decode()
    assert 'id="arrived-count"' in page and "0 have arrived so far." in page
    tapped = client.post(
        f"/organize/characters/{character.pk}/arrived/", {"arrived": "1"}, headers={"HX-Request": "true"}
    ).content.decode()
    # The counter comes along out of band, and the row's next tap (undo) asks before it acts.
    assert '<p class="text-muted" id="arrived-count" hx-swap-oob="true">1 has arrived so far.' in tapped
    assert "hx-confirm=" in tapped and "Take the arrival back?" in tapped


def test_players_pages_show_no_rule_codes(as_user, player, character, rival, referee, attack_card, defence_card):
    """Rule IDs (D8, S2, ...) are for referees; a player reads the words only (issue 10)."""
    import re

    from tests.services.kit import arm, nonce

    arm(character, attack_card, defence_card)
    arm(rival, defence_card)
    client = as_user(player)
    pages = [client.get(f"/characters/{character.pk}/").content.decode()]
    declare_aggression(character.event, character, rival, attack_card.pk, user=referee, nonce=nonce())
    pages.append(client.get(f"/characters/{character.pk}/").content.decode())
    pages.append(client.get(f"/characters/{character.pk}/live/").content.decode())
    for html in pages:
        body = html[html.index("<main") :]
        assert not re.search(r"\b(D|S|IA|AG|F|CR)\d+\b", re.sub(r"<[^>]+>", " ", body))

"""D4: an unplayed card is seen only by its holder, the referees and the organizers. F1: a focus is public."""

import pytest
from django.urls import reverse

from cards.models import Card
from duels import services
from duels.duel.start import declare_aggression, start_instant_attack
from events.models import Character
from rules import duel as engine
from tests.services.kit import SECRET_ANTON, SECRET_ZAVULON, nonce
from tests.web.duels_kit import drive, uid_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("secret_hands")]

LANGUAGES = ["ru", "en"]


@pytest.fixture
def played(shown, referee, rival, defence_card):
    """One step played: Fireball against Mage Shield; Zavulon's Spark and Dark Mirror stay in hand."""
    return drive(shown, referee, engine.Answer(0, rival.pk, uid_of(shown, rival.pk, defence_card)))


def _get(client, url, language, htmx=False):
    client.cookies["django_language"] = language
    headers = {"Accept-Language": language, **({"HX-Request": "true"} if htmx else {})}
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def _names(*pairs):
    return [name for pair in pairs for name in pair]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("htmx", [False, True])
def test_D4_the_spectator_page_never_shows_an_unplayed_card(client, played, language, htmx):
    html = _get(client, reverse("duels:watch", args=[played.pk]), language, htmx)
    for secret in _names(SECRET_ANTON, SECRET_ZAVULON, ("Искра", "Spark")):
        assert secret not in html
    # Played cards are public: the attack shown and the answer given.
    assert ("Fireball" if language == "en" else "Огненный шар") in html
    assert ("Mage Shield" if language == "en" else "Щит мага") in html


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("htmx", [False, True])
def test_D4_a_player_sees_their_own_hand_and_never_the_opponents(as_user, player, played, character, language, htmx):
    html = _get(as_user(player), reverse("duels:player-live", args=[character.pk]), language, htmx)
    for secret in _names(SECRET_ZAVULON, ("Искра", "Spark")):
        assert secret not in html
    assert SECRET_ANTON[1 if language == "en" else 0] in html


def test_D4_the_other_fighters_secret_link_shows_only_their_own_hand(client, played, rival):
    html = _get(client, reverse("duels:player-live-token", args=[rival.link_token]), "en")
    assert "Dark Mirror" in html and "Spark" in html
    assert "Veil of Secrets" not in html


def test_D4_referees_see_both_hands(as_user, referee, organizer, played):
    for user in (referee, organizer):
        html = _get(as_user(user), reverse("duels:situation", args=[played.pk]), "en")
        assert "Veil of Secrets" in html and "Dark Mirror" in html


def test_F1_a_focused_card_is_public(client, armed, referee, catalogue):
    anton, zavulon = armed
    mirror = Card.objects.get(name_en=SECRET_ZAVULON[1])
    Character.objects.filter(pk=zavulon.pk).update(focus_card=mirror)
    situation = declare_aggression(anton.event, anton, zavulon, None, user=referee, nonce=nonce()).situation
    html = _get(client, reverse("duels:watch", args=[situation.pk]), "en")
    assert "Dark Mirror" in html  # held openly (F1)
    assert "Veil of Secrets" not in html and "Spark" not in html


def test_IA4_the_drawn_card_is_shown_and_every_other_card_stays_secret(client, armed, referee, attack_card):
    """Reading: the card drawn blind is shown to all (IA4), so the public record names it; nothing else is named."""
    anton, zavulon = armed
    situation = start_instant_attack(
        anton.event, anton, zavulon, attack_card.pk, out_of_sight=True, within_reach=True, user=referee, nonce=nonce()
    ).situation
    st = services.state_of(situation)
    drawn = Card.objects.get(pk=st.cards[st.duels[0].step.answer_card].card_id).name_en
    html = _get(client, reverse("duels:watch", args=[situation.pk]), "en")
    assert drawn in html
    for name in {"Spark", "Mage Shield", "Dark Mirror", "Veil of Secrets"} - {drawn}:
        assert name not in html

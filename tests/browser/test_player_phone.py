"""A player on a phone: their own arsenal is shown, nobody else's (D4)."""

import pytest

from cards.models import ArsenalCard, Card

pytestmark = pytest.mark.browser


@pytest.fixture
def hands(catalogue, character, rival):
    def card(name_ru: str, name_en: str, kind: str) -> Card:
        return Card.objects.create(catalogue=catalogue, name_ru=name_ru, name_en=name_en, kind=kind)

    mine = [card("Фриз", "Freeze", "attack"), card("Щит мага", "Mage Shield", "defence")]
    theirs = [card("Серый молебен", "Grey Prayer", "attack"), card("Хрустальный щит", "Crystal Shield", "defence")]
    for c in mine:
        ArsenalCard.objects.create(character=character, card=c)
    for c in theirs:
        ArsenalCard.objects.create(character=rival, card=c)
    return mine, theirs


def test_D4_player_sees_own_hand_on_phone_and_not_the_rivals(
    phone, log_in_with_form, url, screenshot, player, character, rival, hands
):
    mine, theirs = hands
    phone_page = phone(locale="ru-RU")  # the game's own language: card names in Russian
    log_in_with_form(phone_page, "player", "pass-player")
    phone_page.goto(url("events:my-character", character.pk))

    assert phone_page.viewport_size == {"width": 390, "height": 844}
    for card in mine:
        assert phone_page.get_by_text(card.name_ru, exact=True).first.is_visible(), card.name_ru
    html = phone_page.content()
    assert character.name in html
    for card in theirs:
        # Unplayed cards of another character are not even in the DOM (D4).
        assert card.name_ru not in html and card.name_en not in html
    # Nothing scrolls sideways on a phone.
    assert phone_page.evaluate("document.documentElement.scrollWidth") <= 390
    path = screenshot(phone_page)
    assert path.stat().st_size > 0

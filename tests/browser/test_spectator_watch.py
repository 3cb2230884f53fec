"""The public spectator page follows a fight: played cards and the focus (F1), never an unplayed card (D4)."""

import pytest
from playwright.sync_api import expect

from duels import services
from duels.duel.start import declare_aggression
from events.models import Character
from rules import duel as engine
from tests.services.kit import SECRET_ANTON, SECRET_ZAVULON, nonce

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]


def test_D4_F1_the_spectator_page_never_contains_an_unplayed_card(
    phone, url, screenshot, referee, armed, event, attack_card, defence_card, spark
):
    anton, zavulon = armed
    Character.objects.filter(pk=anton.pk).update(focus_card=defence_card)
    situation = declare_aggression(event, anton, zavulon, None, user=referee, nonce=nonce()).situation

    page = phone()  # anonymous: the link is public
    page.goto(url("duels:watch", situation.pk))
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "await_attack")
    html = page.content()
    # F1: Anton's focus is held openly; nothing else of either hand is on the page.
    assert defence_card.name_en in html
    for secret in (*SECRET_ANTON, *SECRET_ZAVULON, spark.name_ru, spark.name_en, attack_card.name_en):
        assert secret not in html

    def act(command):
        situation.refresh_from_db()
        services.perform(situation.pk, command, user=referee, seen_version=situation.version, nonce=nonce())

    st = services.state_of(situation)
    fireball = next(u for u in st.fighters[anton.pk].hand if st.cards[u].card_id == attack_card.pk)
    act(engine.Attack(0, anton.pk, fireball))
    # The page updates by itself: the shown attack card is public now, with its countdown.
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "await_answer", timeout=6000)
    expect(page.locator(".countdown-answer")).to_be_visible()
    act(engine.Answer(0, zavulon.pk, None))
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "await_result", timeout=6000)
    html = page.content()
    assert attack_card.name_en in html
    for secret in (*SECRET_ANTON, *SECRET_ZAVULON, spark.name_ru, spark.name_en):
        assert secret not in html
    screenshot(page)

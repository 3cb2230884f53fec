"""Forms at a real game (issue 10): a late answer told in the D8 words, the round-break refusal, the start
form's filter, and the counter-rule matrix warning before unsaved changes are lost - in ru and en."""

import re

import pytest
from playwright.sync_api import Dialog, Page, expect

from duels.duel.start import declare_aggression
from events.models import Character, Event
from rules import duel as engine
from tests.services.kit import nonce
from tests.web.duels_kit import drive, uid_of

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("secret_hands")]
WORDS = {
    "en-GB": ("The 2 seconds to answer ran out; the attack took full effect.", "Pick at least one card"),
    "ru-RU": ("2 секунды на ответ истекли; атака подействовала в полную силу.", "Выберите хотя бы одну карту"),
}


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_D8_a_tablet_whose_clock_lags_gets_the_D8_words_for_a_late_answer(
    tablet, log_in_as, url, screenshot, referee, armed, event, attack_card, locale
):
    anton, zavulon = armed
    Event.objects.filter(pk=event.pk).update(answer_window_s=2)
    event.refresh_from_db()
    page = tablet(locale=locale)
    log_in_as(page, referee)
    situation = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation
    page.goto(url("duels:situation", situation.pk))
    # A tablet whose clock is behind and whose polls do not get through: its page would still let the
    # referee tap after the window closed.
    page.route(
        re.compile(r".*/fights/\d+/$"),
        lambda route: route.abort() if route.request.method == "GET" else route.continue_(),
    )
    page.evaluate("document.querySelectorAll('[data-closes]').forEach(e => e.removeAttribute('data-closes'))")
    page.wait_for_timeout(2600)
    page.locator("form[data-action=answer] button.btn-primary").first.click()
    alert = page.locator("#fight-alert")
    expect(alert).to_contain_text(WORDS[locale][0])
    expect(alert).not_to_contain_text("referee acted first")
    expect(alert.locator("a.rule-ref")).to_have_text("D8")
    screenshot(page)


@pytest.mark.parametrize("locale", ["en-GB", "ru-RU"])
def test_D3_building_a_new_arsenal_with_no_card_is_refused_on_the_tablet(
    tablet, log_in_as, url, screenshot, referee, armed, event, attack_card, defence_card, spark, locale
):
    anton, zavulon = armed
    situation = declare_aggression(event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation
    drive(
        situation,
        referee,
        engine.Answer(0, zavulon.pk, uid_of(situation, zavulon.pk, defence_card)),
        engine.ConfirmResult(0),
        engine.Attack(0, zavulon.pk, uid_of(situation, zavulon.pk, spark)),
        engine.Answer(0, anton.pk, None),
        engine.ConfirmResult(0),
    )
    drive(
        situation,
        referee,
        engine.Attack(0, anton.pk, uid_of(situation, anton.pk, attack_card)),
        engine.Answer(0, zavulon.pk, None),
        engine.ConfirmResult(0, "parried", "ducked"),
    )
    page = tablet(locale=locale)
    log_in_as(page, referee)
    page.goto(url("duels:situation", situation.pk))
    choice = page.locator(f"#choice-0-{anton.pk}")
    choice.locator(f"label[for=ars-0-{anton.pk}-new]").click()
    choice.locator("button[type=submit]").click()
    expect(page.locator("#fight-alert")).to_contain_text(WORDS[locale][1])
    expect(page.locator("#duel-0")).to_have_attribute("data-phase", "between_rounds")
    screenshot(page)


def test_the_start_form_filters_the_names_as_the_referee_types(tablet, log_in_as, url, screenshot, referee, event):
    Character.objects.create(event=event, name="Антон Городецкий", arrived=True)
    zavulon = Character.objects.create(event=event, name="Завулон")
    page = tablet(locale="ru-RU")
    log_in_as(page, referee)
    page.goto(url("duels:start", event.pk))
    page.locator("[data-filter-for=id_b]").fill("ЗАВ")
    expect(page.locator("#id_b")).to_have_value(str(zavulon.pk))
    assert page.locator("#id_b option", has_text="Антон Городецкий").evaluate("o => o.hidden")
    screenshot(page)


def _dismissed_dialogs(page: Page) -> list[str]:
    """The types of the dialogs the page opens from now on, each dismissed as a user would."""
    dialogs: list[str] = []

    def dismiss(dialog: Dialog) -> None:
        dialogs.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", dismiss)
    return dialogs


def test_CR2_the_counter_rule_matrix_warns_before_unsaved_changes_are_lost(
    tablet, log_in_as, url, organizer, event, attack_card, defence_card
):
    page = tablet()
    log_in_as(page, organizer)
    page.goto(url("cards:counter-matrix", event.pk))
    dialogs = _dismissed_dialogs(page)
    select = page.locator("#counter-matrix-form select").first
    select.select_option(index=1)
    page.close(run_before_unload=True)
    page.wait_for_timeout(500)
    assert dialogs == ["beforeunload"]


def test_CR2_saving_the_matrix_does_not_warn(tablet, log_in_as, url, organizer, event, attack_card, defence_card):
    page = tablet()
    log_in_as(page, organizer)
    page.goto(url("cards:counter-matrix", event.pk))
    dialogs = _dismissed_dialogs(page)
    page.locator("#counter-matrix-form select").first.select_option(index=1)
    page.locator("#counter-matrix-form button[type=submit]").first.click()
    page.wait_for_load_state()
    assert re.search(r"/counter", page.url)
    assert dialogs == []

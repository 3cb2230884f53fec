"""The referee's fight screen at a real game (issue 10), through the test client: the rule that
refused a late tap (D8, S2), quick reasons, the IA1 banner, the round-break form, the start form."""

import datetime as dt

import pytest
from django.urls import reverse

from cards.models import PreparedArsenal, PreparedArsenalCard
from duels.duel.start import start_instant_attack
from duels.models import LogEntry, Situation
from events.models import Character
from rules import duel as engine
from tests.services.kit import nonce
from tests.web.duels_kit import drive, post_action, state_of, uid_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("secret_hands")]
CONFLICT = "Another referee acted first"


@pytest.fixture
def round_break(shown, referee, character, rival, attack_card, defence_card, spark):
    """Round 1 played to its end (D11): both hold only defence cards."""
    for commands in (
        (
            engine.Answer(0, rival.pk, uid_of(shown, rival.pk, defence_card)),
            engine.ConfirmResult(0),
            engine.Attack(0, rival.pk, uid_of(shown, rival.pk, spark)),
            engine.Answer(0, character.pk, None),
            engine.ConfirmResult(0),
        ),
        (
            engine.Attack(0, character.pk, uid_of(shown, character.pk, attack_card)),
            engine.Answer(0, rival.pk, None),
            engine.ConfirmResult(0, "parried", "ducked"),
        ),
    ):
        drive(shown, referee, *commands)
    assert state_of(shown).duels[0].phase == engine.BETWEEN_ROUNDS
    return shown


def _page(client, situation) -> str:
    return client.get(reverse("duels:situation", args=[situation.pk])).content.decode()


def test_D8_an_answer_sent_after_the_window_closed_on_another_page_gets_the_D8_wording(
    as_user, referee, shown, rival, defence_card, time_machine
):
    """The tablet's page is older than the expiry a poll applied: not "another referee acted first"."""
    client = as_user(referee)
    shown.refresh_from_db()
    seen, card = shown.version, uid_of(shown, rival.pk, defence_card)
    time_machine.move_to(state_of(shown).duels[0].step.answer_deadline + dt.timedelta(seconds=1), tick=False)
    client.get(reverse("duels:watch", args=[shown.pk]))  # any read applies the deadline (D8)
    response = client.post(
        f"/fights/{shown.pk}/act/",
        {"version": seen, "nonce": nonce(), "action": "answer", "duel": 0, "fighter": rival.pk, "card": card},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 409
    assert "The 15 seconds to answer ran out; the attack took full effect." in html and CONFLICT not in html
    assert ">D8</a>" in html
    assert state_of(shown).duels[0].steps_done[-1].timed_out


def test_D8_an_answer_that_reaches_the_server_late_is_refused_in_the_D8_words_in_russian(
    as_user, referee, shown, rival, defence_card, time_machine
):
    client = as_user(referee)
    client.cookies["django_language"] = "ru"
    card = uid_of(shown, rival.pk, defence_card)
    time_machine.move_to(state_of(shown).duels[0].step.answer_deadline + dt.timedelta(seconds=1), tick=False)
    response = post_action(client, shown, action="answer", duel=0, fighter=rival.pk, card=card)
    html = response.content.decode()
    assert response.status_code == 422
    assert "15 секунд на ответ истекли; атака подействовала в полную силу." in html
    assert not [e for e in LogEntry.objects.filter(situation=shown) if (e.command or {}).get("type") == "answer"]


def test_S2_a_tap_on_a_situation_the_gap_ended_says_the_gap_ended_it(
    as_user, referee, fight, character, attack_card, time_machine
):
    client = as_user(referee)
    fight.refresh_from_db()
    seen, card = fight.version, uid_of(fight, character.pk, attack_card)
    gap_ends = engine.situation_deadline(state_of(fight))
    assert gap_ends is not None, "the fight's S2 gap runs"
    time_machine.move_to(gap_ends + dt.timedelta(seconds=1), tick=False)
    assert "This combat situation ended: 3 minutes passed without a combat action." in _page(client, fight)
    response = client.post(
        f"/fights/{fight.pk}/act/",
        {"version": seen, "nonce": nonce(), "action": "attack", "duel": 0, "fighter": character.pk, "card": card},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 409 and CONFLICT not in html
    assert "3 minutes passed without a combat action" in html and ">S2</a>" in html


def test_CR2_an_override_with_one_tap_reason_is_recorded_with_it(as_user, referee, shown, rival):
    client = as_user(referee)
    post_action(client, shown, action="answer", duel=0, fighter=rival.pk, card="")
    html = _page(client, shown)
    assert 'name="quick_reason" value="Wrong card recorded"' in html
    response = post_action(
        client, shown, action="override", duel=0, outcome="softened", quick_reason="Wrong card recorded"
    )
    assert response.status_code == 200
    record = state_of(shown).duels[0].steps_done[-1]
    assert (record.outcome, record.override_reason) == ("softened", "Wrong card recorded")


def test_CR2_an_override_without_any_reason_is_refused_and_changes_nothing(as_user, referee, shown, rival):
    client = as_user(referee)
    post_action(client, shown, action="answer", duel=0, fighter=rival.pk, card="")
    shown.refresh_from_db()
    version = shown.version
    response = post_action(client, shown, action="override", duel=0, outcome="softened", reason="  ")
    assert response.status_code == 400 and "Give a reason: tap one or type it." in response.content.decode()
    assert Situation.objects.get(pk=shown.pk).version == version


def test_taking_back_an_action_uses_the_events_own_reasons_and_the_typed_words(as_user, referee, shown, event):
    event.quick_reasons = "Судья ошибся\nИгроки договорились"
    event.save()
    client = as_user(referee)
    html = _page(client, shown)
    assert "Take back the last action" in html and ">Undo<" not in html
    assert 'value="Судья ошибся"' in html and "Wrong button tapped" not in html
    shown.refresh_from_db()
    response = client.post(
        f"/fights/{shown.pk}/undo/",
        {"version": shown.version, "nonce": nonce(), "quick_reason": "Судья ошибся", "reason": "not the Fireball"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    undo = LogEntry.objects.filter(situation=shown, kind="undo").get()
    assert undo.reason == "Судья ошибся — not the Fireball"


def test_the_quick_reasons_default_in_russian(as_user, referee, shown):
    client = as_user(referee)
    client.cookies["django_language"] = "ru"
    assert "Ошибочное нажатие" in _page(client, shown)


def test_IA1_an_instant_attack_that_became_aggression_says_which_condition_failed(
    as_user, referee, armed, event, attack_card
):
    anton, zavulon = armed
    performed = start_instant_attack(
        event, anton, zavulon, attack_card.pk, out_of_sight=False, within_reach=True, user=referee, nonce=nonce()
    )
    html = _page(as_user(referee), performed.situation)
    assert "The instant attack became aggression: Anton was in Zavulon&#x27;s field of view." in html
    assert "not close enough" not in html and ">IA1</a>" in html


def test_D3_building_a_new_arsenal_with_no_card_is_refused(as_user, referee, round_break, character):
    client = as_user(referee)
    version = Situation.objects.get(pk=round_break.pk).version
    response = post_action(
        client, round_break, action="round_choice", duel=0, fighter=character.pk, go_on="yes", arsenal="new"
    )
    assert response.status_code == 400
    assert "Pick at least one card for the new arsenal, or keep the hand." in response.content.decode()
    assert Situation.objects.get(pk=round_break.pk).version == version


def test_D3_after_saving_the_form_shows_the_choice_that_was_saved(
    as_user,
    referee,
    round_break,
    character,
    attack_card,
):
    client = as_user(referee)
    prepared = PreparedArsenal.objects.create(character=character, name="Fire set")
    PreparedArsenalCard.objects.create(arsenal=prepared, card=attack_card, copies=1)
    post_action(
        client,
        round_break,
        action="round_choice",
        duel=0,
        fighter=character.pk,
        go_on="yes",
        arsenal=f"prepared-{prepared.pk}",
    )
    html = _page(client, round_break)
    mine = html[html.index(f'id="choice-0-{character.pk}"') :]
    mine = mine[: mine.index("</form>")]
    assert f'value="prepared-{prepared.pk}" id="ars-0-{character.pk}-p{prepared.pk}" checked' in mine
    assert f'value="keep" id="ars-0-{character.pk}-keep" checked' not in mine


def test_the_start_form_offers_only_fighters_who_can_fight_checked_in_first_and_recent_on_top(
    as_user, referee, armed, event, fight
):
    anton, _zavulon = armed
    helpless = Character.objects.create(event=event, name="Беспомощный", condition="helpless")
    came = Character.objects.create(event=event, name="Яна", arrived=True)
    html = as_user(referee).get(reverse("duels:start", args=[event.pk])).content.decode()
    assert helpless.name not in html
    recent = html.index("Recently in your fights")
    arrived = html.index("Checked in")
    assert recent < html.index(f'value="{anton.pk}"') < arrived < html.index(f'value="{came.pk}"')
    assert 'data-filter-for="id_a"' in html


def test_a_start_form_sent_again_after_the_fight_started_links_the_running_fight(
    as_user, referee, armed, event, attack_card
):
    """The Back button: the card shown is spent, and Django's raw "Select a valid choice" must not appear."""
    anton, zavulon = armed
    client = as_user(referee)
    url = reverse("duels:start", args=[event.pk])
    form = {"kind": "aggression", "a": anton.pk, "b": zavulon.pk, "card": attack_card.pk}
    first = client.post(url, {**form, "nonce": nonce()})
    situation_id = int(first["Location"].rstrip("/").rsplit("/", 1)[1])
    client.post(url, {**form, "nonce": nonce()})  # the second Fireball, shown again from a stale page
    again = client.post(url, {**form, "nonce": nonce()})
    html = again.content.decode()
    assert again.status_code == 409
    assert "This fight has already started" in html and "Select a valid choice" not in html
    assert f'href="/fights/{situation_id}/"' in html and 'id="running-fight-link"' in html
    assert Situation.objects.filter(event=event).count() == 1


def test_IA1_the_checklist_errors_stand_at_their_questions(as_user, referee, armed, event):
    anton, zavulon = armed
    response = as_user(referee).post(
        reverse("duels:start", args=[event.pk]), {"kind": "instant", "a": anton.pk, "b": zavulon.pk, "nonce": nonce()}
    )
    html = response.content.decode()
    assert response.status_code == 400
    sight = html[html.index('id="question-out-of-sight"') : html.index('id="question-within-reach"')]
    assert "question-error" in html and "Answer this question." in sight
    assert "Some answers are missing: see the marked questions." in html

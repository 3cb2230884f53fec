"""The referee's home and starting a fight (S1): aggression (AG1) or an instant attack (IA1, IA2)."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.models import Character
from rules import duel as engine
from tests.services.kit import SECRET_ZAVULON, nonce
from tests.web.duels_kit import state_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("secret_hands")]
SEARCH = {"HX-Request": "true", "HX-Target": "search-results"}


def _start(client, event, a, b, **data):
    return client.post(
        reverse("duels:start", args=[event.pk]), {"a": a.pk, "b": b.pk, "nonce": nonce(), "card": "", **data}
    )


def test_referee_home_lists_the_running_fights(as_user, referee, shown, character, rival):
    html = as_user(referee).get(reverse("duels:referee-home", args=[shown.event_id])).content.decode()
    assert reverse("duels:situation", args=[shown.pk]) in html
    assert character.name in html and rival.name in html and "bout 1" in html


def test_referee_home_search_as_you_type_and_without_javascript(as_user, referee, event, character, rival):
    client = as_user(referee)
    url = reverse("duels:referee-home", args=[event.pk])
    fragment = client.get(url, {"q": "zav"}, headers={"HX-Request": "true", "HX-Target": "search-results"})
    html = fragment.content.decode()
    assert "<html" not in html and 'id="search-results"' in html
    assert rival.name in html and character.name not in html
    assert f"?with={rival.pk}" in html  # "start a fight with…"
    full = client.get(url, {"q": "ant"}).content.decode()
    assert "<html" in full and character.name in full and rival.name not in full


def test_S2_search_links_to_a_running_fight_only_until_its_gap_runs_out(
    as_user, referee, armed, event, character, rival, time_machine
):
    time_machine.move_to(timezone.now(), tick=False)
    situation = declare_aggression(event, character, rival, None, user=referee, nonce=nonce()).situation
    client = as_user(referee)
    url = reverse("duels:referee-home", args=[event.pk])
    fight_url = reverse("duels:situation", args=[situation.pk])
    assert fight_url in client.get(url, {"q": "ant"}, headers=SEARCH).content.decode()
    # Nobody reads the fight and no worker runs: the search itself applies the end (S2).
    time_machine.shift(dt.timedelta(seconds=event.situation_gap_s + 1))
    html = client.get(url, {"q": "ant"}, headers=SEARCH).content.decode()
    assert character.name in html and fight_url not in html
    assert Situation.objects.get(pk=situation.pk).ended


def test_AG1_start_by_a_spoken_declaration(as_user, referee, armed, event, character, rival):
    response = _start(as_user(referee), event, character, rival, kind="aggression", max_rounds="2")
    situation = Situation.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("duels:situation", args=[situation.pk])
    duel = state_of(situation).duels[0]
    # D5: the declarer acts first; D2: the agreed maximum of rounds is kept.
    assert (duel.opened_by, duel.attacker, duel.phase, duel.max_rounds) == (
        "aggression",
        character.pk,
        "await_attack",
        2,
    )


def test_AG1_start_with_an_attack_card_shown_at_once(as_user, referee, armed, event, character, rival, attack_card):
    _start(as_user(referee), event, character, rival, kind="aggression", card=attack_card.pk)
    duel = state_of(Situation.objects.get()).duels[0]
    assert duel.phase == engine.AWAIT_ANSWER and duel.step.attacker == character.pk


def test_IA1_the_checklist_must_be_answered(as_user, referee, armed, event, character, rival, attack_card):
    response = _start(as_user(referee), event, character, rival, kind="instant", card=attack_card.pk)
    assert response.status_code == 400
    assert "Answer this question." in response.content.decode()
    assert not Situation.objects.exists()


def test_IA1_a_failed_checklist_becomes_aggression(as_user, referee, armed, event, character, rival, attack_card):
    _start(
        as_user(referee),
        event,
        character,
        rival,
        kind="instant",
        card=attack_card.pk,
        out_of_sight="yes",
        within_reach="no",
    )
    situation = Situation.objects.get()
    st = state_of(situation)
    assert st.duels[0].opened_by == "aggression" and not st.instant_attack_used
    types = [e["type"] for entry in LogEntry.objects.filter(situation=situation) for e in entry.events]
    assert "converted_to_aggression" in types
    html = as_user(referee).get(reverse("duels:situation", args=[situation.pk])).content.decode()
    assert "IA1: no surprise" in html


def test_IA3_F1_a_focused_victim_is_shown_and_their_focus_answers(
    as_user, referee, armed, event, character, rival, attack_card, defence_card
):
    Character.objects.filter(pk=rival.pk).update(focus_card=defence_card)
    client = as_user(referee)
    page = client.get(reverse("duels:start", args=[event.pk]), {"a": character.pk, "b": rival.pk}).content.decode()
    assert "victim-focus" in page and "Mage Shield" in page
    _start(client, event, character, rival, kind="instant", card=attack_card.pk, out_of_sight="yes", within_reach="yes")
    st = state_of(Situation.objects.get())
    step = st.duels[0].step
    assert st.duels[0].opened_by == "instant_attack" and step.drawn
    assert st.cards[step.answer_card].card_id == defence_card.pk
    assert step.proposed == "parried"


def test_a_refused_start_shows_the_message_and_changes_nothing(as_user, referee, shown, event, character, rival):
    """Anton is already in a duel with Zavulon; Olga cannot start another one with him (D1)."""
    olga = Character.objects.create(event=event, name="Olga")
    client = as_user(referee)
    entries = LogEntry.objects.count()
    response = _start(client, event, olga, character, kind="aggression")
    assert response.status_code == 422
    assert "Anton is already fighting Zavulon." in response.content.decode()
    assert LogEntry.objects.count() == entries and Situation.objects.count() == 1


def test_the_same_character_twice_is_refused(as_user, referee, armed, event, character):
    response = as_user(referee).get(reverse("duels:start", args=[event.pk]), {"a": character.pk, "b": character.pk})
    assert "Choose two different characters." in response.content.decode()


def test_start_link_from_a_character(as_user, referee, armed, event, character):
    page = as_user(referee).get(reverse("duels:start", args=[event.pk]), {"with": character.pk}).content.decode()
    assert f'<option value="{character.pk}" selected>' in page


def test_a_character_of_another_event_cannot_be_chosen(as_user, referee, armed, event, other_event, character):
    stranger = Character.objects.create(event=other_event, name="Stranger")
    response = _start(as_user(referee), event, character, stranger, kind="aggression")
    assert response.status_code == 400 and not Situation.objects.exists()


def test_the_start_page_shows_the_attackers_cards_to_the_referee(as_user, referee, armed, event, character, rival):
    html = as_user(referee).get(reverse("duels:start", args=[event.pk]), {"a": rival.pk, "b": character.pk})
    assert SECRET_ZAVULON[1] in html.content.decode()


def _physical(event):
    event.physical_draws = True
    event.save(update_fields=["physical_draws"])


def test_IA3_real_cards_the_referee_taps_the_drawn_card_in_the_victims_hand(
    as_user, referee, armed, event, character, rival, attack_card, spark
):
    _physical(event)
    client = as_user(referee)
    page = client.get(reverse("duels:start", args=[event.pk]), {"a": character.pk, "b": rival.pk}).content.decode()
    assert 'id="question-drawn"' in page and f'id="drawn-{spark.pk}"' in page
    ia = {"kind": "instant", "card": attack_card.pk, "out_of_sight": "yes", "within_reach": "yes"}
    assert _start(client, event, character, rival, drawn=spark.pk, **ia).status_code == 302
    situation = Situation.objects.get()
    step = state_of(situation).duels[0].step
    assert step.drawn and state_of(situation).cards[step.answer_card].card_id == spark.pk
    page = client.get(reverse("duels:situation", args=[situation.pk])).content.decode()
    assert 'data-answer-by="real_cards"' in page and "drawn from the real cards" in page


def test_IA3_real_cards_the_scanned_QR_address_is_the_recorded_card(
    as_user, referee, armed, event, character, rival, attack_card, spark
):
    _physical(event)
    ia = {"kind": "instant", "card": attack_card.pk, "out_of_sight": "yes", "within_reach": "yes"}
    code = f"http://10.42.0.1:8000/cards/{spark.pk}/"
    assert _start(as_user(referee), event, character, rival, drawn_code=code, **ia).status_code == 302
    st = state_of(Situation.objects.get())
    assert st.cards[st.duels[0].step.answer_card].card_id == spark.pk


@pytest.mark.parametrize("code", ["not a card", "#3"])
def test_IA3_real_cards_a_code_that_is_no_card_is_refused_in_words(
    as_user, referee, armed, event, character, rival, attack_card, code
):
    _physical(event)
    ia = {"kind": "instant", "card": attack_card.pk, "out_of_sight": "yes", "within_reach": "yes"}
    response = _start(as_user(referee), event, character, rival, drawn_code=code, **ia)
    assert response.status_code == 400 and "QR" in response.content.decode()
    assert not Situation.objects.exists()


def test_IA3_real_cards_a_card_not_in_the_victims_hand_is_refused_and_nothing_changes(
    as_user, referee, armed, event, character, rival, attack_card
):
    _physical(event)
    ia = {"kind": "instant", "card": attack_card.pk, "out_of_sight": "yes", "within_reach": "yes"}
    # The attacker's Fireball: not in Zavulon's hand.
    response = _start(as_user(referee), event, character, rival, drawn=attack_card.pk, **ia)
    assert response.status_code == 422
    assert "Zavulon does not hold the card Fireball." in response.content.decode()
    assert not LogEntry.objects.filter(command__type="instant_attack").exists()
    assert not Situation.objects.filter(ended=False).exists()


def test_IA3_real_cards_off_by_default_no_drawn_card_is_asked(
    as_user, referee, armed, event, character, rival, attack_card, spark
):
    page = as_user(referee).get(reverse("duels:start", args=[event.pk]), {"a": character.pk, "b": rival.pk})
    assert 'id="question-drawn"' not in page.content.decode()

"""Issue 9 on the pages: the answer's source from the record (IA3, F1), the checklist's questions,
and a character's condition set with its records (CR1, D11)."""

import pytest
from django.urls import reverse

from duels import services
from duels.duel.forms import StartForm
from duels.duel.start import start_instant_attack
from events.models import Character, ConditionRecord
from rules import duel as engine
from tests.services.kit import nonce
from tests.web.duels_kit import state_of

pytestmark = pytest.mark.django_db


def _instant(anton, zavulon, attack_card, referee, **kw):
    return start_instant_attack(
        anton.event,
        anton,
        zavulon,
        attack_card.pk,
        out_of_sight=True,
        within_reach=True,
        user=referee,
        nonce=nonce(),
        **kw,
    ).situation


def test_IA3_F1_the_fight_screen_says_how_the_answer_was_chosen_from_the_record(
    as_user, referee, armed, attack_card, defence_card
):
    """The label followed the victim's focus at display time: dropping the focus made a focus answer read "blind"."""
    anton, zavulon = armed
    Character.objects.filter(pk=zavulon.pk).update(focus_card=defence_card)
    zavulon.refresh_from_db()
    situation = _instant(anton, zavulon, attack_card, referee)
    situation.refresh_from_db()
    services.perform(
        situation.pk, engine.SetFocus(zavulon.pk, None), user=referee, seen_version=situation.version, nonce=nonce()
    )
    html = as_user(referee).get(reverse("duels:situation", args=[situation.pk])).content.decode()
    assert 'data-answer-by="focus"' in html and "the focused card answers" in html
    assert "drawn blind" not in html


def test_IA3_the_screen_shows_a_declined_parry(as_user, referee, armed, attack_card):
    anton, zavulon = armed
    situation = _instant(anton, zavulon, attack_card, referee, parry=False)
    html = as_user(referee).get(reverse("duels:situation", args=[situation.pk])).content.decode()
    assert 'data-answer-by="declined"' in html and "does not try to parry" in html


def test_IA3_F1_the_checklist_asks_about_parrying_and_the_held_focus(
    as_user, referee, armed, event, character, rival, attack_card, defence_card
):
    client = as_user(referee)
    url = reverse("duels:start", args=[event.pk])
    page = client.get(url, {"a": character.pk, "b": rival.pk}).content.decode()
    assert 'name="parry"' in page and 'name="focus_held"' not in page  # no focus, no question
    Character.objects.filter(pk=rival.pk).update(focus_card=defence_card)
    page = client.get(url, {"a": character.pk, "b": rival.pk}).content.decode()
    assert 'name="focus_held"' in page
    data = {"a": character.pk, "b": rival.pk, "nonce": nonce(), "kind": "instant", "card": attack_card.pk}
    data |= {"out_of_sight": "yes", "within_reach": "yes", "parry": "yes", "focus_held": "no"}
    assert client.post(url, data).status_code == 302
    step = state_of(character.situations.get()).duels[0].step
    assert step.answer_by == "draw"  # F1: not held in front, so a blind draw


def test_CR1_the_condition_page_shows_every_condition_and_records_a_cleared_one(
    as_user, organizer, referee, player, armed
):
    _anton, zavulon = armed
    Character.objects.filter(pk=zavulon.pk).update(condition="heavily_wounded+paralysed")
    url = reverse("duels:condition", args=[zavulon.pk])
    client = as_user(organizer)
    html = client.get(url).content.decode()
    assert "heavily wounded" in html and "paralysed" in html
    # Refused without a reason: nothing changes.
    response = client.post(url, {"change": "clear", "condition": "paralysed", "reason": ""})
    assert response.status_code == 400 and Character.objects.get(pk=zavulon.pk).condition == "heavily_wounded+paralysed"
    response = client.post(url, {"change": "clear", "condition": "paralysed", "reason": "the paralysis wore off"})
    assert response.status_code == 302
    assert Character.objects.get(pk=zavulon.pk).condition == "heavily_wounded"
    record = ConditionRecord.objects.get()
    assert (record.reason, record.actor) == ("the paralysis wore off", organizer)
    assert "the paralysis wore off" in client.get(url).content.decode()
    # The character's own page for the organizer shows the set and the records too.
    edit = client.get(reverse("events:character-edit", args=[zavulon.pk])).content.decode()
    assert "the paralysis wore off" in edit
    # A player may not record anything (D4's roles: referees and organizers only).
    assert as_user(player).get(url).status_code == 404
    assert as_user(referee).get(url).status_code == 200


def test_CR1_the_characters_list_filters_by_one_condition_of_a_set(as_user, organizer, armed, event):
    anton, zavulon = armed
    Character.objects.filter(pk=zavulon.pk).update(condition="heavily_wounded+paralysed")
    html = (
        as_user(organizer)
        .get(reverse("events:characters", args=[event.pk]), {"condition": "paralysed"})
        .content.decode()
    )
    assert zavulon.name in html and anton.name not in html


@pytest.mark.parametrize(
    ("sent", "parry", "focus_held"),
    [({}, True, True), ({"parry": "no", "focus_held": "no"}, False, False), ({"parry": "yes"}, True, True)],
)
def test_IA3_F1_a_start_form_without_the_questions_means_yes(sent, parry, focus_held):
    """An older page has no parry or focus question: the victim parries, with the focus held."""
    data = {"kind": "aggression", "nonce": nonce(), **sent}
    form = StartForm(data, cards=[])
    assert form.is_valid(), form.errors
    assert (form.cleaned_data["parry"], form.cleaned_data["focus_held"]) == (parry, focus_held)

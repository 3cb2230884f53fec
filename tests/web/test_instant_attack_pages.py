"""The instant attack on the referee's pages (IA1-IA7, F1): the start form's checklist, the draw on the tablet."""

import pytest
from django.urls import reverse

from duels import services
from duels.duel.forms import StartForm
from events.models import Character
from rules import duel as engine
from tests.services.kit import nonce
from tests.web.duels_kit import instant_fight, state_of

pytestmark = pytest.mark.django_db


def test_IA3_F1_the_fight_screen_says_how_the_answer_was_chosen_from_the_record(
    as_user, referee, armed, attack_card, defence_card
):
    """The label followed the victim's focus at display time: dropping the focus made a focus answer read "blind"."""
    anton, zavulon = armed
    Character.objects.filter(pk=zavulon.pk).update(focus_card=defence_card)
    zavulon.refresh_from_db()
    situation = instant_fight(anton, zavulon, attack_card, referee)
    situation.refresh_from_db()
    services.perform(
        situation.pk, engine.SetFocus(zavulon.pk, None), user=referee, seen_version=situation.version, nonce=nonce()
    )
    html = as_user(referee).get(reverse("duels:situation", args=[situation.pk])).content.decode()
    assert 'data-answer-by="focus"' in html and "the focused card answers" in html
    assert "drawn blind" not in html


def test_IA3_the_screen_shows_a_declined_parry(as_user, referee, armed, attack_card):
    anton, zavulon = armed
    situation = instant_fight(anton, zavulon, attack_card, referee, parry=False)
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

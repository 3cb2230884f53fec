"""D8 lag grace through the tablet's answer form: the form's ``lag_ms`` reaches the services."""

import datetime as dt

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from duels.models import LogEntry
from rules import duel as engine
from tests.services.kit import nonce
from tests.web.duels_kit import post_action, state_of, uid_of

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("grace_ms", "status"), [(2000, 200), (0, 422)])
def test_D8_lag_grace_the_answer_form_carries_the_tablets_time(
    as_user, referee, shown, rival, defence_card, grace_ms, status
):
    shown.event.lag_grace_ms = grace_ms
    shown.event.save(update_fields=["lag_grace_ms"])
    deadline = state_of(shown).duels[0].step.answer_deadline
    client = as_user(referee)
    card = uid_of(shown, rival.pk, defence_card)
    with time_machine.travel(deadline + dt.timedelta(seconds=1), tick=False):
        assert timezone.now() > deadline
        response = post_action(client, shown, action="answer", duel=0, fighter=rival.pk, card=card, lag_ms=14500)
    assert response.status_code == status
    answered = LogEntry.objects.filter(situation=shown, command__type="answer").exists()
    assert answered is (grace_ms > 0)
    if answered:
        assert state_of(shown).duels[0].phase == engine.AWAIT_RESULT
        assert "lag grace" in response.content.decode()
    else:
        assert "D8" in response.content.decode()


def test_D8_lag_grace_a_malformed_lag_is_a_form_error(as_user, referee, shown, rival):
    response = post_action(as_user(referee), shown, action="answer", duel=0, fighter=rival.pk, card="", lag_ms="soon")
    assert response.status_code == 400
    assert not LogEntry.objects.filter(situation=shown, command__type="answer").exists()


def test_D8_a_page_after_a_late_undo_offers_no_answer_for_the_closed_window(
    as_user, referee, shown, rival, defence_card
):
    """D8: undoing an answer after its window closed gives back no window; the page says the attack took effect."""
    client = as_user(referee)
    card = uid_of(shown, rival.pk, defence_card)
    assert post_action(client, shown, action="answer", duel=0, fighter=rival.pk, card=card).status_code == 200
    deadline = state_of(shown).duels[0].step.answer_deadline
    shown.refresh_from_db()
    with time_machine.travel(deadline + dt.timedelta(seconds=5), tick=False):
        response = client.post(
            reverse("duels:undo", args=[shown.pk]),
            {"version": shown.version, "nonce": nonce(), "reason": "wrong card"},
            headers={"HX-Request": "true"},
        )
    assert response.status_code == 200
    html = response.content.decode()
    assert "answer-form" not in html and "data-closes" not in html
    shown.refresh_from_db()
    assert shown.state["duels"][0]["phase"] != engine.AWAIT_ANSWER
    kinds = list(LogEntry.objects.filter(situation=shown).order_by("seq").values_list("kind", flat=True))
    assert kinds[-2:] == ["undo", "expire"]

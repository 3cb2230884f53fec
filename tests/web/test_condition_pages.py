"""A character's condition on the staff's pages (CR1, D11): the condition page, its records, the list's filter."""

import pytest
from django.urls import reverse

from events.models import Character, ConditionRecord

pytestmark = pytest.mark.django_db


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

"""Applying with a character, the organizers' queue, and what the applicant sees."""

import datetime as dt

from django.urls import reverse
from django.utils import timezone

from events.models import Character

APPLICATION = {
    "name": "Olga",
    "side": "light",
    "kind": "enchanter",
    "power_level": "2",
    "application": "An owl for sixty years.",
}


def test_apply_creates_a_pending_application(as_user, player, event):
    response = as_user(player).post(reverse("events:apply", args=[event.pk]), APPLICATION)
    olga = Character.objects.get(name="Olga")
    assert response.status_code == 302
    assert response["Location"] == reverse("events:my-character", args=[olga.pk])
    assert olga.event == event and olga.player == player
    assert olga.status == Character.Status.PENDING
    assert (olga.side, olga.kind, olga.power_level) == ("light", "enchanter", "2")
    assert olga.application == "An owl for sixty years."


def test_apply_twice_files_one_application(as_user, player, event):
    client = as_user(player)
    client.post(reverse("events:apply", args=[event.pk]), APPLICATION)
    client.post(reverse("events:apply", args=[event.pk]), APPLICATION)
    assert Character.objects.filter(name="Olga").count() == 1


def test_apply_with_bad_input_shows_errors_and_creates_nothing(as_user, player, event):
    response = as_user(player).post(reverse("events:apply", args=[event.pk]), {**APPLICATION, "name": "", "side": "x"})
    assert response.status_code == 200
    assert "is-invalid" in response.text
    assert not Character.objects.filter(event=event, player=player).exists()


def test_apply_is_refused_when_registration_is_closed(as_user, player, event):
    event.registration_open = False
    event.save()
    client = as_user(player)
    page = client.get(reverse("events:apply", args=[event.pk]))
    assert page.status_code == 200
    assert "Registration for this event is closed." in page.text
    assert 'name="application"' not in page.text
    response = client.post(reverse("events:apply", args=[event.pk]), APPLICATION)
    assert response.status_code == 302
    assert not Character.objects.filter(name="Olga").exists()


def test_my_applications_are_on_the_home_page(as_user, player, event):
    as_user(player).post(reverse("events:apply", args=[event.pk]), APPLICATION)
    home = as_user(player).get(reverse("home"))
    olga = Character.objects.get(name="Olga")
    assert reverse("events:my-character", args=[olga.pk]) in home.text


def _pending(event, player, name="Olga") -> Character:
    return Character.objects.create(
        event=event, player=player, name=name, status=Character.Status.PENDING, application="Story"
    )


def test_queue_lists_pending_applications(as_user, organizer, event, player, character):
    olga = _pending(event, player)
    response = as_user(organizer).get(reverse("events:applications", args=[event.pk]))
    assert "Olga" in response.text
    assert "Story" in response.text
    assert "Anton" not in response.text  # accepted already: not in the waiting queue
    accepted = as_user(organizer).get(reverse("events:applications", args=[event.pk]) + "?show=accepted")
    assert "Anton" in accepted.text and "Olga" not in accepted.text
    assert olga.status == Character.Status.PENDING


def test_accept_changes_the_status_and_the_applicant_sees_it(as_user, organizer, event, player):
    olga = _pending(event, player)
    response = as_user(organizer).post(
        reverse("events:application-review", args=[olga.pk]), {"decision": "accept", "comment": "Welcome aboard"}
    )
    assert response.status_code == 302
    olga.refresh_from_db()
    assert olga.status == Character.Status.ACCEPTED
    assert olga.review_comment == "Welcome aboard"
    page = as_user(player).get(reverse("events:my-character", args=[olga.pk]))
    assert "Welcome aboard" in page.text
    assert 'id="character-state"' in page.text


def test_reject_with_comment_and_the_applicant_sees_it(as_user, organizer, event, player):
    olga = _pending(event, player)
    as_user(organizer).post(
        reverse("events:application-review", args=[olga.pk]), {"decision": "reject", "comment": "Too strong"}
    )
    olga.refresh_from_db()
    assert olga.status == Character.Status.REJECTED
    page = as_user(player).get(reverse("events:my-character", args=[olga.pk]))
    assert "Too strong" in page.text
    assert 'id="character-state"' not in page.text  # no condition or arsenal for a rejected character


def test_review_by_htmx_takes_the_item_out_of_the_queue_and_updates_the_count(as_user, organizer, event, player):
    """Issue 10: an accepted application leaves the queue (a note takes its place) and the waiting count drops."""
    olga = _pending(event, player)
    _pending(event, player, name="Pavel")
    response = as_user(organizer).post(
        reverse("events:application-review", args=[olga.pk]),
        {"decision": "accept", "comment": ""},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    note = f'<div class="alert alert-success mb-0 decided" id="application-{olga.pk}"'
    assert response.text.lstrip().startswith(note)
    assert 'name="decision"' not in response.text
    assert '<span class="badge text-bg-light" id="pending-count" hx-swap-oob="true">1</span>' in response.text
    assert "<html" not in response.text
    olga.refresh_from_db()
    assert olga.status == Character.Status.ACCEPTED


def test_review_with_a_bad_decision_changes_nothing(as_user, organizer, event, player):
    olga = _pending(event, player)
    as_user(organizer).post(reverse("events:application-review", args=[olga.pk]), {"decision": "maybe"})
    olga.refresh_from_db()
    assert olga.status == Character.Status.PENDING


def test_pending_page_shows_the_application_not_the_arsenal(as_user, event, player):
    olga = _pending(event, player)
    page = as_user(player).get(reverse("events:my-character", args=[olga.pk]))
    assert "waiting for the organizers" in page.text
    assert 'id="arsenal"' not in page.text


def test_player_never_sees_the_private_notes(as_user, player, character):
    character.notes = "Secretly a Dark agent"
    character.review_comment = "See you at the gate"
    character.save()
    mine = as_user(player).get(reverse("events:my-character", args=[character.pk]))
    by_link = as_user(None).get(reverse("events:character-link", args=[character.link_token]))
    for page in (mine, by_link):
        assert page.status_code == 200
        assert "See you at the gate" in page.text
        assert "Secretly a Dark agent" not in page.text


def test_other_player_cannot_open_my_character(as_user, other_player, character):
    assert as_user(other_player).get(reverse("events:my-character", args=[character.pk])).status_code == 404


def test_an_event_that_is_over_takes_no_applications_and_leaves_the_home_page(as_user, player, event):
    event.starts_on = event.ends_on = timezone.localdate() - dt.timedelta(days=1)
    event.save()
    client = as_user(player)
    assert reverse("events:apply", args=[event.pk]) not in client.get(reverse("home")).text
    response = client.post(reverse("events:apply", args=[event.pk]), APPLICATION)
    assert response.status_code == 302
    assert not Character.objects.filter(name="Olga").exists()

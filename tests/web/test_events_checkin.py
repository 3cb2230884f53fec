"""Check-in at the gate: the "arrived" toggle, with htmx and without."""

from django.urls import reverse

from events.models import Character


def _set(client, character, arrived: str, **kwargs):
    return client.post(reverse("events:check-in-set", args=[character.pk]), {"arrived": arrived}, **kwargs)


def test_check_in_lists_accepted_characters_only(as_user, organizer, event, character, rival):
    Character.objects.create(event=event, name="Applicant", status=Character.Status.PENDING)
    page = as_user(organizer).get(reverse("events:check-in", args=[event.pk]))
    assert "Anton" in page.text and "Zavulon" in page.text
    assert "Applicant" not in page.text


def test_check_in_sets_arrived_without_js(as_user, organizer, event, character):
    response = _set(as_user(organizer), character, "1")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("events:check-in", args=[event.pk]))
    character.refresh_from_db()
    assert character.arrived and character.arrived_at is not None


def test_check_in_toggles_back(as_user, organizer, character):
    client = as_user(organizer)
    _set(client, character, "1")
    _set(client, character, "0")
    character.refresh_from_db()
    assert not character.arrived and character.arrived_at is None


def test_repeated_tap_keeps_the_first_arrival_time(as_user, organizer, character):
    client = as_user(organizer)
    _set(client, character, "1")
    character.refresh_from_db()
    first = character.arrived_at
    _set(client, character, "1")
    character.refresh_from_db()
    assert character.arrived and character.arrived_at == first


def test_htmx_check_in_returns_the_row(as_user, organizer, character):
    response = _set(as_user(organizer), character, "1", headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.text.lstrip().startswith("<div class=")
    assert f'id="character-{character.pk}"' in response.text
    assert "<html" not in response.text
    assert 'value="0"' in response.text  # the button now un-checks
    character.refresh_from_db()
    assert character.arrived


def test_pending_character_cannot_be_checked_in(as_user, organizer, event, player):
    applicant = Character.objects.create(event=event, player=player, name="X", status=Character.Status.PENDING)
    _set(as_user(organizer), applicant, "1")
    applicant.refresh_from_db()
    assert not applicant.arrived


def test_check_in_search_and_htmx_list(as_user, organizer, event, character, rival):
    client = as_user(organizer)
    page = client.get(reverse("events:check-in", args=[event.pk]), {"q": "zav"})
    assert "Zavulon" in page.text and "Anton" not in page.text
    partial = client.get(
        reverse("events:check-in", args=[event.pk]),
        {"q": "ant"},
        headers={"HX-Request": "true", "HX-Target": "check-in-list"},
    )
    assert partial.text.lstrip().startswith('<div class="list-group" id="check-in-list">')
    assert "Anton" in partial.text and "Zavulon" not in partial.text


def test_check_in_from_another_event_is_404(as_user, other_organizer, character):
    assert _set(as_user(other_organizer), character, "1").status_code == 404
    character.refresh_from_db()
    assert not character.arrived

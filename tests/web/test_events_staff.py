"""Organizers add referees and other organizers to their event by username."""

from django.contrib.auth.models import User
from django.urls import reverse

from events.access import is_organizer, is_referee
from events.models import StaffRole


def test_add_a_referee_by_username(as_user, organizer, event, player):
    response = as_user(organizer).post(
        reverse("events:staff", args=[event.pk]), {"username": "Player", "role": "referee"}
    )
    assert response.status_code == 302
    assert is_referee(player, event) and not is_organizer(player, event)
    page = as_user(organizer).get(reverse("events:staff", args=[event.pk]))
    assert "player" in page.text


def test_add_an_organizer_who_then_opens_the_event(as_user, organizer, event, player):
    as_user(organizer).post(reverse("events:staff", args=[event.pk]), {"username": "player", "role": "organizer"})
    assert is_organizer(player, event)
    assert as_user(player).get(reverse("events:organizer-home", args=[event.pk])).status_code == 200


def test_unknown_username_is_a_form_error(as_user, organizer, event):
    response = as_user(organizer).post(
        reverse("events:staff", args=[event.pk]), {"username": "ghost", "role": "referee"}
    )
    assert response.status_code == 200
    assert "There is no account named" in response.text
    assert StaffRole.objects.filter(event=event).count() == 1


def test_accounts_differing_only_in_letter_case_need_the_exact_username(as_user, organizer, event):
    """Sign-up refuses such twins, but the admin can make them: an inexact name was a 500."""
    sveta = User.objects.create_user("Sveta")
    User.objects.create_user("sveta")
    url = reverse("events:staff", args=[event.pk])
    response = as_user(organizer).post(url, {"username": "SVETA", "role": "referee"})
    assert response.status_code == 200
    assert "Several accounts are named “SVETA” in different letter cases" in response.text
    assert StaffRole.objects.filter(event=event).count() == 1
    assert as_user(organizer).post(url, {"username": "Sveta", "role": "referee"}).status_code == 302
    assert list(StaffRole.objects.filter(event=event, role="referee").values_list("user", flat=True)) == [sveta.pk]


def test_same_role_twice_is_a_form_error(as_user, organizer, referee, event):
    response = as_user(organizer).post(
        reverse("events:staff", args=[event.pk]), {"username": "referee", "role": "referee"}
    )
    assert response.status_code == 200
    assert "already has this role" in response.text
    assert StaffRole.objects.filter(event=event, user=referee).count() == 1


def test_bad_role_is_a_form_error(as_user, organizer, event, player):
    response = as_user(organizer).post(reverse("events:staff", args=[event.pk]), {"username": "player", "role": "king"})
    assert response.status_code == 200
    assert not StaffRole.objects.filter(user=player).exists()


def test_remove_a_referee(as_user, organizer, referee, event):
    role = StaffRole.objects.get(user=referee)
    as_user(organizer).post(reverse("events:staff-remove", args=[event.pk, role.pk]))
    assert not is_referee(referee, event)


def test_the_last_organizer_cannot_be_removed(as_user, organizer, event):
    role = StaffRole.objects.get(user=organizer)
    response = as_user(organizer).post(reverse("events:staff-remove", args=[event.pk, role.pk]), follow=True)
    assert is_organizer(organizer, event)
    assert "at least one organizer" in response.text


def test_an_organizer_may_leave_when_another_remains(as_user, organizer, event):
    second = User.objects.create_user("second")
    StaffRole.objects.create(event=event, user=second, role=StaffRole.Role.ORGANIZER)
    role = StaffRole.objects.get(user=organizer)
    response = as_user(organizer).post(reverse("events:staff-remove", args=[event.pk, role.pk]))
    assert response["Location"] == reverse("home")
    assert not is_organizer(organizer, event) and is_organizer(second, event)


def test_role_of_another_event_cannot_be_removed(as_user, organizer, other_organizer, event, other_event):
    role = StaffRole.objects.get(user=other_organizer)
    assert as_user(organizer).post(reverse("events:staff-remove", args=[event.pk, role.pk])).status_code == 404
    assert StaffRole.objects.filter(pk=role.pk).exists()

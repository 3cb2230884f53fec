"""The admin pages for events, staff roles and characters."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from events.admin import CharacterAdmin


@pytest.fixture
def admin_client_(db, as_user):
    return as_user(User.objects.create_superuser("root", "root@example.org", "pw"))


def test_character_admin_lists_searches_and_filters(admin_client_, character, rival, django_assert_max_num_queries):
    url = reverse("admin:events_character_changelist")
    with django_assert_max_num_queries(12):
        response = admin_client_.get(url)
    assert response.status_code == 200
    assert "Anton" in response.text and "Zavulon" in response.text
    found = admin_client_.get(url, {"q": "other_player"})
    assert "Zavulon" in found.text and "Anton" not in found.text
    dark = admin_client_.get(url, {"side__exact": "dark"})
    assert "Zavulon" in dark.text and "Anton" not in dark.text


def test_event_admin_has_the_staff_inline(admin_client_, event, organizer):
    response = admin_client_.get(reverse("admin:events_event_change", args=[event.pk]))
    assert response.status_code == 200
    assert "staff-TOTAL_FORMS" in response.text


def test_staff_role_admin_lists(admin_client_, organizer, referee):
    response = admin_client_.get(reverse("admin:events_staffrole_changelist"))
    assert "organizer" in response.text and "referee" in response.text


def test_admin_action_regenerates_links(admin_client_, character):
    old = character.link_token
    admin_client_.post(
        reverse("admin:events_character_changelist"),
        {"action": "regenerate_links", "_selected_action": [character.pk]},
    )
    character.refresh_from_db()
    assert character.link_token != old and character.link_active


def test_admin_action_revokes_links(admin_client_, character):
    admin_client_.post(
        reverse("admin:events_character_changelist"), {"action": "revoke_links", "_selected_action": [character.pk]}
    )
    character.refresh_from_db()
    assert not character.link_active


def test_character_admin_inlines_can_be_extended_by_the_cards_app():
    assert isinstance(CharacterAdmin.inlines, list)

"""The admin pages for events, staff roles and characters."""

import pytest
from django.contrib.auth.models import Permission, User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cards.models import ArsenalCard
from events.admin import CharacterAdmin
from events.models import Character, Event, StaffRole


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


def _grow(event, n: int, tag: str) -> None:
    """``n`` more staff roles, characters (each with a player) and events."""
    for i in range(n):
        user = User.objects.create_user(f"{tag}{i}")
        StaffRole.objects.create(event=event, user=user, role=StaffRole.Role.REFEREE)
        Character.objects.create(event=event, player=user, name=f"{tag}-character-{i}")
        Event.objects.create(name=f"{tag}-event-{i}", starts_on=event.starts_on, ends_on=event.ends_on)


@pytest.mark.parametrize(
    "page",
    ["events_event_changelist", "events_event_change", "events_character_changelist", "events_character_change"],
)
def test_admin_pages_do_not_query_per_row(admin_client_, event, character, page, django_assert_max_num_queries):
    """Twenty more staff rows, characters and events cost no more queries than two."""
    args = [] if page.endswith("changelist") else [character.pk if "character" in page else event.pk]
    url = reverse(f"admin:{page}", args=args)
    _grow(event, 2, "few")
    with CaptureQueriesContext(connection) as few:
        assert admin_client_.get(url).status_code == 200
    _grow(event, 20, "many")
    with django_assert_max_num_queries(len(few)):
        response = admin_client_.get(url)
    assert response.status_code == 200
    if page == "events_event_change":
        assert response.text.count('name="staff-') > 22 * 3  # every role's row is on the page
        assert ">many19</option>" in response.text  # a picked user is shown by name


def test_staff_inline_picks_users_by_autocomplete(admin_client_, organizer):
    response = admin_client_.get(
        reverse("admin:autocomplete"),
        {"app_label": "events", "model_name": "staffrole", "field_name": "user", "term": "organ"},
    )
    assert response.status_code == 200
    assert [r["text"] for r in response.json()["results"]] == ["organizer"]


def test_D4_a_staff_account_that_is_not_a_superuser_gets_no_admin(as_user, character, attack_card):
    """The admin is unscoped (every event's arsenals): permissions alone do not open it."""
    ArsenalCard.objects.create(character=character, card=attack_card)
    clerk = User.objects.create_user("clerk", is_staff=True)
    clerk.user_permissions.set(Permission.objects.filter(content_type__app_label__in=["events", "cards"]))
    client = as_user(clerk)
    for url in [
        reverse("admin:index"),
        reverse("admin:events_character_changelist"),
        reverse("admin:events_character_change", args=[character.pk]),
        reverse("admin:cards_card_changelist"),
    ]:
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login")), url
    page = client.get(reverse("admin:events_character_change", args=[character.pk]), follow=True)
    assert attack_card.name_ru not in page.text and character.name not in page.text

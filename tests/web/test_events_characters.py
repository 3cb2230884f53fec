"""The organizers' character list (filters, pagination, no N+1) and the create/edit form."""

import re

import pytest
from django.urls import reverse

from cards.models import ArsenalCard, Card, PoolEntry
from events.models import Character
from tests.web.character_form_kit import character_form


def _make(event, catalogue, count: int, player=None) -> None:
    card = Card.objects.create(catalogue=catalogue, name_ru=f"Карта {count}", kind="defence")
    for i in range(count):
        character = Character.objects.create(
            event=event, player=player, name=f"Other {i:03}", side="dark" if i % 2 else "light", arrived=i % 3 == 0
        )
        PoolEntry.objects.create(character=character, card=card, copies=2)
        ArsenalCard.objects.create(character=character, card=card, copies=2)
        character.focus_card = card
        character.save()


@pytest.mark.parametrize("count", [5, 50])
def test_character_list_query_count_does_not_grow(
    count, as_user, organizer, player, event, catalogue, django_assert_max_num_queries
):
    _make(event, catalogue, count, player=player)
    client = as_user(organizer)
    # session, user, event by role, count, one page of rows
    with django_assert_max_num_queries(6):
        response = client.get(reverse("events:characters", args=[event.pk]))
    assert response.status_code == 200
    assert "Other 000" in response.text
    assert f"{count} characters" in response.text or f"{count} character" in response.text


def test_character_list_shows_hand_and_pool_sizes(as_user, organizer, event, character, attack_card, defence_card):
    ArsenalCard.objects.create(character=character, card=attack_card, copies=2)
    ArsenalCard.objects.create(character=character, card=defence_card, copies=1)
    PoolEntry.objects.create(character=character, card=attack_card, copies=5)
    PoolEntry.objects.create(character=character, card=defence_card, copies=1)
    response = as_user(organizer).get(reverse("events:characters", args=[event.pk]))
    row = response.text.split('href="' + reverse("events:character-edit", args=[character.pk]))[1].split("</tr>")[0]
    assert f"<td>3 / {character.effective_arsenal_limit}</td>" in row
    assert "<td>2</td>" in row


@pytest.mark.parametrize(
    ("params", "shown", "hidden"),
    [
        ({"side": "dark"}, ["Zavulon"], ["Anton"]),
        ({"q": "ant"}, ["Anton"], ["Zavulon"]),
        ({"status": "pending"}, ["Olga"], ["Anton", "Zavulon"]),
        ({"arrived": "yes"}, ["Zavulon"], ["Anton"]),
        ({"arrived": "no"}, ["Anton"], ["Zavulon"]),
        ({"condition": "dead"}, ["Zavulon"], ["Anton"]),
        ({"kind": "vampire"}, ["Zavulon"], ["Anton"]),
        ({"side": "nonsense"}, ["Anton", "Zavulon"], []),
    ],
)
def test_character_list_filters(params, shown, hidden, as_user, organizer, event, character, rival):
    rival.arrived = True
    rival.condition = "dead"
    rival.kind = "vampire"
    rival.save()
    Character.objects.create(event=event, name="Olga", status=Character.Status.PENDING)
    response = as_user(organizer).get(reverse("events:characters", args=[event.pk]), params)
    assert response.status_code == 200
    for name in shown:
        assert name in response.text
    for name in hidden:
        assert name not in response.text


def test_character_list_paginates(as_user, organizer, event, catalogue):
    _make(event, catalogue, 35)
    client = as_user(organizer)
    first = client.get(reverse("events:characters", args=[event.pk]), {"side": "light"})
    assert "Other 000" in first.text
    all_pages = client.get(reverse("events:characters", args=[event.pk]))
    assert "Other 034" not in all_pages.text
    second = client.get(reverse("events:characters", args=[event.pk]), {"page": 2})
    assert "Other 034" in second.text and "Other 000" not in second.text
    assert client.get(reverse("events:characters", args=[event.pk]), {"page": "x"}).status_code == 200


def test_create_character_with_notes_and_default_limit(as_user, organizer, event, player):
    """Naming an account invites it (issue 13): the character is created without a player until it accepts."""
    response = as_user(organizer).post(
        reverse("events:character-create", args=[event.pk]),
        character_form(player_username="PLAYER", notes="Will become a Great One"),
    )
    svetlana = Character.objects.get(name="Svetlana")
    assert response.status_code == 302
    assert svetlana.event == event and svetlana.player is None and svetlana.invited_username == "PLAYER"
    assert svetlana.notes == "Will become a Great One"
    assert svetlana.arsenal_limit is None and svetlana.effective_arsenal_limit == 8


def test_edit_sets_the_arsenal_limit_and_arrival(as_user, organizer, character):
    response = as_user(organizer).post(
        reverse("events:character-edit", args=[character.pk]),
        character_form(name="Anton", player_username="player", arsenal_limit="9", arrived="on"),
    )
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.arsenal_limit == 9 and character.effective_arsenal_limit == 9
    assert character.arrived and character.arrived_at is not None
    assert character.player.username == "player"


def test_edit_rejects_a_zero_limit(as_user, organizer, character):
    response = as_user(organizer).post(
        reverse("events:character-edit", args=[character.pk]), character_form(name="Anton", arsenal_limit="0")
    )
    assert response.status_code == 200
    character.refresh_from_db()
    assert character.arsenal_limit is None and character.name == "Anton"


def test_edit_page_shows_private_notes_to_the_organizer(as_user, organizer, character):
    character.notes = "Secretly a Dark agent"
    character.save()
    page = as_user(organizer).get(reverse("events:character-edit", args=[character.pk]))
    assert "Secretly a Dark agent" in page.text


def test_organizer_home_counts(as_user, organizer, event, character, rival):
    rival.arrived = True
    rival.save()
    Character.objects.create(event=event, name="Olga", status=Character.Status.PENDING)
    page = as_user(organizer).get(reverse("events:organizer-home", args=[event.pk]))
    numbers = re.findall(r'<div class="h3 mb-0">(\d+)</div><div class="small">([^<]+)</div>', page.text)
    # The labels agree with their numbers (ngettext; Russian has three forms).
    assert numbers == [("1", "application waiting"), ("2", "accepted characters"), ("1", "arrived"), ("0", "rejected")]
    assert reverse("events:applications", args=[event.pk]) in page.text


def test_registration_toggle(as_user, organizer, event):
    client = as_user(organizer)
    client.post(reverse("events:registration-toggle", args=[event.pk]), {"open": "0"})
    event.refresh_from_db()
    assert not event.registration_open
    client.post(reverse("events:registration-toggle", args=[event.pk]), {"open": "1"})
    event.refresh_from_db()
    assert event.registration_open

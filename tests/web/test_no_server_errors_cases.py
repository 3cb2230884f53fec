"""The bugs ``test_no_server_errors.py`` found, each as its own case (the fix is in the commit that added it)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from cards.models import Card
from duels.models import Situation
from events.models import Character
from tests.services.kit import nonce
from tests.web.no_server_errors_kit import HUGE, fingerprint

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.mark.parametrize("value", [None, "", "yes", "abc", "\x00"])
def test_registration_toggle_refuses_anything_but_the_buttons_values(value, event, organizer, as_user):
    """Was: any value but "1" (or none) closed the registration, with a success message."""
    client = as_user(organizer)
    response = client.post(
        reverse("events:registration-toggle", args=[event.pk]), {} if value is None else {"open": value}
    )
    event.refresh_from_db()
    assert event.registration_open is True
    assert response.status_code == 302
    assert "Nothing was changed" in client.get(response["Location"]).content.decode()


@pytest.mark.parametrize("htmx", [False, True])
@pytest.mark.parametrize("value", [None, "", "true", "-1"])
def test_check_in_refuses_anything_but_the_buttons_values(value, htmx, event, organizer, character, as_user):
    """Was: a POST without "arrived" (or with any other value) took back an arrival."""
    character.check_in()
    arrived_at = character.arrived_at
    client = as_user(organizer)
    data = {} if value is None else {"arrived": value}
    response = client.post(reverse("events:check-in-set", args=[character.pk]), data, headers=HX if htmx else None)
    character.refresh_from_db()
    assert (character.arrived, character.arrived_at) == (True, arrived_at)
    if htmx:
        assert response.status_code == 400
    else:
        assert "Nothing was changed" in client.get(response["Location"]).content.decode()


def test_check_in_search_with_a_nul_byte(event, organizer, character, as_user):
    """Was a 500 on PostgreSQL ("text fields cannot contain NUL"); the NUL is ignored."""
    response = as_user(organizer).get(reverse("events:check-in", args=[event.pk]), {"q": "An\x00"})
    assert response.status_code == 200
    assert "Anton" in response.content.decode()


@pytest.mark.parametrize("in_fight", [True, False])
def test_focus_on_a_card_id_no_database_can_hold(in_fight, world, player, as_user):
    """F1: was a 500 on SQLite (OverflowError naming the refused card); now a refusal that changes nothing."""
    character = world.character if in_fight else Character.objects.get(name="Boris")
    version = Situation.objects.get(pk=world.running.pk).version
    card = f"{character.pk}:{HUGE}:0" if in_fight else HUGE
    data = {"card": card, "nonce": nonce(), **({"version": version} if in_fight else {})}
    before = fingerprint()
    response = as_user(player).post(reverse("duels:player-focus", args=[character.pk]), data, headers=HX)
    assert response.status_code == 422
    assert fingerprint() == before


def test_character_import_refuses_nul_bytes(world, organizer, as_user):
    """Was: SQLite stored NUL bytes in names; PostgreSQL refused with its own (English, technical) words."""
    upload = SimpleUploadedFile("nul.csv", b"name,notes\n\x00Olga,\x00\n", "text/csv")
    before = fingerprint()
    response = as_user(organizer).post(reverse("events:characters-import", args=[world.event.pk]), {"file": upload})
    assert "The file is not readable text." in response.content.decode()
    assert "0x00" not in response.content.decode()
    assert fingerprint() == before


@pytest.mark.parametrize(
    ("name", "content"),
    [("nul.json", b'[{"name_ru": "Olga\\u0000", "kind": "attack"}]'), ("nul.csv", b"name_ru,kind\nOlga\x00,attack\n")],
)
def test_catalogue_import_refuses_nul_bytes(name, content, world, organizer, as_user):
    upload = SimpleUploadedFile(name, content)
    response = as_user(organizer).post(
        reverse("cards:catalogue-import", args=[world.event.pk]), {"what": "cards", "file": upload}
    )
    assert response.status_code == 400
    assert "0x00" not in response.content.decode()
    assert not Card.objects.filter(name_ru__startswith="Olga").exists()


@pytest.mark.parametrize("action", [None, "", "abc", "Build"])
def test_arsenal_builder_refuses_a_selection_without_its_action(action, world, organizer, as_user):
    """Was: any action but "save" (or none) replaced the current arsenal."""
    boris = Character.objects.get(name="Boris")
    data = {f"card_{world.defence.pk}": "1", **({} if action is None else {"action": action})}
    before = fingerprint()
    response = as_user(organizer).post(reverse("cards:arsenal-select", args=[boris.pk]), data)
    assert response.status_code == 200
    assert "Nothing was changed" in response.content.decode()
    assert fingerprint() == before


@pytest.mark.parametrize("path", ["/c/%00/", "/c/%00/live/", "/c/x%00y/arsenal/restore/", "/c/%00/focus/"])
def test_a_secret_link_with_a_nul_byte_is_a_404(path, world, client):
    """Was a 500 on PostgreSQL ("text fields cannot contain NUL")."""
    response = client.post(path) if path.endswith(("restore/", "focus/")) else client.get(path)
    assert response.status_code == 404


def test_a_refusal_speaks_the_users_language(world, organizer, as_user):
    """The same unreadable file, refused in Russian for a Russian browser."""
    client = as_user(organizer)
    upload = SimpleUploadedFile("nul.csv", b"name\n\x00\n", "text/csv")
    url = reverse("events:characters-import", args=[world.event.pk])
    response = client.post(url, {"file": upload}, headers={"Accept-Language": "ru"})
    assert "Файл не читается как текст." in response.content.decode()


def test_a_post_without_its_csrf_token_is_a_403(world, organizer):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organizer)
    before = fingerprint()
    response = client.post(reverse("events:registration-toggle", args=[world.event.pk]), {"open": "0"})
    assert response.status_code == 403
    assert fingerprint() == before

"""The secret per-character link (DESIGN.md §6): works only for an accepted character, revocable, replaceable."""

import pytest
from django.urls import reverse

from events.models import Character


def _link(character) -> str:
    return reverse("events:character-link", args=[character.link_token])


@pytest.mark.parametrize("status", [Character.Status.PENDING, Character.Status.REJECTED])
def test_link_of_a_pending_or_rejected_character_is_404(status, as_user, character):
    character.status = status
    character.save()
    assert as_user(None).get(_link(character)).status_code == 404


def test_regenerate_kills_the_old_link_and_the_new_one_works(as_user, organizer, character):
    old = _link(character)
    assert as_user(None).get(old).status_code == 200
    response = as_user(organizer).post(reverse("events:link-regenerate", args=[character.pk]))
    assert response.status_code == 302
    character.refresh_from_db()
    assert as_user(None).get(old).status_code == 404
    assert as_user(None).get(_link(character)).status_code == 200


def test_revoke_makes_the_link_404(as_user, organizer, character):
    url = _link(character)
    as_user(organizer).post(reverse("events:link-revoke", args=[character.pk]))
    character.refresh_from_db()
    assert character.link_active is False
    assert as_user(None).get(url).status_code == 404


def test_regenerate_after_revoke_gives_a_working_new_link(as_user, organizer, character):
    old = _link(character)
    client = as_user(organizer)
    client.post(reverse("events:link-revoke", args=[character.pk]))
    client.post(reverse("events:link-regenerate", args=[character.pk]))
    character.refresh_from_db()
    assert character.link_active
    assert as_user(None).get(old).status_code == 404
    assert as_user(None).get(_link(character)).status_code == 200


def test_link_actions_need_post(as_user, organizer, character):
    token = character.link_token
    client = as_user(organizer)
    assert client.get(reverse("events:link-revoke", args=[character.pk])).status_code == 405
    assert client.get(reverse("events:link-regenerate", args=[character.pk])).status_code == 405
    character.refresh_from_db()
    assert character.link_token == token and character.link_active


def test_edit_page_shows_the_link_and_its_qr_code(as_user, organizer, character, settings):
    settings.SUMRAK_PUBLIC_URL = "http://192.168.7.2:8000"
    page = as_user(organizer).get(reverse("events:character-edit", args=[character.pk]))
    assert page.status_code == 200
    assert "http://192.168.7.2:8000" + _link(character) in page.text
    assert "http://testserver" not in page.text
    assert '<svg width="' in page.text and 'class="segno"' in page.text
    assert reverse("events:character-qr", args=[character.pk]) in page.text


def test_htmx_regenerate_swaps_the_link_section(as_user, organizer, character):
    old_token = character.link_token
    response = as_user(organizer).post(
        reverse("events:link-regenerate", args=[character.pk]), headers={"HX-Request": "true"}
    )
    character.refresh_from_db()
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section class="border rounded p-3" id="secret-link">')
    assert character.link_token in response.text and old_token not in response.text


def test_revoked_link_is_not_shown_on_the_edit_page(as_user, organizer, character):
    character.revoke_link()
    page = as_user(organizer).get(reverse("events:character-edit", args=[character.pk]))
    assert character.link_token not in page.text
    assert 'class="segno"' not in page.text


def test_printable_qr_page(as_user, organizer, character):
    page = as_user(organizer).get(reverse("events:character-qr", args=[character.pk]))
    assert page.status_code == 200
    assert "Anton" in page.text and 'class="segno"' in page.text
    assert _link(character) in page.text
    assert 'style="' not in page.text  # the CSP forbids inline styles


def test_qr_sheet_lists_only_working_links(as_user, organizer, event, character, rival):
    rival.revoke_link()
    Character.objects.create(event=event, name="Applicant", status=Character.Status.PENDING)
    page = as_user(organizer).get(reverse("events:qr-sheet", args=[event.pk]))
    assert "Anton" in page.text
    assert "Zavulon" not in page.text
    assert "Applicant" not in page.text
    assert page.text.count('class="segno"') == 1


def test_link_page_is_not_cached(as_user, character):
    response = as_user(None).get(_link(character))
    assert "no-store" in response["Cache-Control"]

"""Handouts at the check-in desk (issue 22): ticks pre-filled from the print run; who still lacks what."""

import pytest
from django.urls import reverse

from cards.models_mass import Army
from cards.printing.handouts import note_run
from cards.printing.models import PrintRun
from events.models import Character, Handout
from tests.services.kit import arm

pytestmark = pytest.mark.django_db


def desk(event, **params):
    return reverse("events:check-in", args=[event.pk]), params


def tick(client, character, item, handed="1", htmx=True):
    headers = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": f"character-{character.pk}"} if htmx else {}
    return client.post(reverse("events:handout-set", args=[character.pk]), {"item": item, "handed": handed}, **headers)


def printed(event, characters, **what):
    run = PrintRun.objects.create(event=event, character_ids=[c.pk for c in characters], status="done", **what)
    note_run(run)
    return run


@pytest.fixture
def printed_run(event, character, rival, bystander, attack_card, defence_card):
    """A run with sheets, cards and magic decks; Anton and Zavulon hold cards, Olga none; Zavulon commands."""
    arm(character, attack_card)
    arm(rival, defence_card)
    Army.objects.create(event=event, name="Dark army", commander=rival.player)
    return printed(event, [character, rival, bystander], with_sheets=True, with_cards=True, with_magic_decks=True)


def items(character, field="printed_at"):
    return set(
        Handout.objects.filter(character=character, **{f"{field}__isnull": False}).values_list("item", flat=True)
    )


def test_the_print_run_pre_fills_what_each_character_is_to_get(printed_run, character, rival, bystander):
    assert items(character) == {"sheet", "qr", "cards"}
    assert items(rival) == {"sheet", "qr", "cards", "decks"}  # M1: the commander takes the magic decks
    assert items(bystander) == {"sheet", "qr"}  # no card to print
    assert not Handout.objects.filter(handed_at__isnull=False).exists()


def test_a_run_without_sheets_or_a_pending_character_notes_nothing_of_them(event, character, rival):
    rival.status = Character.Status.PENDING
    rival.save()
    printed(event, [character, rival], with_sheets=False, with_cards=True)
    assert not Handout.objects.exists()  # Anton holds no card; Zavulon is not accepted


def test_the_desk_shows_who_still_lacks_what_and_a_tick_clears_it(org, organizer, event, printed_run, character, rival):
    url, _ = desk(event)
    page = org.get(url).content.decode()
    assert "3 still lack something printed for them." in page
    assert "Still to hand out: character sheet, cards, QR link" in page
    assert "magic decks?" in page  # the commander's row
    for item in ("sheet", "cards", "qr"):
        response = tick(org, character, item)
        assert response.status_code == 200
    row = Handout.objects.get(character=character, item="sheet")
    assert row.handed_by == organizer and row.handed_at is not None
    lacking = org.get(url, {"lacking": "1"}).content.decode()
    assert "Zavulon" in lacking and "Olga" in lacking and "Anton" not in lacking
    assert "2 still lack something printed for them." in lacking


def test_a_repeated_tick_is_applied_once_and_keeps_the_first_time(org, printed_run, character):
    tick(org, character, "sheet")
    first = Handout.objects.get(character=character, item="sheet").handed_at
    tick(org, character, "sheet")  # the same tap resent
    again = Handout.objects.get(character=character, item="sheet")
    assert again.handed_at == first
    tick(org, character, "sheet", handed="0")
    assert Handout.objects.get(character=character, item="sheet").handed_at is None


def test_an_item_never_printed_can_be_ticked_and_shows_as_handed(org, event, character):
    tick(org, character, "qr", htmx=False)
    row = Handout.objects.get(character=character, item="qr")
    assert row.printed_at is None and row.handed_at is not None
    assert "✓ QR link" in org.get(desk(event)[0]).content.decode()


@pytest.mark.parametrize(
    "data", [{"item": "sword", "handed": "1"}, {"item": "sheet", "handed": "yes"}, {"item": "sheet"}, {}]
)
def test_a_malformed_tick_changes_nothing_and_is_no_500(org, printed_run, character, data):
    response = org.post(
        reverse("events:handout-set", args=[character.pk]), data, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="x"
    )
    assert response.status_code == 400
    plain = org.post(reverse("events:handout-set", args=[character.pk]), data, follow=True)
    assert plain.status_code == 200 and "Nothing was changed" in plain.content.decode()
    assert not Handout.objects.filter(handed_at__isnull=False).exists()


def test_a_stale_tick_for_a_character_no_longer_accepted_changes_nothing(org, printed_run, character):
    Character.objects.filter(pk=character.pk).update(status=Character.Status.REJECTED)
    tick(org, character, "sheet")
    assert not Handout.objects.filter(handed_at__isnull=False).exists()


@pytest.mark.parametrize("who", ["anonymous", "player", "referee", "other_organizer"])
def test_only_the_events_organizers_tick(as_user, personas, printed_run, character, who):
    response = tick(as_user(personas[who]), character, "sheet")
    assert response.status_code in (302, 404)
    assert not Handout.objects.filter(handed_at__isnull=False).exists()

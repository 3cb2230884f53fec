"""The mass battles' print pages (issue 14, M1-M3): who may print, bad choices, the buttons, a magic card's entry."""

import pytest
from django.urls import reverse

from cards.models_mass import Army
from cards.printing.models import PrintRun
from tests.print.print_kit import PUBLIC, add_army, add_magic_cards

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def public_address(settings):
    settings.SUMRAK_PUBLIC_URL = PUBLIC


@pytest.fixture
def mass_event(event):
    event.mass_battles_on = True
    event.save()
    add_magic_cards(event.catalogue, 2, deck=2)
    add_army(event, "Red", 3, commander_name="Gesar")
    return event


def _urls(event):
    return [reverse("cards:print-magic-decks", args=[event.pk]), reverse("cards:print-armies", args=[event.pk])]


@pytest.mark.parametrize("role", ["player", "other_player", "referee", "other_organizer"])
def test_only_the_events_organizers_print_its_decks_and_rosters(role, personas, as_user, mass_event):
    """A roster carries the commander's secret link: nobody but the organizers prints it."""
    for url in _urls(mass_event):
        assert as_user(personas[role]).get(url, {"format": "html"}).status_code == 404, url


def test_anonymous_is_sent_to_log_in(as_user, mass_event):
    for url in _urls(mass_event):
        response = as_user(None).get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_html_versions(as_user, organizer, mass_event):
    client = as_user(organizer)
    decks = client.get(_urls(mass_event)[0], {"format": "html"})
    assert decks.status_code == 200
    assert decks.text.count('class="print-card front') == 2 and decks.text.count('class="print-card back') == 2
    assert 'style="' not in decks.text  # the site's CSP: positions are classes
    rosters = client.get(_urls(mass_event)[1], {"format": "html"})
    red = Army.objects.get(name="Red")
    link = PUBLIC + reverse("duels:mass-army-link", args=[red.link_token])
    assert rosters.status_code == 200 and "Red-003" in rosters.text and link in rosters.text
    assert 'src="data:image/png;base64,' in rosters.text  # the QR code, allowed by img-src data:


@pytest.mark.parametrize(
    "query, message",
    [
        ({"deck": "3"}, "Choose the magic decks to print"),
        ({"deck": "abc"}, "Choose the magic decks to print"),
        ({"deck": "6"}, "These decks hold no magic cards yet"),
    ],
)
def test_a_bad_deck_choice_comes_back_with_a_message(query, message, as_user, organizer, mass_event):
    response = as_user(organizer).get(_urls(mass_event)[0], query, follow=True)
    assert response.redirect_chain[-1][0] == reverse("cards:mass-data", args=[mass_event.pk])
    assert message in response.text


def test_a_bad_army_choice_comes_back_with_a_message(as_user, organizer, mass_event, other_event):
    stranger = add_army(other_event, "Stranger", 1)
    client = as_user(organizer)
    for army in (str(stranger.pk), "abc", "99999999999999999999999"):
        response = client.get(_urls(mass_event)[1], {"army": army}, follow=True)
        assert response.status_code == 200 and "Choose armies of this event to print" in response.text, army
        assert "Stranger-001" not in response.text


def test_an_event_without_armies_says_so(as_user, organizer, event):
    response = as_user(organizer).get(_urls(event)[1], follow=True)
    assert "This event has no armies yet" in response.text


def test_the_mass_battle_page_offers_the_prints_and_says_where_the_codes_point(as_user, organizer, mass_event):
    page = as_user(organizer).get(reverse("cards:mass-data", args=[mass_event.pk]), HTTP_HOST="localhost").text
    red = Army.objects.get(name="Red")
    assert reverse("cards:print-magic-decks", args=[mass_event.pk]) in page
    assert f"{reverse('cards:print-magic-decks', args=[mass_event.pk])}?deck=5" in page
    assert f"{reverse('cards:print-armies', args=[mass_event.pk])}?army={red.pk}" in page
    # The commander's link as its QR code prints it: the public address, not the browser's host.
    assert PUBLIC + reverse("duels:mass-army-link", args=[red.link_token]) in page
    assert "http://localhost" + reverse("duels:mass-army-link", args=[red.link_token]) not in page
    assert 'id="qr-address"' in page and PUBLIC in page
    assert page.count(reverse("cards:army-new-link", args=[mass_event.pk, red.pk])) == 1


def test_the_print_form_without_characters_prints_only_the_mass_battle(monkeypatch, as_user, organizer, mass_event):
    """Decks and rosters need no characters; nothing at all chosen is refused."""
    client = as_user(organizer)
    url = reverse("cards:print-event", args=[mass_event.pk])
    refused = client.post(url, {"everyone": "on"})
    assert refused.status_code == 200 and "Choose what to print" in refused.text and not PrintRun.objects.exists()
    page = client.post(url, {"with_rosters": "on", "as_html": "on"})
    assert page.status_code == 200 and "Red-001" in page.text and "character-sheet" not in page.text


def test_a_magic_cards_public_entry_needs_no_login(as_user, mass_event):
    spell = mass_event.catalogue.magic_cards.order_by("pk").first()
    page = as_user(None).get(reverse("cards:magic-card-entry", args=[spell.pk]))
    assert page.status_code == 200
    assert spell.name_en in page.text and spell.text in page.text and "Fire" in page.text
    assert as_user(None).get(reverse("cards:magic-card-entry", args=[987654])).status_code == 404

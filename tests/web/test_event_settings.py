"""Events created and configured by organizers on the site (events/views_event.py).

Creating an event is a site permission, off for new accounts (issue 13:
an open sign-up must not make anyone an organizer with upload rights); whoever
creates one becomes its organizer. The settings
page is for the event's organizers only (404 for everyone else). Rule settings
(D8 answer window, S2 situation gap, IA1 distance, R0) are validated, and a
fight already running keeps the settings it opened with.
"""

import datetime as dt
import io
import re
import uuid
from decimal import Decimal

import pytest
from django import forms
from django.urls import reverse

from cards.models import ArsenalCard, Catalogue, PoolEntry
from duels import services
from duels.duel.start import declare_aggression
from events.creators import allow_event_creation
from events.models import Event, StaffRole
from tests.web.event_form_kit import event_data

ROLES = ["anonymous", "player", "other_player", "referee", "organizer", "other_organizer"]


def settings_url(event) -> str:
    return reverse("events:event-settings", args=[event.pk])


CREATE_URL = "/events/new/"


@pytest.fixture
def creator(player, django_user_model):
    """A player account the site allows to create events."""
    allow_event_creation(player)
    return django_user_model.objects.get(pk=player.pk)


def test_urls_are_named():
    assert reverse("events:event-create") == CREATE_URL


# --- who may reach the pages ---------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_create_page_is_refused_to_accounts_without_the_permission(role, personas, as_user):
    """A new account (and every staff role of an event) may not create events until allowed."""
    client = as_user(personas[role])
    response = client.get(CREATE_URL)
    if role == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
        return
    assert response.status_code == 403
    before = Event.objects.count()
    assert client.post(CREATE_URL, event_data()).status_code == 403
    assert Event.objects.count() == before
    assert 'id="create-event"' not in client.get("/").content.decode()


def test_a_new_sign_up_may_not_create_an_event(client, db, django_user_model):
    """Once the installation has an event creator; its very first account is one (tests/web/test_first_hour.py)."""
    django_user_model.objects.create_superuser("root", password="root-Long-pass-2027")
    client.post(
        reverse("signup"), {"username": "newcomer", "password1": "a-Long-pass-2027", "password2": "a-Long-pass-2027"}
    )
    assert client.get(CREATE_URL).status_code == 403
    assert client.post(CREATE_URL, event_data()).status_code == 403
    assert not Event.objects.filter(name="Twilight Patrol").exists()


@pytest.mark.parametrize("how", ["permission", "setting", "superuser", "command"])
def test_an_allowed_account_may_create_events(how, player, as_user, settings, django_user_model):
    if how == "permission":
        allow_event_creation(player)
    elif how == "setting":
        settings.SUMRAK_EVENT_CREATORS = [player.username]
    elif how == "superuser":
        player.is_superuser = True
        player.save()
    else:
        from django.core.management import call_command

        call_command("allow_event_creation", player.username, stdout=io.StringIO())
    player = django_user_model.objects.get(pk=player.pk)  # a fresh permission cache
    client = as_user(player)
    response = client.get(CREATE_URL)
    assert response.status_code == 200
    assert 'name="answer_window_s"' in response.content.decode()
    assert 'id="create-event"' in client.get("/").content.decode()


def test_the_permission_can_be_taken_back(player, as_user, django_user_model):
    from django.core.management import call_command

    allow_event_creation(player)
    call_command("allow_event_creation", player.username, "--revoke", stdout=io.StringIO())
    assert as_user(django_user_model.objects.get(pk=player.pk)).get(CREATE_URL).status_code == 403


def test_anonymous_cannot_create_an_event(as_user, db):
    response = as_user(None).post(CREATE_URL, event_data())
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Event.objects.filter(name="Twilight Patrol").exists()


@pytest.mark.parametrize("role", ROLES)
def test_settings_page_only_for_the_events_organizers(role, personas, event, as_user):
    response = as_user(personas[role]).get(settings_url(event))
    if role == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    elif role == "organizer":
        assert response.status_code == 200
        assert 'value="Night Watch"' in response.content.decode()
    else:
        assert response.status_code == 404


@pytest.mark.parametrize("role", [r for r in ROLES if r != "organizer"])
def test_settings_post_by_anyone_else_changes_nothing(role, personas, event, as_user):
    response = as_user(personas[role]).post(settings_url(event), event_data(name="Hijacked", answer_window_s="99"))
    assert response.status_code in (302, 404)
    if role != "anonymous":
        assert response.status_code == 404
    event.refresh_from_db()
    assert (event.name, event.answer_window_s) == ("Night Watch", 15)


def test_settings_of_an_unknown_event_is_a_404(organizer, as_user):
    assert as_user(organizer).get(reverse("events:event-settings", args=[99999])).status_code == 404


# --- creating ------------------------------------------------------------------------------------


def test_creating_an_event_makes_the_creator_its_organizer(creator, as_user):
    response = as_user(creator).post(CREATE_URL, event_data(), follow=True)
    event = Event.objects.get(name="Twilight Patrol")
    assert StaffRole.objects.filter(event=event, user=creator, role=StaffRole.Role.ORGANIZER).exists()
    assert StaffRole.objects.filter(event=event).count() == 1
    assert response.redirect_chain[-1][0] == reverse("events:organizer-home", args=[event.pk])
    assert "you are its organizer" in response.content.decode()
    assert (event.starts_on, event.ends_on) == (dt.date(2027, 6, 10), dt.date(2027, 6, 13))
    assert event.place == "Moscow region" and event.catalogue is None and event.registration_open
    assert (event.duels_on, event.battles_on, event.mass_battles_on) == (True, True, False)
    # The new organizer reaches the event's pages, including its settings.
    assert as_user(creator).get(settings_url(event)).status_code == 200


def test_created_event_with_a_catalogue_the_creator_already_uses(organizer, catalogue, as_user):
    allow_event_creation(organizer)
    as_user(organizer).post(CREATE_URL, event_data(catalogue=str(catalogue.pk)))
    assert Event.objects.get(name="Twilight Patrol").catalogue == catalogue


def test_a_stranger_cannot_attach_another_events_catalogue(creator, catalogue, as_user):
    """Organizers edit their catalogue's cards: a catalogue of someone else's event is not offered."""
    page = as_user(creator).get(CREATE_URL).content.decode()
    assert "Test catalogue" not in page
    response = as_user(creator).post(CREATE_URL, event_data(catalogue=str(catalogue.pk)))
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert not Event.objects.filter(name="Twilight Patrol").exists()
    assert not StaffRole.objects.filter(user=creator).exists()


def test_create_with_the_end_before_the_start_is_a_form_error(creator, as_user):
    response = as_user(creator).post(CREATE_URL, event_data(starts_on="2027-06-10", ends_on="2027-06-09"))
    assert response.status_code == 200
    assert "The event cannot end before it starts." in response.content.decode()
    assert not Event.objects.exists()
    assert not StaffRole.objects.exists()


def test_a_one_day_event_is_fine(creator, as_user):
    as_user(creator).post(CREATE_URL, event_data(starts_on="2027-06-10", ends_on="2027-06-10"))
    assert Event.objects.filter(name="Twilight Patrol", ends_on=dt.date(2027, 6, 10)).exists()


def test_create_needs_a_name_and_dates(creator, as_user):
    response = as_user(creator).post(CREATE_URL, event_data(name="", starts_on="", ends_on="not a date"))
    content = response.content.decode()
    assert response.status_code == 200
    assert content.count("This field is required.") >= 2 and "Enter a valid date." in content
    assert not Event.objects.exists()


# --- settings ------------------------------------------------------------------------------------


def test_organizer_saves_the_settings(organizer, event, as_user):
    data = event_data(
        name="Night Watch II",
        place="Forest camp",
        registration_open=None,
        answer_window_s="20",
        situation_gap_s="240",
        instant_attack_distance_m="2.5",
        reactions_from_round="3",
        duels_on="on",
        battles_on=None,
        mass_battles_on="on",
        catalogue="",
    )
    response = as_user(organizer).post(settings_url(event), data, follow=True)
    assert response.redirect_chain[-1][0] == settings_url(event)
    assert "The event&#x27;s settings are saved." in response.content.decode()
    event.refresh_from_db()
    assert (event.name, event.place, event.registration_open) == ("Night Watch II", "Forest camp", False)
    assert (event.answer_window_s, event.situation_gap_s) == (20, 240)
    assert event.instant_attack_distance_m == Decimal("2.5") and event.reactions_from_round == 3
    assert (event.duels_on, event.battles_on, event.mass_battles_on) == (True, False, True)
    assert event.catalogue is None  # no card in anyone's pool yet, so the catalogue may go


def test_the_form_says_running_fights_keep_their_settings(organizer, event, as_user):
    content = as_user(organizer).get(settings_url(event)).content.decode()
    assert "A fight already running keeps the settings it started with" in content


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("answer_window_s", "0", "greater than or equal to 1"),  # D8
        ("answer_window_s", "601", "less than or equal to 600"),
        ("situation_gap_s", "5", "greater than or equal to 10"),  # S2
        ("situation_gap_s", "3601", "less than or equal to 3600"),
        ("instant_attack_distance_m", "0", "greater than or equal to 0.1"),  # IA1
        ("instant_attack_distance_m", "-2", "greater than or equal to 0.1"),
        ("instant_attack_distance_m", "2.55", "no more than 1 decimal place"),
        ("instant_attack_distance_m", "150", "less than or equal to 100"),
        ("reactions_from_round", "0", "greater than or equal to 1"),  # R0
        ("answer_window_s", "soon", "Enter a whole number."),
        ("lag_grace_ms", "3001", "less than or equal to 3000"),  # D8 lag grace: at most 3 s
        ("lag_grace_ms", "-1", "greater than or equal to 0"),
    ],
)
def test_bad_rule_settings_are_form_errors_and_nothing_is_saved(organizer, event, as_user, field, value, message):
    response = as_user(organizer).post(settings_url(event), event_data(name="Changed", **{field: value}))
    assert response.status_code == 200
    assert message in response.content.decode()
    event.refresh_from_db()
    assert event.name == "Night Watch"
    assert (event.answer_window_s, event.situation_gap_s, event.reactions_from_round) == (15, 180, 2)
    assert event.instant_attack_distance_m == Decimal("2")


def test_bad_dates_in_the_settings_are_a_form_error(organizer, event, as_user):
    saved = (event.starts_on, event.ends_on)
    data = event_data(name="Renamed", starts_on="2026-12-07", ends_on="2026-12-05")
    response = as_user(organizer).post(settings_url(event), data)
    content = response.content.decode()
    assert "The event cannot end before it starts." in content
    event.refresh_from_db()
    assert (event.name, event.starts_on, event.ends_on) == ("Night Watch", *saved)
    # The form shows the posted name; the page's title keeps the saved one.
    assert 'value="Renamed"' in content and "<title>Event settings · Night Watch" in content


def test_the_catalogue_stays_while_characters_own_its_cards(organizer, event, character, attack_card, as_user):
    PoolEntry.objects.create(character=character, card=attack_card, copies=1)
    other = Catalogue.objects.create(name="Spare catalogue")
    Event.objects.create(name="Spare", starts_on=dt.date(2027, 1, 1), ends_on=dt.date(2027, 1, 1), catalogue=other)
    StaffRole.objects.create(event=Event.objects.get(name="Spare"), user=organizer, role=StaffRole.Role.ORGANIZER)
    response = as_user(organizer).post(settings_url(event), event_data(name="Night Watch", catalogue=str(other.pk)))
    assert "own or hold cards of the current catalogue" in response.content.decode()
    event.refresh_from_db()
    assert event.catalogue_id == attack_card.catalogue_id


def test_an_organizer_may_switch_to_a_catalogue_of_another_event_they_organize(organizer, event, as_user):
    other = Catalogue.objects.create(name="Spare catalogue")
    spare = Event.objects.create(name="Spare", starts_on=dt.date(2027, 1, 1), ends_on=dt.date(2027, 1, 1))
    spare.catalogue = other
    spare.save()
    StaffRole.objects.create(event=spare, user=organizer, role=StaffRole.Role.ORGANIZER)
    as_user(organizer).post(settings_url(event), event_data(name="Night Watch", catalogue=str(other.pk)))
    event.refresh_from_db()
    assert event.catalogue == other


def test_D8_S2_a_running_fight_keeps_the_answer_window_it_opened_with(
    organizer, referee, event, character, rival, attack_card, defence_card, as_user
):
    """The situation's settings were copied when it opened; a later change of the event touches only new fights."""
    for fighter, card in ((character, attack_card), (rival, defence_card)):
        PoolEntry.objects.create(character=fighter, card=card, copies=1)
        ArsenalCard.objects.create(character=fighter, card=card, copies=1)
    situation = declare_aggression(
        event, character, rival, attack_card.pk, user=referee, nonce=uuid.uuid4().hex
    ).situation
    before = services.state_of(situation)
    deadline = before.duels[0].step.answer_deadline
    assert (before.settings.answer_window_s, before.settings.gap_s) == (15, 180)

    data = event_data(
        name="Night Watch", catalogue=str(event.catalogue_id), answer_window_s="45", situation_gap_s="600"
    )
    as_user(organizer).post(settings_url(event), data)
    event.refresh_from_db()
    assert (event.answer_window_s, event.situation_gap_s) == (45, 600)

    situation.refresh_from_db()
    after = services.state_of(situation)
    assert (after.settings.answer_window_s, after.settings.gap_s) == (15, 180)
    assert situation.state["settings"] == {"answer_window_s": 15, "gap_s": 180, "focus_abilities": False}
    assert after.duels[0].step.answer_deadline == deadline


# --- links ---------------------------------------------------------------------------------------


def test_home_page_offers_to_create_an_event_only_to_those_allowed(creator, other_player, as_user):
    assert CREATE_URL in as_user(creator).get("/").content.decode()
    assert CREATE_URL not in as_user(None).get("/").content.decode()
    assert CREATE_URL not in as_user(other_player).get("/").content.decode()


def test_organizer_home_links_to_the_settings(organizer, event, as_user):
    content = as_user(organizer).get(reverse("events:organizer-home", args=[event.pk])).content.decode()
    assert settings_url(event) in content


def test_IA3_D8_real_draws_and_lag_grace_are_event_settings(organizer, event, as_user):
    """IA3 "draws from real cards" and D8's lag grace: off / 0 by default, saved from the settings form."""
    assert (event.physical_draws, event.lag_grace_ms) == (False, 0)
    response = as_user(organizer).post(settings_url(event), event_data(physical_draws="on", lag_grace_ms="2000"))
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.physical_draws, event.lag_grace_ms) == (True, 2000)


def test_every_setting_of_the_form_is_on_the_page_and_a_resave_keeps_it(organizer, event, as_user):
    """A setting the page leaves out is lost on the next save (a checkbox missing from the POST is
    "off"): focus abilities were reset so. Every form field is rendered, and posting the page back as
    it is changes no setting."""
    from events.forms import EventForm

    Event.objects.filter(pk=event.pk).update(focus_abilities=True, quick_reasons="Судья ошибся")
    client = as_user(organizer)
    page = client.get(settings_url(event)).content.decode()
    names = set(EventForm(user=organizer).fields)
    shown = set(re.findall(r'name="([a-z_]+)"', page))
    assert names <= shown, f"on the form but not on the page: {sorted(names - shown)}"
    before = Event.objects.filter(pk=event.pk).values(*names).get()
    form = EventForm(instance=Event.objects.get(pk=event.pk), user=organizer)
    data: dict[str, str] = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(field, forms.BooleanField):
            if value:
                data[name] = "on"
        elif value is not None:
            data[name] = value.isoformat() if hasattr(value, "isoformat") else str(value)
    response = client.post(settings_url(event), data)
    assert response.status_code == 302, response.content.decode()[:500]
    assert Event.objects.filter(pk=event.pk).values(*names).get() == before


def test_D3_every_round_a_bout_is_an_event_setting_off_by_default(organizer, event, people, referee, as_user):
    """[D3, AG2] Issue 25 item 1: off (the rules' reading) by default; the organizer turns it on and a
    battle opened afterwards takes it (a battle's bout then ends with every round of turns)."""
    from duels.battle.start import start_battle
    from tests.services.battle_kit import battle_state

    assert event.every_round_a_bout is False
    page = as_user(organizer).get(settings_url(event)).content.decode()
    assert 'name="every_round_a_bout"' in page
    as_user(organizer).post(settings_url(event), event_data(catalogue=str(event.catalogue_id), every_round_a_bout="on"))
    event.refresh_from_db()
    assert event.every_round_a_bout is True
    made = start_battle(event, people, declarer=people[0], user=referee, nonce=uuid.uuid4().hex)
    assert battle_state(made.situation).settings.every_round_a_bout is True

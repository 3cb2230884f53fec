"""The mass battle's pages: the referee's tablet, a commander's phone, spectators (M1-M8, D4-like secrecy)."""

import uuid

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

import rules.mass as magic
from duels import services
from duels.models import LogEntry, Situation
from tests.services.mass_kit import act, armies, in_catalogue_order, ready, start, state, wid

pytestmark = pytest.mark.django_db


@pytest.fixture
def commanders(db):
    return User.objects.create_user("red_khan", password="x"), User.objects.create_user("blue_lord", password="x")


@pytest.fixture
def mass_battle(event, referee, cards, commanders, monkeypatch):
    """A mass battle just started, each army with a commander, Wind Ward on top of deck 2 (keepable, M5)."""
    in_catalogue_order(monkeypatch, cards["Wind Ward"])
    red, blue = armies(event, *commanders)
    return start(event, referee, red, blue)


def post(client, situation, **data):
    situation.refresh_from_db()
    data.setdefault("version", situation.version)
    data.setdefault("nonce", uuid.uuid4().hex)
    return client.post(reverse("duels:mass-act", args=[situation.pk]), data)


def test_M1_the_referee_starts_a_mass_battle_from_the_start_page(as_user, referee, event, cards):
    red, blue = armies(event)
    client = as_user(referee)
    url = reverse("duels:mass-start", args=[event.pk])
    page = client.get(url)
    assert "Mass battles are switched off" in page.content.decode()
    refused = client.post(url, {"army_a": red.pk, "army_b": blue.pk, "nonce": uuid.uuid4().hex})
    assert refused.status_code in (400, 422) and not Situation.objects.exists()
    event.mass_battles_on = True
    event.save()
    same = client.post(url, {"army_a": red.pk, "army_b": red.pk, "nonce": uuid.uuid4().hex})
    assert same.status_code == 400 and not Situation.objects.exists()
    done = client.post(url, {"army_a": red.pk, "army_b": blue.pk, "nonce": uuid.uuid4().hex})
    situation = Situation.objects.get()
    assert done.status_code == 302 and done["Location"] == reverse("duels:mass", args=[situation.pk])
    assert (
        situation.kind == "mass_battle"
        and (LogEntry.objects.get(situation=situation).command or {})["type"] == "shuffle_decks"
    )
    home = client.get(reverse("duels:referee-home", args=[event.pk]))
    assert reverse("duels:mass-start", args=[event.pk]) in home.content.decode()  # and no crash on the running list


def test_M4_M5_M8_the_referee_plays_a_turn_with_big_buttons(as_user, referee, mass_battle):
    client = as_user(referee)
    page = client.get(reverse("duels:mass", args=[mass_battle.pk]))
    html = page.content.decode()
    assert page.status_code == 200 and 'id="roll-server"' in html and "Order of the decks" in html
    rolled = post(client, mass_battle, action="roll_entered", dice_a="2", dice_b="5")
    assert rolled.status_code == 302 and state(mass_battle).points == {"a": 2, "b": 5}
    assert post(client, mass_battle, action="choose", side="b", starts="no").status_code == 302
    page = client.get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert "Draw from deck 2" in page and "2: take a card from deck 2" in page
    post(client, mass_battle, action="points", side="a")
    page = client.get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert "Wind Ward" in page and 'id="keep-card"' in page
    post(client, mass_battle, action="keep", side="a")
    assert state(mass_battle).kept_uids("a")
    post(client, mass_battle, action="end_turn", side="a")
    post(client, mass_battle, action="points", side="b", take="yes")  # Water Lash from deck... 5: Bright Banner
    page = client.get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert 'id="carry-out"' in page
    salamander = wid(mass_battle, "Red salamander")
    done = post(client, mass_battle, action="carry_out", side="b", targets=[salamander], move_to="")
    assert done.status_code == 302 and state(mass_battle).pending is None


def test_M3_protected_warriors_are_greyed_and_labelled_in_the_target_choice(as_user, referee, mass_battle):
    ready(mass_battle, referee, 6, 1)
    act(mass_battle, magic.UsePoints(side="a"), referee)  # Flame Wall: negative fire
    page = as_user(referee).get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    salamander = wid(mass_battle, "Blue salamander")
    assert f'for="target-{salamander}" data-warrior="{salamander}"' in page
    assert "target-protected" in page and "protected from Fire: not affected" in page


def test_refusals_change_nothing_and_come_back_in_words(as_user, referee, mass_battle):
    client = as_user(referee)
    version = Situation.objects.get(pk=mass_battle.pk).version
    refused = post(client, mass_battle, action="choose", side="a", starts="yes")
    # M4 cited the one way on a staff page: a link to the mass battles help.
    link = '<a class="rule-ref" href="/help/referee/#mass-battles" title="What the rule says">M4</a>'
    assert refused.status_code == 422 and link in refused.content.decode()
    malformed = post(client, mass_battle, action="roll_entered", dice_a="9", dice_b="1")
    assert malformed.status_code == 400
    unknown = post(client, mass_battle, action="explode")
    assert unknown.status_code == 400
    stale = post(client, mass_battle, action="roll_server", version=version + 5)
    assert stale.status_code == 409
    assert Situation.objects.get(pk=mass_battle.pk).version == version


def test_undo_needs_a_reason_on_the_tablet(as_user, referee, mass_battle):
    client = as_user(referee)
    post(client, mass_battle, action="roll_entered", dice_a="4", dice_b="2")
    url = reverse("duels:mass-undo", args=[mass_battle.pk])
    mass_battle.refresh_from_db()
    empty = client.post(url, {"version": mass_battle.version, "nonce": uuid.uuid4().hex, "reason": ""})
    assert empty.status_code == 400 and state(mass_battle).winner == "a"
    done = client.post(url, {"version": mass_battle.version, "nonce": uuid.uuid4().hex, "reason": "wrong die"})
    assert done.status_code == 302 and state(mass_battle).winner is None


def test_M5_a_commander_sees_own_kept_cards_never_the_others_and_spectators_none(
    as_user, referee, mass_battle, commanders, client
):
    ready(mass_battle, referee, 2, 1)
    act(mass_battle, magic.UsePoints(side="a"), referee)
    act(mass_battle, magic.KeepCard(side="a"), referee)
    red_khan, blue_lord = commanders
    mine = as_user(red_khan).get(reverse("duels:mass-commander", args=[mass_battle.pk, "a"])).content.decode()
    assert "Wind Ward" in mine and "kept-cards" in mine
    theirs = as_user(blue_lord).get(reverse("duels:mass-commander", args=[mass_battle.pk, "b"])).content.decode()
    assert "Wind Ward" not in theirs
    assert as_user(blue_lord).get(reverse("duels:mass-commander", args=[mass_battle.pk, "a"])).status_code == 404
    watch = client.get(reverse("duels:mass-watch", args=[mass_battle.pk])).content.decode()
    assert "Wind Ward" not in watch and "Order of the decks" not in watch and "kept-cards" not in watch


def test_a_drawn_card_that_may_be_kept_is_hidden_from_the_other_side_until_carried_out(
    as_user, referee, mass_battle, commanders, client
):
    ready(mass_battle, referee, 2, 1)
    act(mass_battle, magic.UsePoints(side="a"), referee)
    assert "Wind Ward" not in client.get(reverse("duels:mass-watch", args=[mass_battle.pk])).content.decode()
    assert (
        "Wind Ward"
        in as_user(commanders[0]).get(reverse("duels:mass-commander", args=[mass_battle.pk, "a"])).content.decode()
    )
    act(mass_battle, magic.CarryOut(side="a", target_side="a"), referee)
    assert "Wind Ward" in client.get(reverse("duels:mass-watch", args=[mass_battle.pk])).content.decode()


def test_live_polls_answer_304_when_nothing_changed(as_user, referee, mass_battle, client):
    for user, url in (
        (referee, reverse("duels:mass", args=[mass_battle.pk])),
        (None, reverse("duels:mass-watch", args=[mass_battle.pk])),
    ):
        c = as_user(user) if user else client
        first = c.get(url, HTTP_HX_REQUEST="true")
        again = c.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
        assert first.status_code == 200 and again.status_code == 304
    act(mass_battle, magic.RollInitiative(source="referee", dice=(3, 1)), referee)
    changed = as_user(referee).get(
        reverse("duels:mass", args=[mass_battle.pk]), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert changed.status_code == 200


def test_only_the_events_staff_run_the_tablet(as_user, mass_battle, player, other_organizer):
    for user in (player, other_organizer):
        assert as_user(user).get(reverse("duels:mass", args=[mass_battle.pk])).status_code == 404
        assert post(as_user(user), mass_battle, action="roll_server").status_code == 404
    anonymous = as_user(None).get(reverse("duels:mass", args=[mass_battle.pk]))
    assert anonymous.status_code == 302


def test_duel_pages_send_a_mass_battle_to_its_own_pages(as_user, referee, mass_battle, client):
    assert as_user(referee).get(reverse("duels:situation", args=[mass_battle.pk]))["Location"] == reverse(
        "duels:mass", args=[mass_battle.pk]
    )
    # The spectator page is one page for every kind: the mass battle's, under either name.
    for name in ("duels:watch", "duels:mass-watch"):
        watched = client.get(reverse(name, args=[mass_battle.pk]))
        assert watched.status_code == 200 and b'id="mass-watch"' in watched.content
    exported = as_user(referee).get(reverse("duels:export", args=[mass_battle.pk]))
    assert exported.status_code == 200 and b"shuffle_decks" in exported.content
    assert services.replayed(mass_battle) is not None


@pytest.mark.parametrize("language", ["ru", "en"])
def test_M5_M6_the_mass_battle_help_explains_the_readings(client, language):
    client.cookies["django_language"] = language
    assert reverse("help-role", args=["mass"]) in client.get(reverse("help")).content.decode()
    html = client.get(reverse("help-role", args=["mass"])).content.decode()
    for rule in ("M1", "M3", "M4", "M5", "M6", "M7", "M8"):
        assert rule in html
    if language == "ru":
        assert "колода пуста" in html and "в свой ход" in html and "один игровой цикл" in html
    else:
        assert "the deck is empty" in html and "later cycle" in html and "one game cycle" in html


def test_the_tablet_reads_russian(as_user, referee, mass_battle):
    client = as_user(referee)
    client.cookies["django_language"] = "ru"
    html = client.get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert "Бросить оба кубика (сервер)" in html and "Цикл 1" in html and "Госпиталь" in html
    ready(mass_battle, referee, 2, 1)
    act(mass_battle, magic.UsePoints(side="a"), referee)
    html = client.get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert "Оставить на другой цикл" in html and "Wind Ward (ru)" in html  # the card's Russian name


def test_the_full_log_pages_through_every_entry(as_user, referee, mass_battle, player):
    ready(mass_battle, referee, 4, 2)
    html = as_user(referee).get(reverse("duels:mass-log", args=[mass_battle.pk])).content.decode()
    assert "The server shuffled the four decks (M1)" in html and "entered by the referee" in html
    # The one log page of every kind, with the kind in its heading, and its CSV/XLSX (issue 20).
    assert f"<title>Log of mass battle {mass_battle.pk}" in html and "Back to the fight" in html
    assert reverse("duels:mass", args=[mass_battle.pk]) in html and "Log as CSV" in html
    table = as_user(referee).get(reverse("duels:log-export-csv", args=[mass_battle.pk]))
    assert table.status_code == 200 and "The server shuffled the four decks (M1)" in table.content.decode()
    assert as_user(referee).get(reverse("duels:mass-log", args=[mass_battle.pk]), {"page": "abc"}).status_code == 200
    assert as_user(player).get(reverse("duels:mass-log", args=[mass_battle.pk])).status_code == 404


def test_M5_the_armys_secret_link_shows_its_side_and_only_its_kept_cards(referee, mass_battle, client, event):
    from cards.models_mass import Army

    red = Army.objects.get(event=event, name="Red")
    blue = Army.objects.get(event=event, name="Blue")
    ready(mass_battle, referee, 2, 1)
    act(mass_battle, magic.UsePoints(side="a"), referee)
    act(mass_battle, magic.KeepCard(side="a"), referee)
    mine = client.get(reverse("duels:mass-army-link", args=[red.link_token])).content.decode()
    assert "Wind Ward" in mine and "kept-cards" in mine
    theirs = client.get(reverse("duels:mass-army-link", args=[blue.link_token])).content.decode()
    assert "Wind Ward" not in theirs and "Blue spear 1" in theirs
    assert client.get(reverse("duels:mass-army-link", args=["no-such-token"])).status_code == 404
    act(mass_battle, magic.EndBattle(reason="dusk"), referee)
    idle = client.get(reverse("duels:mass-army-link", args=[red.link_token])).content.decode()
    assert "No mass battle of your army is running" in idle and "Wind Ward" not in idle
    first = client.get(reverse("duels:mass-army-link", args=[red.link_token]), HTTP_HX_REQUEST="true")
    again = client.get(
        reverse("duels:mass-army-link", args=[red.link_token]), HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"]
    )
    assert again.status_code == 304


def test_a_stale_tap_on_the_mass_tablet_goes_the_one_submit_path_and_no_clock_is_blamed(as_user, referee, mass_battle):
    """Issue 19: the mass battle's taps take the same path as the duel's and the battle's. The magic
    phase keeps no clock (M1-M8 set no deadline), so a stale page is always a person acting first:
    409, the conflict's words over the fresh state, nothing changed (the D8/S2 wording is the duel's
    and the battle's, tests/web/test_field_referee.py and test_battle_pages.py)."""
    client = as_user(referee)
    mass_battle.refresh_from_db()
    seen = mass_battle.version
    assert post(client, mass_battle, action="roll_server").status_code == 302
    before = Situation.objects.get(pk=mass_battle.pk).version
    response = client.post(
        reverse("duels:mass-act", args=[mass_battle.pk]),
        {"version": seen, "nonce": uuid.uuid4().hex, "action": "roll_server"},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 409
    assert "Another referee acted first" in html and "ran out" not in html
    assert Situation.objects.get(pk=mass_battle.pk).version == before


def test_M5_a_kept_card_is_used_from_the_tablet_in_a_later_cycles_battle_never_in_the_other_sides_turn(
    as_user, referee, mass_battle
):
    """[M5] «в любом другом ходе, во время своих действий»: after cycle 2's magic phase the tablet offers it."""
    client = as_user(referee)
    ready(mass_battle, referee, 2, 1)  # Wind Ward on top of deck 2: red keeps it
    act(mass_battle, magic.UsePoints(side="a"), referee)
    act(mass_battle, magic.KeepCard(side="a"), referee)
    ward = state(mass_battle).kept_uids("a")[0]
    act(mass_battle, magic.EndTurn(side="a"), referee)
    act(mass_battle, magic.UsePoints(side="b", warrior=wid(mass_battle, "Blue spear 2")), referee)
    act(mass_battle, magic.EndTurn(side="b"), referee)
    page = client.get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert "uses the kept card" not in page  # cycle 1: the cycle it was drawn in
    act(mass_battle, magic.NextCycle(), referee)
    ready(mass_battle, referee, 4, 5, starter="b")
    page = client.get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert f'value="{ward}"' not in page  # the other side's magic-phase turn
    assert post(client, mass_battle, action="use_kept", side="a", uid=ward).status_code == 422
    for side in ("b", "a"):
        act(mass_battle, magic.UsePoints(side=side, take=False), referee)
        act(mass_battle, magic.EndTurn(side=side), referee)
    page = client.get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert "Red uses the kept card «Wind Ward»" in page and f'value="{ward}"' in page
    assert post(client, mass_battle, action="use_kept", side="a", uid=ward).status_code == 302
    page = client.get(reverse("duels:mass", args=[mass_battle.pk])).content.decode()
    assert 'id="carry-out"' in page and 'id="next-cycle"' not in page
    assert post(client, mass_battle, action="carry_out", side="a", target_side="a").status_code == 302
    st = state(mass_battle)
    assert st.kept_uids("a") == [] and st.decks[2][-1] == ward and st.stage == magic.OVER


def test_issue20_the_record_page_and_the_log_files_work_for_a_mass_battle(as_user, referee, mass_battle, client):
    """Issue 20: /watch/<id>/record/ (anyone, logged out too) and the log's CSV and XLSX (the referee) answer 200."""
    import io

    import openpyxl

    ready(mass_battle, referee, 2, 1)
    act(mass_battle, magic.UsePoints(side="a"), referee)  # Wind Ward: may be kept, still secret
    act(mass_battle, magic.KeepCard(side="a"), referee)
    record = client.get(reverse("duels:record", args=[mass_battle.pk]))
    assert record.status_code == 200
    text = record.content.decode()
    assert "Red" in text and "Blue" in text and "Wind Ward" not in text  # a kept card stays secret
    act(mass_battle, magic.EndBattle(reason="the armies part"), referee)
    assert client.get(reverse("duels:record", args=[mass_battle.pk])).status_code == 200
    staff = as_user(referee)
    csv = staff.get(reverse("duels:log-export-csv", args=[mass_battle.pk]))
    assert csv.status_code == 200
    rows = csv.content.decode("utf-8-sig").splitlines()
    assert rows[0].startswith("seq") and any("shuffled the four decks" in r for r in rows)
    assert any("Initiative, cycle 1" in r for r in rows) and any("Red keeps" in r for r in rows)
    xlsx = staff.get(reverse("duels:log-export-xlsx", args=[mass_battle.pk]))
    assert xlsx.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    lines = [str(row[-1]) for row in sheet.iter_rows(values_only=True)]
    assert any("shuffled the four decks" in line for line in lines) and len(lines) == len(rows)

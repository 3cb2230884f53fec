"""Spectators find an event's running fights (no hidden card, D4), each with its own QR; a big screen
follows the latest fight; finished fights stay findable per event and per character (issue 10)."""

import datetime as dt

import pytest
from django.urls import reverse

from duels import services
from duels.models import Situation
from rules import duel as engine
from rules.duel import EndDuel
from tests.services.kit import SECRET_ANTON, SECRET_ZAVULON, nonce

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("secret_hands")]


def test_D4_the_public_list_shows_each_running_fight_with_its_qr_and_no_hidden_card(client, running, event):
    response = client.get(reverse("duels:event-fights", args=[event.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert f'href="/watch/{running.pk}/"' in html and "<svg" in html
    assert "Anton" in html and "Zavulon" in html
    for secret in (*SECRET_ANTON, *SECRET_ZAVULON, "Mage Shield"):
        assert secret not in html


def _end(situation, referee, time_machine) -> None:
    """The referee ends the duel, then the S2 gap ends the situation."""
    situation.refresh_from_db()
    services.perform(situation.pk, EndDuel(0, "done"), user=referee, seen_version=situation.version, nonce=nonce())
    situation.refresh_from_db()
    gap_ends = engine.situation_deadline(services.state_of(situation))
    assert gap_ends is not None, "after the last duel the S2 gap runs"
    time_machine.move_to(gap_ends + dt.timedelta(seconds=1), tick=False)
    services.refresh(situation)
    assert Situation.objects.get(pk=situation.pk).ended


def test_an_ended_fight_leaves_the_public_list(client, running, event, referee, time_machine):
    _end(running, referee, time_machine)
    html = client.get(reverse("duels:event-fights", args=[event.pk])).content.decode()
    assert 'id="no-fights"' in html


def test_D4_the_big_screen_follows_the_fight_with_the_latest_activity(client, running, event, armed, referee, rival):
    html = client.get(reverse("duels:big-screen", args=[event.pk])).content.decode()
    assert f"Combat situation {running.pk}" in html and "Fireball" in html
    for secret in (*SECRET_ANTON, *SECRET_ZAVULON):
        assert secret not in html
    # A poll with the same ETag is a 304 until something changes.
    etag = client.get(reverse("duels:big-screen", args=[event.pk]), headers={"HX-Request": "true"})["ETag"]
    again = client.get(
        reverse("duels:big-screen", args=[event.pk]), headers={"HX-Request": "true", "If-None-Match": etag}
    )
    assert again.status_code in (200, 304)


def test_the_history_lists_finished_fights_with_result_date_referees_and_log(
    as_user, referee, running, event, armed, time_machine
):
    anton, _zavulon = armed
    _end(running, referee, time_machine)
    client = as_user(referee)
    html = client.get(reverse("duels:history", args=[event.pk])).content.decode()
    row = html[html.index(f'id="situation-{running.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "ended by the referee" in row and "<td>referee</td>" in row  # the result and who refereed
    assert f'href="/fights/{running.pk}/log/"' in row
    mine = client.get(reverse("duels:character-history", args=[anton.pk])).content.decode()
    assert f'id="situation-{running.pk}"' in mine and "ended by the referee" in mine
    assert f'href="/fights/{running.pk}/log/"' in mine


def test_the_history_is_for_the_events_staff_only(as_user, player, event, running, armed):
    anton, _zavulon = armed
    assert as_user(player).get(reverse("duels:history", args=[event.pk])).status_code == 404
    assert as_user(player).get(reverse("duels:character-history", args=[anton.pk])).status_code == 404


def test_the_public_lists_qr_codes_point_to_the_public_address(client, running, event, settings):
    """Issue 10: a spectator's QR code carries the deployment's public address, not the host the page came by."""
    from events.views_characters import qr_svg

    settings.SUMRAK_PUBLIC_URL = "http://192.168.7.2:8000"
    html = client.get(reverse("duels:event-fights", args=[event.pk]), HTTP_HOST="localhost").content.decode()
    assert qr_svg(f"http://192.168.7.2:8000/watch/{running.pk}/", 3) in html
    assert qr_svg(f"http://localhost/watch/{running.pk}/", 3) not in html

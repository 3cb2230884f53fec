"""Live fragments: ETag and 304, bounded queries, deadlines applied on read, the player's focus (F1)."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from cards.models import Card, PoolEntry
from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.models import Character
from rules import duel as engine
from tests.services.kit import nonce
from tests.web.duels_kit import state_of, uid_of

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("secret_hands")]
HX = {"HX-Request": "true"}


@pytest.mark.parametrize(
    "url_of",
    [
        lambda s, c: reverse("duels:situation", args=[s.pk]),
        lambda s, c: reverse("duels:watch", args=[s.pk]),
        lambda s, c: reverse("duels:player-live", args=[c.pk]),
    ],
    ids=["referee", "spectator", "player"],
)
def test_an_unchanged_poll_answers_304_with_its_etag(as_user, referee, player, shown, character, rival, url_of):
    client = as_user(player if "characters" in url_of(shown, character) else referee)
    url = url_of(shown, character)
    first = client.get(url, headers=HX)
    etag = first["ETag"]
    assert first.status_code == 200 and etag
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in first.content.decode()
    again = client.get(url, headers={**HX, "If-None-Match": etag})
    assert again.status_code == 304 and again["ETag"] == etag and again.content == b""
    # A change (Zavulon answers) gives a new ETag and the full fragment.
    shown.refresh_from_db()
    services.perform(
        shown.pk, engine.Answer(0, rival.pk, None), user=referee, seen_version=shown.version, nonce=nonce()
    )
    changed = client.get(url, headers={**HX, "If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_etag_depends_on_the_language(as_user, referee, shown):
    client = as_user(referee)
    url = reverse("duels:situation", args=[shown.pk])
    ru = client.get(url, headers={**HX, "Accept-Language": "ru"})["ETag"]
    client.cookies["django_language"] = "en"
    en = client.get(url, headers={**HX, "Accept-Language": "en"})["ETag"]
    assert ru != en


def test_D8_an_overdue_answer_window_is_applied_on_read(as_user, referee, armed, attack_card, time_machine):
    """No worker needed: reading the page after the window applies the full effect (D8)."""
    anton, zavulon = armed
    start = timezone.now()
    time_machine.move_to(start, tick=False)
    situation = declare_aggression(anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce()).situation
    time_machine.move_to(start + dt.timedelta(seconds=anton.event.answer_window_s + 1), tick=False)
    html = as_user(referee).get(reverse("duels:situation", args=[situation.pk]), headers=HX).content.decode()
    assert "did not answer in time" in html
    assert Character.objects.get(pk=zavulon.pk).condition == "heavily_wounded"
    assert state_of(situation).duels[0].steps_done[-1].timed_out


def test_S2_the_gap_countdown_shows_when_no_answer_is_pending_and_the_situation_ends_on_read(
    as_user, referee, fight, time_machine
):
    client = as_user(referee)
    html = client.get(reverse("duels:situation", args=[fight.pk])).content.decode()
    st = state_of(fight)
    deadline = engine.situation_deadline(st)
    assert 'data-format="clock"' in html and deadline is not None
    time_machine.move_to(deadline + dt.timedelta(seconds=1), tick=False)
    html = client.get(reverse("duels:situation", args=[fight.pk])).content.decode()
    # The page says why it ended (issue 10): the gap, with the event's span.
    assert "This combat situation ended: 3 minutes passed without a combat action." in html
    assert Situation.objects.get(pk=fight.pk).ended


def _long_log(situation: Situation, extra: int) -> None:
    """Pad the log with focus entries (cached state unchanged): the page must read only the tail."""
    last = situation.log.latest("seq")
    LogEntry.objects.bulk_create(
        LogEntry(
            situation=situation,
            seq=last.seq + 1 + i,
            kind="command",
            command={"type": "set_focus", "fighter": 0, "card": None},
            at=last.at,
            events=[{"type": "focus_set", "fighter": 0, "card": None, "card_id": None}],
        )
        for i in range(extra)
    )


def _bigger_catalogue(situation: Situation, cards: int) -> None:
    event = situation.event
    assert event.catalogue_id is not None
    made = Card.objects.bulk_create(
        Card(catalogue_id=event.catalogue_id, name_ru=f"Карта {i}", kind="defence") for i in range(cards)
    )
    for character in Character.objects.filter(event=event):
        PoolEntry.objects.bulk_create(PoolEntry(character=character, card=card) for card in made)


@pytest.mark.parametrize(("extra_log", "extra_cards"), [(10, 5), (300, 200)])
def test_fight_page_and_poll_queries_do_not_grow_with_the_log_or_the_catalogue(
    as_user, referee, shown, extra_log, extra_cards, django_assert_max_num_queries
):
    _long_log(shown, extra_log)
    _bigger_catalogue(shown, extra_cards)
    client = as_user(referee)
    url = reverse("duels:situation", args=[shown.pk])
    client.get(url)  # warm the session
    with django_assert_max_num_queries(6):
        page = client.get(url)
    with django_assert_max_num_queries(6):
        poll = client.get(url, headers=HX)
    assert page.status_code == poll.status_code == 200
    # Bounded log: the newest 20 entries only.
    total = LogEntry.objects.filter(situation=shown).count()
    assert poll.content.decode().count('class="log-line') == min(20, total)


@pytest.mark.parametrize("extra_log", [10, 300])
def test_spectator_and_player_polls_do_not_grow_with_the_log(
    client, as_user, player, character, shown, extra_log, django_assert_max_num_queries
):
    _long_log(shown, extra_log)
    with django_assert_max_num_queries(3):
        assert client.get(reverse("duels:watch", args=[shown.pk]), headers=HX).status_code == 200
    player_client = as_user(player)
    player_client.get(reverse("duels:player-live", args=[character.pk]))
    with django_assert_max_num_queries(6):
        assert player_client.get(reverse("duels:player-live", args=[character.pk]), headers=HX).status_code == 200


def _focus(client, character, card, version="", token=None):
    url = (
        reverse("duels:player-focus-token", args=[token])
        if token
        else reverse("duels:player-focus", args=[character.pk])
    )
    return client.post(url, {"card": card, "version": version, "nonce": nonce()}, headers=HX)


def test_F1_focus_outside_a_fight_goes_through_the_arsenal(as_user, player, armed, defence_card, attack_card):
    anton, _ = armed
    client = as_user(player)
    response = _focus(client, anton, str(defence_card.pk))
    assert response.status_code == 200
    assert Character.objects.get(pk=anton.pk).focus_card_id == defence_card.pk
    assert "Drop the focus" in response.content.decode()
    # F1: an attack card cannot be focused; nothing changes.
    refused = _focus(client, anton, str(attack_card.pk))
    # The player reads the refusal in words; rule codes are for referees (issue 10).
    assert refused.status_code == 422 and "defence" in refused.content.decode()
    assert "(F1)" not in refused.content.decode() and 'class="rule-ref"' not in refused.content.decode()
    assert Character.objects.get(pk=anton.pk).focus_card_id == defence_card.pk
    assert _focus(client, anton, "").status_code == 200
    assert Character.objects.get(pk=anton.pk).focus_card_id is None


def test_F1_focus_in_a_fight_goes_through_the_engine(client, fight, character, defence_card):
    """By the secret link, no account: the SetFocus command is logged without an actor."""
    uid = uid_of(fight, character.pk, defence_card)
    response = _focus(client, character, uid, version=fight.version, token=character.link_token)
    assert response.status_code == 200
    assert state_of(fight).fighters[character.pk].focus == uid
    entry = LogEntry.objects.filter(situation=fight).latest("seq")
    assert entry.command is not None and entry.command["type"] == "set_focus" and entry.actor is None
    # A stale page is told so and nothing is applied.
    stale = _focus(client, character, "", version=fight.version - 1, token=character.link_token)
    assert stale.status_code == 409 and "Your fight changed a moment ago" in stale.content.decode()
    assert state_of(fight).fighters[character.pk].focus == uid


def test_the_player_sees_the_countdown_when_they_must_answer(as_user, other_player, shown, rival):
    html = as_user(other_player).get(reverse("duels:player-live", args=[rival.pk])).content.decode()
    assert "Answer now!" in html and "countdown-answer" in html and "data-deadline=" in html

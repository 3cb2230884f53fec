"""Statement counts of the fight core, short fight against long fight (issue 8).

Counts, never times: a step through the real form issues at most 10 SQL
statements and exactly as many for a 500-entry fight as for a 10-entry one;
an unchanged poll reads no state at all (the spectator's not even the
database); changed polls and the referee's running list stay flat too.
The long fights are played by the engine (bench/fights.py), so their state
grows with the log like a real one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.fights import extend
from duels import services
from duels.models import Situation
from rules import duel as engine
from tests.services.kit import nonce

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
STEP_LIMIT = 10


def _grow_to_an_attack(situation: Situation, entries: int, referee) -> engine.Situation:
    """``entries`` more played entries, then on to the next moment someone must attack."""
    situation.refresh_from_db()
    state = extend(situation, entries, actor=referee)
    while state.duels[-1].phase != engine.AWAIT_ATTACK:
        state = extend(situation, 1, actor=referee)
    return state


def _statements[R](call: Callable[[], R]) -> tuple[int, list[str], R]:
    with CaptureQueriesContext(connection) as ctx:
        response = call()
    return len(ctx.captured_queries), [q["sql"] for q in ctx.captured_queries], response


def _attack_form(situation: Situation, state: engine.Situation) -> dict:
    duel = state.duels[-1]
    card = engine.attack_cards(state, duel.attacker)[0]
    situation.refresh_from_db()
    return {
        "action": "attack",
        "duel": duel.number,
        "fighter": duel.attacker,
        "card": card,
        "version": situation.version,
        "nonce": nonce(),
    }


def test_a_step_issues_at_most_10_statements_and_as_many_at_500_entries_as_at_10(as_user, referee, fight):
    client = as_user(referee)
    client.get(reverse("duels:situation", args=[fight.pk]))  # the session exists
    counts = []
    for entries in (10, 490):
        data = _attack_form(fight, _grow_to_an_attack(fight, entries, referee))
        url = reverse("duels:act", args=[fight.pk])
        count, sql, response = _statements(partial(client.post, url, data, headers=HX))
        assert response.status_code == 200, response.content[:300]
        assert 'class="alert alert-danger' not in response.content.decode()
        assert count <= STEP_LIMIT, "\n".join(sql)
        # The state is read once, under the lock; nothing reads the whole log.
        assert sum(1 for q in sql if '"state"' in q and q.lstrip().startswith("SELECT")) == 1, "\n".join(sql)
        counts.append(count)
    assert fight.log.count() > 500
    assert counts[0] == counts[1]
    # The live state is still the replay of the log the step was appended to.
    fight.refresh_from_db()
    assert services.replayed(fight) == services.state_of(fight)


def _poll(client, url, etag=None):
    return client.get(url, headers={**HX, **({"If-None-Match": etag} if etag else {})})


def test_unchanged_polls_read_no_state_and_stay_flat_with_the_log(client, as_user, referee, player, character, fight):
    urls = {
        "referee": (as_user(referee), reverse("duels:situation", args=[fight.pk])),
        "player": (as_user(player), reverse("duels:player-live", args=[character.pk])),
        "spectator": (client, reverse("duels:watch", args=[fight.pk])),
    }
    found: dict[str, list[int]] = {who: [] for who in urls}
    changed: dict[str, list[int]] = {who: [] for who in urls}
    for entries in (10, 490):
        _grow_to_an_attack(fight, entries, referee)
        for who, (c, url) in urls.items():
            c.get(url)  # the session exists
            n_changed, _sql, first = _statements(partial(_poll, c, url, '"stale"'))
            assert first.status_code == 200
            changed[who].append(n_changed)
            count, sql, again = _statements(partial(_poll, c, url, first["ETag"]))
            assert again.status_code == 304
            assert not any('"state"' in q for q in sql), "\n".join(sql)
            found[who].append(count)
    assert found["spectator"] == [0, 0]  # answered from the cache alone
    for who in urls:
        assert found[who][0] == found[who][1] <= 3, (who, found)
        assert changed[who][0] == changed[who][1] <= 8, (who, changed)


def test_an_unchanged_poll_sees_a_change_made_by_a_command_at_once(client, referee, fight):
    """The cached version is written by the command itself: no poll may miss a change (no stale 304)."""
    url = reverse("duels:watch", args=[fight.pk])
    etag = _poll(client, url)["ETag"]
    assert _poll(client, url, etag).status_code == 304
    state = services.state_of(fight)
    duel = state.duels[-1]
    services.perform(
        fight.pk,
        engine.Attack(duel.number, duel.attacker, engine.attack_cards(state, duel.attacker)[0]),
        user=referee,
        seen_version=fight.version,
        nonce=nonce(),
    )
    after = _poll(client, url, etag)
    assert after.status_code == 200 and after["ETag"] != etag


def test_the_running_fights_list_answers_304_until_a_fight_changes(as_user, referee, fight):
    client = as_user(referee)
    url = reverse("duels:referee-home", args=[fight.event_id])
    headers = {**HX, "HX-Target": "running"}
    first = client.get(url, headers=headers)
    assert first.status_code == 200 and "running-fight" in first.content.decode()
    etag = first["ETag"]
    assert f'data-etag="{etag.replace(chr(34), "&quot;")}"' in first.content.decode()
    count, sql, again = _statements(lambda: client.get(url, headers={**headers, "If-None-Match": etag}))
    assert again.status_code == 304
    assert count <= 4 and not any('"state"' in q for q in sql), "\n".join(sql)
    extend(fight, 1, actor=referee)
    assert client.get(url, headers={**headers, "If-None-Match": etag}).status_code == 200

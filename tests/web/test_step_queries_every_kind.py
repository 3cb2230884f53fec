"""Statement counts of a step, short fight against long fight, for battles and mass battles (issue 24).

The duel's count is tested in tests/web/test_duels_queries.py. Here the same
question for the other kinds: the referee's tap through the real form costs
exactly as many statements at ~300 log entries as at ~10, reads the state
once (under the lock) and never the whole log. Counts, never times.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import rules.mass as magic
from duels import services
from duels.models import Situation
from rules import battle as B
from tests.services.battle_kit import battle_state, passes
from tests.services.kit import nonce
from tests.services.mass_kit import act, armies, in_catalogue_order, start
from tests.services.mass_kit import state as mass_state

pytestmark = pytest.mark.django_db
HX = {"HX-Request": "true"}
# The duel's ten (tests/web/test_duels_queries.py); a battle's one fewer: a step inside a turn does
# not read the people who may join (the join form goes with a bout's end or a round's start only,
# duels/battle/live.py); 7 on PostgreSQL (bench.cost). A mass battle's tablet reads, when its newest
# lines hold an initiative roll, the undone rolls before it (M4: "keeps its dice"; LIMITed); its magic
# cards' words and warriors' type names come from the process (cards/mass_names.py; 12 before).
STEP_LIMIT = {"battle": 9, "mass": 10}
LENGTHS = (10, 300)


def _statements(call: Callable[[], Any]) -> tuple[list[str], Any]:
    with CaptureQueriesContext(connection) as ctx:
        response = call()
    return [q["sql"] for q in ctx.captured_queries], response


def _check_step(kind: str, sql: list[str], response: Any) -> int:
    assert response.status_code == 200, response.content[:300]
    assert 'role="alert"' not in response.content.decode()
    assert len(sql) <= STEP_LIMIT[kind], "\n".join(sql)
    # The state is read once, under the lock.
    state_reads = [q for q in sql if '"duels_situation"."state"' in q and q.lstrip().startswith("SELECT")]
    assert len(state_reads) == 1, "\n".join(sql)
    # Nothing reads the log unbounded: every log read is limited (the newest entries) or an aggregate.
    for q in sql:
        if 'FROM "duels_logentry"' in q and q.lstrip().startswith("SELECT"):
            assert "LIMIT" in q or "MAX(" in q, q
    return len(sql)


def _drive(situation: Situation, user: Any, command: Any) -> None:
    situation.refresh_from_db()
    services.perform(situation.pk, command, user=user, seen_version=situation.version, nonce=nonce())


def _battle_to(situation: Situation, referee: Any, entries: int) -> B.Battle:
    """Turns passed and rounds started until the log holds ``entries``, at the start of someone's turn."""
    while True:
        st = battle_state(situation)
        if situation.log.count() >= entries and st.phase == B.TURNS:
            return st
        if st.phase == B.BETWEEN_ROUNDS:
            _drive(situation, referee, B.StartRound())
        else:
            _drive(situation, referee, passes(st))
            _drive(situation, referee, B.NextTurn())


def test_a_battle_step_costs_as_many_statements_at_300_entries_as_at_10(as_user, referee, battle):
    client = as_user(referee)
    url = reverse("duels:battle-act", args=[battle.pk])
    client.get(reverse("duels:battle", args=[battle.pk]))  # the session exists
    counts = []
    for entries in LENGTHS:
        st = _battle_to(battle, referee, entries)
        battle.refresh_from_db()
        data = {"action": "act", "who": st.turn_of, "act": B.PASS, "version": battle.version, "nonce": nonce()}
        sql, response = _statements(partial(client.post, url, data, headers=HX))
        counts.append(_check_step("battle", sql, response))
        _drive(battle, referee, B.NextTurn())
    assert battle.log.count() > LENGTHS[1]
    assert counts[0] == counts[1], counts
    battle.refresh_from_db()
    assert services.replayed(battle) == services.state_of(battle)


# One magic cycle (M4-M5): both roll, the winner starts, each side declines its draw and ends its turn.
def _cycle(situation: Situation, referee: Any) -> None:
    for command in (
        magic.RollInitiative(source=magic.REFEREE, dice=(5, 4)),
        magic.ChooseStarter(side="a", starts=True),
        magic.UsePoints(side="a", take=False),
        magic.EndTurn(side="a"),
        magic.UsePoints(side="b", take=False),
        magic.EndTurn(side="b"),
        magic.NextCycle(),
    ):
        act(situation, command, referee)


def test_a_mass_battle_step_costs_as_many_statements_at_300_entries_as_at_10(
    as_user, referee, event, cards, monkeypatch
):
    in_catalogue_order(monkeypatch)
    red, blue = armies(event)
    situation = start(event, referee, red, blue)
    client = as_user(referee)
    url = reverse("duels:mass-act", args=[situation.pk])
    client.get(reverse("duels:mass", args=[situation.pk]))  # the session exists
    counts = []
    for entries in LENGTHS:
        while situation.log.count() < entries:
            _cycle(situation, referee)
        assert mass_state(situation).stage == magic.INITIATIVE
        situation.refresh_from_db()
        data = {"action": "roll_entered", "dice_a": "5", "dice_b": "4", "version": situation.version, "nonce": nonce()}
        sql, response = _statements(partial(client.post, url, data, headers=HX))
        counts.append(_check_step("mass", sql, response))
        act(situation, magic.ChooseStarter(side="a", starts=True), referee)
        for command in (
            magic.UsePoints(side="a", take=False),
            magic.EndTurn(side="a"),
            magic.UsePoints(side="b", take=False),
            magic.EndTurn(side="b"),
            magic.NextCycle(),
        ):
            act(situation, command, referee)
    assert situation.log.count() > LENGTHS[1]
    assert counts[0] == counts[1], counts
    situation.refresh_from_db()
    assert services.replayed(situation) == services.state_of(situation)

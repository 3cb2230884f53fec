"""The battle's act form builds only the fields its action reads and those the request sends (issue 24).

Django deep-copies every declared field of a form on each request; ``BattleActForm``
leaves out the optional fields an action neither reads nor was sent. It must refuse
exactly what the whole form refused, with the same messages in the same order, and
make the same command of what it accepts: here it is held to a form that keeps every
field, over requests of every action with good and bad values, and a refused request
through the tablet still answers 400 with its message and changes nothing.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.http import QueryDict
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from duels import services
from duels.battle.forms import BattleActForm
from duels.web.alerts import form_problem
from tests.services.kit import nonce
from tests.web.battle_page_kit import HX


class WholeForm(BattleActForm):
    """Every declared field on every request, as the form was built before."""

    USES: dict[str, tuple[str, ...]] = {}


ACTIONS = [a for a, _label in BattleActForm.ACTIONS]
# For each field: values a tablet sends and values nobody should.
VALUES: dict[str, list[Any]] = {
    "version": ["3", "0", "-1", "x", ""],
    "nonce": [uuid.UUID(int=7).hex, "not-a-uuid", ""],
    "lag_ms": ["", "120", "-5", "9999999999"],
    "action": [*ACTIONS, "fly", ""],
    "frame": ["", "1", "0", "-2", "one"],
    "who": ["", "4", "x", "-1"],
    "act": ["", "attack", "move", "dance"],
    "cards": [[], ["c1"], ["c1", "c2"], ["x" * 300], [""]],
    "card": ["", "c1", "x" * 300],
    "targets": [[], ["2"], ["2", "3"], ["x"], ["1"] * 50],
    "engaged": [[], ["2"], ["-1"]],
    "target": ["", "2", "z"],
    "negates": ["", "1", "0", "2"],
    "outcome": ["", "parried", "weird"],
    "reason": ["", "because", "r" * 2000],
    "quick_reason": ["", "fell", "q" * 2000],
    "trigger": ["", "when they move", "t" * 300],
    "mode": ["", "interrupt", "response", "opportunity"],
    "order": [[], ["3", "1"], ["a"]],
    "adjacent": ["", "1", "on"],
}


def _query(picked: dict[str, Any]) -> QueryDict:
    data = QueryDict(mutable=True)
    for key, value in picked.items():
        data.setlist(key, value if isinstance(value, list) else [value])
    return data


def _outcome(form: BattleActForm) -> tuple[Any, ...]:
    valid = form.is_valid()
    errors = [(k, [m for e in es for m in e.messages]) for k, es in form.errors.as_data().items()]
    return valid, errors, form_problem(form).text if not valid else None, form.command() if valid else None


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    picked: dict[str, Any] = {
        "version": "3",
        "nonce": uuid.UUID(int=7).hex,
        "action": draw(st.sampled_from(VALUES["action"])),
    }
    for key, values in VALUES.items():
        if draw(st.booleans()):
            picked[key] = draw(st.sampled_from(values))
    return picked


@settings(max_examples=400, deadline=None)
@given(requests())
def test_the_cut_form_refuses_and_accepts_as_the_whole_form(picked: dict[str, Any]) -> None:
    data = _query(picked)
    assert _outcome(BattleActForm(data)) == _outcome(WholeForm(data))


@pytest.mark.parametrize("action", ACTIONS)
def test_each_action_reads_only_fields_it_is_built_with(action: str) -> None:
    """A tap as the tablet sends it (only its own fields) makes the command the whole form made."""
    sent: dict[str, Any] = {"version": "3", "nonce": uuid.UUID(int=7).hex, "action": action, "frame": "1", "who": "4"}
    sent |= {"act": "attack", "card": "c1", "outcome": "parried", "reason": "r", "order": ["2", "1"]}
    data = _query(sent)
    data.setlist("targets", ["2"])
    form, whole = BattleActForm(data), WholeForm(data)
    assert set(form.fields) < set(whole.fields) or action not in BattleActForm.USES
    assert _outcome(form) == _outcome(whole)


def _alert(html: str) -> str:
    start = html.index('role="alert"')
    return html[start : html.index("</div>", start)]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("payload", "words"),
    [
        ({"action": "opportunity", "frame": "1", "who": "2"}, "The request was incomplete."),
        ({"action": "act", "who": "1", "act": "dance"}, "Select a valid choice."),
        ({"action": "proceed", "frame": "-3"}, "greater than or equal to 0"),
        ({"action": "next_turn", "targets": ["x"]}, "The request was incomplete."),
        ({"action": "fly"}, "Select a valid choice."),
    ],
)
def test_a_malformed_tap_is_a_400_with_its_message_and_changes_nothing(
    as_user: Any, referee: Any, battle: Any, payload: dict[str, Any], words: str
) -> None:
    battle.refresh_from_db()
    before, state = battle.version, services.state_of(battle)
    data = {"version": str(before), "nonce": nonce(), **payload}
    response = as_user(referee).post(reverse("duels:battle-act", args=[battle.pk]), data, headers=HX)
    assert response.status_code == 400
    assert words in _alert(response.content.decode())
    battle.refresh_from_db()
    assert battle.version == before and services.state_of(battle) == state

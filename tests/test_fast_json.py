"""The log's and the state's JSON columns use orjson, and keep json's behaviour (issue 8)."""

from __future__ import annotations

import datetime as dt

import pytest

from duels.fields import dumps, loads
from duels.models import Situation


def test_dumps_is_as_strict_as_json():
    with pytest.raises(TypeError):
        dumps({"at": dt.datetime(2026, 1, 1, tzinfo=dt.UTC)})
    with pytest.raises(TypeError):
        dumps({"what": object()})


def test_integer_keys_become_strings_as_with_json():
    assert loads(dumps({1: "a", "b": [1, 2.5, None, True]})) == {"1": "a", "b": [1, 2.5, None, True]}


def test_what_orjson_refuses_json_still_writes():
    big = 2**70
    assert loads(dumps({"n": big})) == {"n": big}


@pytest.mark.django_db
def test_a_state_goes_through_the_database_unchanged(fight):
    # A real opened fight: nested lists, dicts, unicode, nulls, floats of the state.
    state = dict(fight.state, note="Иной «тест»", ratio=0.1, nothing=None)
    Situation.objects.filter(pk=fight.pk).update(state=state)
    assert Situation.objects.get(pk=fight.pk).state == state

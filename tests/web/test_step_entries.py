"""A step's answer builds none of the older log entries it read (issue 24), for a fight of each kind.

A step reads its fight's newest twenty entries (the next ``seq``, the page's
lines); its answer describes only the lines it added, so the older ones stay
rows (services.rows.Entries): a duel's answer builds only undone ones and
instant attacks (IA3's repeat, IA1's conversion note), none here. Each tap
goes through the tablet's own forms, as tests/web/test_step_regions.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from duels.services import rows
from rules import duel as engine
from tests.services.battle_kit import buid, top
from tests.services.mass_kit import armies, in_catalogue_order, start
from tests.web.duels_kit import state_of
from tests.web.tablet_kit import Tablet

pytestmark = pytest.mark.django_db


@pytest.fixture
def built(monkeypatch) -> Iterator[list[int]]:
    """The ``seq`` of every log entry a step builds from the rows it read."""
    seen: list[int] = []
    build = rows._entry

    def counted(row: Any, *args: Any) -> Any:
        entry = build(row, *args)
        seen.append(entry.seq)
        return entry

    monkeypatch.setattr(rows, "_entry", counted)
    yield seen


def _taps(tablet: Tablet, built: list[int], taps: list[Callable[[], list[str]]]) -> None:
    for tap in taps:
        before = tablet.situation.log.count()
        swapped = tap()
        assert swapped, "the step was not answered with its regions"
        assert tablet.situation.log.count() > before
        assert built == [], f"the step's answer built older entries: {built}"


def test_a_duels_steps_build_no_older_entry(as_user, referee, fight, built):
    tablet = Tablet(as_user(referee), fight, "duels:situation")

    def attack() -> list[str]:
        st = state_of(fight)
        duel = st.duels[-1]
        return tablet.tap("attack", {"duel": duel.number}, card=engine.attack_cards(st, duel.attacker)[0])

    def number() -> int:
        return state_of(fight).duels[-1].number

    steps = [
        attack,
        lambda: tablet.tap("answer", {"duel": number()}, card=""),
        lambda: tablet.tap("override", {"duel": number()}, outcome="parried", reason="a good block"),
        attack,
    ]
    _taps(tablet, built, steps)


def test_a_battles_steps_build_no_older_entry(as_user, referee, battle, people, built):
    anna, _, vera, _ = people
    tablet = Tablet(as_user(referee), battle, "duels:battle")
    steps = [
        lambda: tablet.tap(
            "act", {"who": anna.pk}, act="attack", cards=[buid(battle, anna, "Blade")], targets=[vera.pk]
        ),
        lambda: tablet.tap("answer", {"frame": top(battle).number, "who": vera.pk}, card=buid(battle, vera, "Shield")),
        lambda: tablet.tap("confirm", {"frame": top(battle).number, "who": vera.pk}),
        lambda: tablet.tap("next_turn"),
    ]
    _taps(tablet, built, steps)


def test_a_mass_battles_steps_build_no_older_entry(as_user, referee, event, cards, monkeypatch, built):
    in_catalogue_order(monkeypatch)
    red, blue = armies(event)
    situation = start(event, referee, red, blue)
    tablet = Tablet(as_user(referee), situation, "duels:mass")
    steps = [
        lambda: tablet.tap("roll_entered", dice_a="5", dice_b="4"),
        lambda: tablet.tap("choose", {"side": "a"}, starts="yes"),
        lambda: tablet.tap("points", {"side": "a"}, take="no"),
        lambda: tablet.tap("end_turn", {"side": "a"}),
    ]
    _taps(tablet, built, steps)

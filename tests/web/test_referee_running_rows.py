"""The referee's running-fights list written in Python (duels.views_referee.row_html), for every kind.

Each row was a loop of template nodes for every change of any running fight
(issue 24: ~37 ms of CPU for the bench game's 220 fights); its HTML is now
built once per fight, version and language. It must be the markup the
template wrote (tests/web/regions_reference/referee_running.html): the same
elements, attributes and text, for a duel, a battle and a mass battle, in
Russian and English, with every name and line escaped.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from duels.models import Situation
from duels.views_referee import RunningRow, _row, row_html
from duels.web.pages import FightSummary, Person
from tests.web.no_server_errors_kit import _mass_battle
from tests.web.regions_kit import engine, normalized

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true", "HX-Target": "running"}


def _reference(rows: list[RunningRow]) -> str:
    return engine().get_template("referee_running.html").render({"running": rows})


def _rows(html: str) -> list[str]:
    return re.findall(r'<a class="list-group-item[^"]*running-fight".*?</a>', normalized(html))


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_kind_s_row_is_the_markup_the_template_wrote(as_user, referee, event, running, battle, language):
    mass = _mass_battle(event, referee)
    client = as_user(referee)
    client.cookies["django_language"] = language
    page = client.get(reverse("duels:referee-home", args=[event.pk]), headers=HX).content.decode()
    shown = _rows(page)
    assert len(shown) == 3
    for situation, tablet in ((running, "duels:situation"), (battle, "duels:battle"), (mass, "duels:mass")):
        assert sum(f'href="{reverse(tablet, args=[situation.pk])}"' in row for row in shown) == 1
    # The rows the view built, rendered by the template they replace.
    with translation.override(language):
        rows = [_row(s) for s in Situation.objects.filter(pk__in=[mass.pk, battle.pk, running.pk]).order_by("-pk")]
        assert shown == _rows(_reference(rows))


def test_names_and_lines_are_escaped_as_the_template_escaped_them():
    summary = FightSummary(
        kind_label="duel <i>",
        title="Combat situation 7",
        people=(Person('Zed "<b>"', note="wounded & out", out=True), Person("Ann'a"), Person("Bo", note="fit")),
        lines=("Step 3: <script>alert(1)</script>", "a & b"),
    )
    row = RunningRow(7, "duels:situation", summary, row_html(7, "duels:situation", summary))
    assert "<script>" not in row.html and "<b>" not in row.html and "<i>" not in row.html
    assert normalized(row.html) == normalized(_reference([row]))

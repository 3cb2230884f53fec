"""A step's answer carries only the log lines the step added, prepended to the tablet's list (issue 24).

For each kind: the answer's one log element is ``hx-swap-oob="afterbegin:#<region> .log-lines"``
and holds exactly the new entries' ``<li>``s, newest first, and no older line; a step that logs
a deadline's entry before the command's prepends both, in the log's order; applied as htmx and
sumrak.js do (tests/web/oob_kit.py: the head of the list, at most the kind's lines kept), the page
is what a fresh render shows. A repeated roll's M4 line (mass battle) and the placeholder line
are covered too. Statement counts per step stay flat in the log's length:
tests/web/test_step_queries_every_kind.py and tests/web/test_duels_queries.py.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine
from django.urls import reverse

import rules.mass as magic
from duels import services
from duels.models import LogEntry, Situation
from duels.templatetags.fight_forms import log_list
from duels.templatetags.fight_log import new_log_lines
from duels.web.log import LogLine
from duels.web.oob import MARK_TEMPLATE, Part, as_oob, log_part, oob_response
from duels.web.submit import step_answer, tablet_context
from rules import battle as B
from rules import duel as engine
from tests.services.battle_kit import battle_state, buid, top
from tests.services.kit import nonce
from tests.services.mass_kit import act as mass_act
from tests.services.mass_kit import armies, in_catalogue_order, start
from tests.services.mass_kit import undo as mass_undo
from tests.web.duels_kit import state_of
from tests.web.oob_kit import Dom, parse
from tests.web.tablet_kit import HX, Tablet

pytestmark = pytest.mark.django_db


def _log_element(answer: str) -> tuple[str, list[str]]:
    """The answer's one prepend element: its swap, and the ``data-seq`` of its lines (and of no other line)."""
    root = parse(answer)
    prepends = [
        e for e in root.children if not isinstance(e, str) and (e.get("hx-swap-oob") or "").startswith("afterbegin:")
    ]
    assert len(prepends) == 1, answer[:400]
    lines = [e.get("data-seq") or "" for e in root.walk() if e.tag == "li" and e.has("data-seq")]
    inside = [e.get("data-seq") or "" for e in prepends[0].walk() if e.tag == "li"]
    assert lines == inside, "a log line outside the prepend element"
    return prepends[0].get("hx-swap-oob") or "", inside


def _newest(situation: Situation, count: int) -> list[str]:
    return [str(s) for s in situation.log.order_by("-seq").values_list("seq", flat=True)[:count]]


def _page_lines(dom: Dom, region: str) -> list[str]:
    (found,) = dom.by_id(region)
    return [e.get("data-seq") or "" for e in found.walk() if e.tag == "li" and e.has("data-seq")]


def _tap(tablet: Tablet, action: str, match: dict[str, Any] | None = None, **extra: Any) -> str:
    """``Tablet.tap`` (the patched page checked against a fresh render), handing back the answer."""
    answers: list[str] = []
    post = tablet.client.post

    def keep(*args: Any, **kw: Any) -> Any:
        response = post(*args, **kw)
        answers.append(response.content.decode())
        return response

    tablet.client.post = keep  # type: ignore[method-assign]
    try:
        tablet.tap(action, match, **extra)
    finally:
        tablet.client.post = post  # type: ignore[method-assign]
    return answers[-1]


# --- the duel ---------------------------------------------------------------------------------


def test_a_duels_step_prepends_only_its_own_line(as_user, referee, fight):
    tablet = Tablet(as_user(referee), fight, "duels:situation")
    before = _page_lines(tablet.dom, "fight-log")
    assert before == _newest(fight, 20)
    st = state_of(fight)
    duel = st.duels[-1]
    card = engine.attack_cards(st, duel.attacker)[0]
    answer = _tap(tablet, "attack", {"duel": duel.number}, card=card)
    swap, seqs = _log_element(answer)
    assert swap == "afterbegin:#fight-log .log-lines"
    assert seqs == _newest(fight, 1) and seqs[0] not in before
    assert _page_lines(tablet.dom, "fight-log") == _newest(fight, 20)


def test_a_duel_step_of_several_entries_prepends_them_all_newest_first(referee, fight, rf):
    """The core: every entry ``Performed.added`` names goes, newest first (a real deadline step: the battle's)."""
    fight.refresh_from_db()
    base = fight.version
    before = _newest(fight, 20)
    st = state_of(fight)
    duel = st.duels[-1]
    card = engine.attack_cards(st, duel.attacker)[0]
    performed = services.perform(
        fight.pk,
        engine.Attack(duel=duel.number, fighter=duel.attacker, card=card),
        user=referee,
        seen_version=base,
        nonce=nonce(),
    )
    assert performed.added is not None and len(performed.added) == 1 and performed.recent is not None
    # As if the step had logged the entry before it too (an expiry, then the command).
    two = services.Performed(
        performed.situation,
        performed.events,
        state=performed.state,
        recent=performed.recent,
        added=performed.recent[:2],
    )
    request = rf.post("/", headers=HX)
    request.user = referee
    request.htmx = True
    answer = step_answer(request, two, base)
    assert answer is not None
    _swap, seqs = _log_element(answer.content.decode())
    assert seqs == _newest(fight, 2) and seqs[1] == before[0]


# --- the battle -------------------------------------------------------------------------------


def test_a_battles_step_prepends_only_its_own_line_and_keeps_twelve(as_user, referee, battle, people):
    anna, _, vera, _ = people
    tablet = Tablet(as_user(referee), battle, "duels:battle")
    answer = _tap(tablet, "act", {"who": anna.pk}, act="attack", cards=[buid(battle, anna, "Blade")], targets=[vera.pk])
    swap, seqs = _log_element(answer)
    assert swap == "afterbegin:#battle-log .log-lines"
    assert seqs == _newest(battle, 1)
    frame = top(battle)
    tablet.tap("answer", {"frame": frame.number, "who": vera.pk}, card=buid(battle, vera, "Shield"))
    tablet.tap("confirm", {"frame": frame.number, "who": vera.pk})
    # Enough steps to fill the list: the page keeps the twelve newest, as a reload shows.
    for _ in range(8):
        tablet.tap("next_turn")
        st = battle_state(battle)
        tablet.tap("act", {"who": st.turn_of}, act="pass")
    assert battle.log.count() > 12
    assert _page_lines(tablet.dom, "battle-log") == _newest(battle, 12)


def test_a_battle_step_after_a_deadline_prepends_both_lines(as_user, referee, battle, people):
    """An answer window ran out before the next tap (D8, BP3): the expiry's line and the command's, in order."""
    anna, _, vera, _ = people
    client = as_user(referee)
    tablet = Tablet(client, battle, "duels:battle")
    tablet.tap("act", {"who": anna.pk}, act="attack", cards=[buid(battle, anna, "Bolt")], targets=[vera.pk])
    deadlines = B.next_deadline(battle_state(battle))
    assert deadlines is not None
    battle.refresh_from_db()
    last = _newest(battle, 1)[0]
    with time_machine.travel(deadlines + dt.timedelta(seconds=5), tick=False):
        response = client.post(
            reverse("duels:battle-act", args=[battle.pk]),
            {"action": "next_turn", "version": battle.version, "nonce": nonce()},
            headers=HX,
        )
        assert response.status_code == 200, response.content.decode()[-3000:]
        new = list(battle.log.filter(seq__gt=int(last)).order_by("-seq"))
        assert [e.kind for e in new] == [LogEntry.Kind.COMMAND, LogEntry.Kind.EXPIRE]
        assert response["HX-Reswap"] == "none"
        _swap, seqs = _log_element(response.content.decode())
        assert seqs == [str(e.seq) for e in new]
        tablet.dom.apply_oob(response.content.decode())
        assert tablet.dom.normalized() == Dom(tablet._fresh()).normalized()


# --- the mass battle --------------------------------------------------------------------------


def test_a_mass_battles_step_prepends_only_its_own_line_and_a_repeated_rolls_M4_line(
    as_user, referee, event, cards, monkeypatch
):
    """M4: a roll undone and entered again with the same dice says so on the new line, as a reload does."""
    in_catalogue_order(monkeypatch)
    red, blue = armies(event)
    situation = start(event, referee, red, blue)
    client = as_user(referee)
    tablet = Tablet(client, situation, "duels:mass")
    answer = _tap(tablet, "roll_entered", dice_a="5", dice_b="4")
    swap, seqs = _log_element(answer)
    assert swap == "afterbegin:#mass-log .log-lines"
    assert seqs == _newest(situation, 1)
    mass_undo(situation, referee)
    situation.refresh_from_db()
    tablet = Tablet(client, situation, "duels:mass")
    answer = _tap(tablet, "roll_entered", dice_a="5", dice_b="4")
    _swap, seqs = _log_element(answer)
    assert seqs == _newest(situation, 1)
    assert "keeps its dice" in answer  # the M4 line, read from the undone roll before it
    assert _page_lines(tablet.dom, "mass-log") == _newest(situation, 20)


def test_a_mass_battles_page_keeps_its_twenty_newest_lines(as_user, referee, event, cards, monkeypatch):
    in_catalogue_order(monkeypatch)
    red, blue = armies(event)
    situation = start(event, referee, red, blue)
    tablet = Tablet(as_user(referee), situation, "duels:mass")
    while situation.log.count() <= 22:
        tablet.tap("roll_entered", dice_a="5", dice_b="4")
        tablet.tap("choose", {"side": "a"}, starts="yes")
        for side in ("a", "b"):
            tablet.tap("points", {"side": side}, take="no")
            tablet.tap("end_turn", {"side": side})
        tablet.tap("next_cycle")
    assert _page_lines(tablet.dom, "mass-log") == _newest(situation, 20)


def test_a_step_context_describes_several_new_entries_newest_first(referee, event, cards, monkeypatch):
    """The core's builder: a step's ``added`` entries only, in the order given (a mass battle has no deadlines)."""
    in_catalogue_order(monkeypatch)
    red, blue = armies(event)
    situation = start(event, referee, red, blue)
    mass_act(situation, magic.RollInitiative(source=magic.REFEREE, dice=(5, 4)), referee)
    situation.refresh_from_db()
    recent = list(situation.log.select_related("actor").order_by("-seq")[:20])
    assert len(recent) >= 2
    context = tablet_context(situation, recent=recent, added=recent[:2])
    assert [line.seq for line in context["log_lines"]] == [recent[0].seq, recent[1].seq]
    full = tablet_context(situation, recent=recent)
    assert [line.seq for line in full["log_lines"]] == [e.seq for e in recent]
    assert full["log_lines"][:2] == context["log_lines"]


# --- the prepend element itself ----------------------------------------------------------------


def _line(seq: int) -> LogLine:
    return LogLine(seq, dt.datetime(2026, 12, 5, 12, 0, seq % 60, tzinfo=dt.UTC), "ref", "command", False, [f"l{seq}"])


def test_the_prepend_element_and_the_full_list_make_the_same_page():
    """Equality: a list rendered with lines 1-3, then 4-5 prepended, reads as one rendered with 1-5."""
    page = Dom(f'<section id="fight-log">{log_list({"log_lines": [_line(3), _line(2), _line(1)]})}</section>')
    answer = as_oob(new_log_lines(4)({"log_lines": [_line(5), _line(4)]}), log_part("fight-log", 4).oob)
    assert answer.startswith('<ol hx-swap-oob="afterbegin:#fight-log .log-lines" data-log-keep="4">')
    assert page.apply_oob(answer) == ["+fight-log"]
    fresh = Dom(f'<section id="fight-log">{log_list({"log_lines": [_line(s) for s in (5, 4, 3, 2)]})}</section>')
    assert page.normalized() == fresh.normalized()


def test_the_first_line_replaces_nothing_yet():
    page = Dom(f'<section id="mass-log">{log_list({"log_lines": []})}</section>')
    assert "Nothing yet." in page.html()
    page.apply_oob(as_oob(new_log_lines(20)({"log_lines": [_line(0)]}), log_part("mass-log", 20).oob))
    fresh = Dom(f'<section id="mass-log">{log_list({"log_lines": [_line(0)]})}</section>')
    assert page.normalized() == fresh.normalized()


def test_a_step_answered_whole_still_renders_every_line(as_user, referee, fight):
    """A refusal (422) and a repeat get the whole fragment, with the whole log as before."""
    client = as_user(referee)
    fight.refresh_from_db()
    response = client.post(
        reverse("duels:act", args=[fight.pk]),
        {"action": "attack", "duel": 0, "fighter": 0, "card": "x", "version": fight.version, "nonce": nonce()},
        headers=HX,
    )
    html = response.content.decode()
    assert "hx-swap-oob" not in html
    assert Dom(html).by_id("fight-log") and _page_lines(Dom(html), "fight-log") == _newest(fight, 20)


def test_performed_names_the_entries_a_step_added(referee, shown, rival):
    shown.refresh_from_db()
    performed = services.perform(
        shown.pk,
        engine.Answer(duel=0, fighter=rival.pk, card=None),
        user=referee,
        seen_version=shown.version,
        nonce=nonce(),
    )
    assert performed.added is not None and performed.recent is not None
    assert list(performed.recent[: len(performed.added)]) == performed.added
    assert [e.seq for e in performed.added] == [e.seq for e in shown.log.order_by("-seq")[: len(performed.added)]]


def test_a_prepend_part_among_template_parts_is_built_from_the_shared_context(rf, referee):
    """oob_response's template path: a part written in Python among them gets the same context."""
    request = rf.post("/", headers=HX)
    request.user = referee
    context = {"log_lines": [_line(7)], "version": 3, "live_id": "fight"}
    parts = [Part(template=MARK_TEMPLATE), log_part("fight-log", 20)]
    html = oob_response(request, parts, context, '"e"', 2).content.decode()
    _swap, seqs = _log_element(html)
    assert seqs == ["7"]
    assert html.count('hx-swap-oob="true"') == 2  # the template part and the live mark

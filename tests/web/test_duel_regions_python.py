"""The duel tablet's regions written in Python equal the templates they replace (issue 24), in ru and en.

States: the start, a card shown (the answer window), the result proposed, a
step overridden, a step confirmed, a duel ended, with an alert and with
conversions' notes. Each region: the notes, the status, the log, each duel's
whole card and its parts a step sends alone; and each duel's card on the
spectators' page and on each fighter's own phone (``duel_public_card``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from cards.models import PreparedArsenal
from duels import services
from duels.duel import live
from duels.templatetags import duel_regions as R
from duels.web.alerts import Alert
from rules import duel as engine
from tests.web.duels_kit import drive, instant_fight, parry_then_spark, state_of, uid_of
from tests.web.regions_kit import context_of, same
from tests.web.tablet_kit import Tablet

pytestmark = pytest.mark.django_db


def check_public(situation: Any) -> None:
    """The spectators' card of every duel, and each fighter's own phone's card of theirs (issue 24)."""
    state = services.state_of(situation)
    base = {"situation": situation, "etag": '"e"', "server_now": "now", "new_nonce": "nonce", "csrf_token": "csrf"}
    watching = {**base, **live.watch_context(state)}
    for duel in watching["view"].duels:
        same(R.duel_public_card, "duel_public_card.html", {**watching, "duel": duel, "controls": False})
    for fighter_id in {f.id for duel in watching["view"].duels for f in duel.fighters}:
        mine = {**base, **live.player_context(fighter_id, state)}
        if mine["duel"] is not None:
            same(R.duel_public_card, "duel_public_card.html", {**mine, "controls": False})


def check(situation: Any, **extra: Any) -> None:
    check_public(situation)
    context = {**context_of(situation), **extra}
    same(R.fight_notes, "duel_tablet.html#fight-notes", context)
    same(R.fight_status, "duel_tablet.html#fight-status", context)
    same(R.fight_log, "duel_tablet.html#fight-log", context)
    for duel in context["view"].duels:
        here = {**context, "duel": duel, "controls": True}
        same(R.duel_card, "duel_card.html", here)
        for part in ("mark", "head", "action"):
            same(getattr(R, f"duel_{part}"), f"duel_card.html#duel-{part}", here)
        for fighter in duel.fighters:
            same(R.duel_fighter, "duel_card.html#duel-fighter", {**here, "fighter": fighter})


def test_the_duels_regions_equal_their_templates_through_a_fight(as_user, referee, fight):
    tablet = Tablet(as_user(referee), fight, "duels:situation")
    check(fight)
    check(fight, alert=Alert("danger", "A <b>refusal</b> & more", "D7"))
    for step in range(2):
        context = context_of(fight)
        duel = context["view"].duels[-1]
        number = duel.number
        attacker = duel.attacker
        tablet.tap("attack", {"duel": number}, card=attacker.attack_cards[0].uid)
        check(fight)
        tablet.tap("answer", {"duel": number}, card="")
        check(fight)
        if step == 0:
            tablet.tap("override", {"duel": number}, outcome="parried", reason="a <good> block")
        else:
            tablet.tap("confirm", {"duel": number})
        check(fight)
    duel = context_of(fight)["view"].duels[-1]
    if duel.is_open:
        tablet.tap("end_duel", {"duel": duel.number}, reason="they shook hands")
        check(fight)


def test_a_bouts_end_and_the_fighters_choices_equal_their_templates(
    as_user, referee, shown, character, rival, attack_card, defence_card, spark
):
    """D3, D12: the round-break choice (the hand, a prepared arsenal, the pool), before and after a choice."""
    parry_then_spark(shown, referee, character, rival, defence_card, spark)
    drive(
        shown,
        referee,
        engine.Attack(0, character.pk, uid_of(shown, character.pk, attack_card)),
        engine.Answer(0, rival.pk, None),
        engine.ConfirmResult(0, "parried", "ducked behind a <tree>"),
    )
    assert state_of(shown).duels[0].phase == engine.BETWEEN_ROUNDS
    PreparedArsenal.objects.create(character=character, name="Fire & <set>")
    check(shown)
    html = R.duel_card({**context_of(shown), "duel": context_of(shown)["view"].duels[0]})
    assert "prepared-" in html and 'name="card_' in html  # the pool's cards, the prepared arsenal
    tablet = Tablet(as_user(referee), shown, "duels:situation")
    tablet.tap("round_choice", {"duel": 0, "fighter": character.pk}, go_on="yes", arsenal="keep")
    check(shown)


@pytest.mark.parametrize("parry", [True, False])
def test_an_instant_attacks_answer_equals_its_template(armed, referee, attack_card, parry):
    """IA3, F1: the answer drawn (or declined) and how, as the proposed result shows it."""
    anton, zavulon = armed
    situation = instant_fight(anton, zavulon, attack_card, referee, **({} if parry else {"parry": False}))
    check(situation)
    context = context_of(situation)
    assert "data-answer-by" in R.duel_card({**context, "duel": context["view"].duels[-1]})


def test_the_public_card_of_a_long_duel_links_to_the_record(as_user, referee, fight):
    """A long duel's card shows its newest steps and played cards with links to the rest; an ended one its reason."""
    tablet = Tablet(as_user(referee), fight, "duels:situation")
    duel = context_of(fight)["view"].duels[-1]
    tablet.tap("attack", {"duel": duel.number}, card=duel.attacker.attack_cards[0].uid)
    tablet.tap("answer", {"duel": duel.number}, card="")
    tablet.tap("override", {"duel": duel.number}, outcome="parried", reason="a <good> block")
    tablet.tap("end_duel", {"duel": duel.number}, reason="they <shook> hands")
    state = services.state_of(fight)
    base = {"situation": fight, "etag": '"e"', "server_now": "now", "new_nonce": "nonce", "csrf_token": "csrf"}
    for viewer in (None, *(f.id for f in duel.fighters)):
        context = {**base, **(live.watch_context(state) if viewer is None else live.player_context(viewer, state))}
        shown = context.get("duel") or context["view"].duels[-1]
        assert shown.records and not shown.is_open and shown.end_reason
        longer = replace(
            shown,
            records_total=shown.records_total + 7,
            a=replace(shown.a, discards_total=len(shown.a.discards) + 3),
            b=replace(shown.b, discards_total=len(shown.b.discards) + 3),
        )
        same(R.duel_public_card, "duel_public_card.html", {**context, "duel": longer, "controls": False})
        html = R.duel_public_card({**context, "duel": longer})
        assert html.count('class="small record-link') == 1 + sum(1 for f in longer.fighters if f.discards)
        assert "they &lt;shook&gt; hands" in html

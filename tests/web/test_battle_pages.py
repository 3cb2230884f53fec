"""The battle's pages: the referee's tablet, the start page, the player's fragment and the spectator
page, with their rules (R0 buttons, D4 secrecy, battles_on) and flat query counts."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from duels.duel.start import declare_aggression
from duels.models import Situation
from rules import battle as B
from tests.services.battle_kit import battle_state, begin, buid, party, passes, top
from tests.services.kit import nonce
from tests.web.battle_page_kit import HX, attack, drive, post, to_round, to_round_break, to_turn_of, undo

pytestmark = pytest.mark.django_db


def test_the_referee_runs_a_turn_from_the_tablet(as_user, referee, battle, people):
    anna, _, vera, _ = people
    client = as_user(referee)
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert 'id="turn-strip"' in page and 'id="act-attack"' in page
    response = attack(client, battle, anna, "Blade", vera)
    assert response.status_code == 200 and "countdown-answer" in response.content.decode()
    frame = top(battle)
    response = post(client, battle, action="answer", frame=frame.number, who=vera.pk, card=buid(battle, vera, "Shield"))
    assert 'class="btn btn-success btn-lg confirm-result"' in response.content.decode()
    post(client, battle, action="confirm", frame=frame.number, who=vera.pk)
    response = post(client, battle, action="next_turn")
    assert response.status_code == 200
    assert battle_state(battle).turn_of == vera.pk


def test_R0_no_reaction_buttons_before_the_reaction_round(as_user, referee, battle, people):
    anna, _, vera, gleb = people
    client = as_user(referee)
    attack(client, battle, anna, "Bolt", vera, engaged=[vera.pk, gleb.pk])
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert "reaction-form" not in page and "reaction-card" not in page
    assert 'id="reactions-off"' in page


def test_R0_R2_from_round_two_the_bar_lists_who_may_react_and_why_not(as_user, referee, battle, people):
    anna, _boris, vera, _gleb = people
    client = as_user(referee)
    to_round(battle, referee, 2)
    attack(client, battle, anna, "Bolt", vera, engaged=[vera.pk])
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    bar = page[page.index('id="reaction-bar"') :]
    vera_block = bar[bar.index(f'data-reactor="{vera.pk}"') :]
    assert 'class="action-form reaction-form" data-action="opportunity"' in vera_block.split("data-reactor=")[1]
    anna_block = bar[bar.index(f'data-reactor="{anna.pk}"') :].split("data-reactor=")[1]
    assert "reaction-refused" in anna_block and "own turn" in anna_block
    # The rule the refusal cites, the one way for staff: a link to the battle's help, not " (R5)".
    assert '<a class="rule-ref" href="/help/referee/#battle"' in anna_block and "(R" not in anna_block
    response = post(
        client, battle, action="opportunity", frame=top(battle).number, who=vera.pk, card=buid(battle, vera, "Snap")
    )
    assert response.status_code == 200 and top(battle).role == B.OPPORTUNITY
    # R2: a second one by Vera in this turn is refused, with the rule's own words, and changes nothing.
    before = Situation.objects.get(pk=battle.pk).version
    response = post(client, battle, action="opportunity", frame=0, who=vera.pk, card=buid(battle, vera, "Blade"))
    assert response.status_code == 422
    assert Situation.objects.get(pk=battle.pk).version == before


def test_undo_with_a_reason_from_the_tablet(as_user, referee, battle, people):
    anna = people[0]
    client = as_user(referee)
    post(client, battle, action="act", who=anna.pk, act="pass")
    response = undo(client, battle, reason="misheard")
    assert response.status_code == 200 and battle_state(battle).stack == []


def test_D4_the_spectator_never_sees_an_unplayed_card(client, referee, battle, people):
    anna, _, vera, _ = people
    drive(battle, referee, B.Act(actor=anna.pk, act=B.ATTACK, cards=(buid(battle, anna, "Blade"),), targets=(vera.pk,)))
    html = client.get(reverse("duels:watch", args=[battle.pk])).content.decode()
    assert "Blade" in html  # the shown attack is public
    for secret in ("Bolt", "Nova", "Shield", "Counterspell", "Riposte", "Snap"):
        assert secret not in html


def test_D4_a_player_sees_only_their_own_hand_and_the_countdown_when_attacked(as_user, player, event, referee):
    people = party(event)
    mine = people[2]
    mine.player = player
    mine.save()
    situation = begin(event, people, referee)
    anna = people[0]
    drive(
        situation,
        referee,
        B.Act(actor=anna.pk, act=B.ATTACK, cards=(buid(situation, anna, "Bolt"),), targets=(mine.pk,)),
    )
    html = as_user(player).get(reverse("duels:player-live", args=[mine.pk])).content.decode()
    assert 'id="attacked"' in html and "countdown-answer" in html
    assert "Counterspell" in html  # my own hand
    # No referee buttons, and no focus buttons: F1 is not a battle rule.
    assert "reaction-card" not in html and reverse("duels:player-focus", args=[mine.pk]) not in html


def test_the_event_setting_decides_whether_a_battle_is_offered(as_user, referee, event, people):
    client = as_user(referee)
    assert 'id="start-battle"' in client.get(reverse("duels:referee-home", args=[event.pk])).content.decode()
    event.battles_on = False
    event.save()
    assert 'id="start-battle"' not in client.get(reverse("duels:referee-home", args=[event.pk])).content.decode()
    response = client.post(reverse("duels:battle-start", args=[event.pk]), {"nonce": nonce()})
    assert response.status_code == 403 and not Situation.objects.exists()


def test_start_a_battle_from_the_start_page(as_user, referee, event, people):
    client = as_user(referee)
    page = client.get(reverse("duels:battle-start", args=[event.pk])).content.decode()
    assert "battle-start-form" in page
    data = {
        "nonce": nonce(),
        "combatants": [p.pk for p in people[:3]],
        "declarer": people[2].pk,
        **{f"side_{p.pk}": p.side for p in people},
    }
    response = client.post(reverse("duels:battle-start", args=[event.pk]), data)
    situation = Situation.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("duels:battle", args=[situation.pk])
    assert battle_state(situation).turn_of == people[2].pk
    too_few = client.post(
        reverse("duels:battle-start", args=[event.pk]),
        {"nonce": nonce(), "combatants": [people[3].pk], "declarer": people[3].pk},
    )
    assert too_few.status_code == 400 and Situation.objects.count() == 1


def test_a_combatant_is_added_from_the_tablet(as_user, referee, event, people):
    situation = begin(event, people[:3], referee)
    client = as_user(referee)
    page = client.get(reverse("duels:battle", args=[situation.pk])).content.decode()
    assert 'id="join-form"' in page
    situation.refresh_from_db()
    response = client.post(
        reverse("duels:battle-join", args=[situation.pk]),
        {"version": situation.version, "nonce": nonce(), "character": people[3].pk, "side": ""},
        headers=HX,
    )
    assert response.status_code == 200 and people[3].pk in battle_state(situation).combatants


def _queries(client, url, headers=None) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, headers=headers or {})
    assert response.status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("poll", [False, True])
def test_query_counts_stay_flat_for_3_vs_12_combatants(as_user, referee, event, poll):
    client = as_user(referee)
    counts: list[tuple[int, int]] = []
    for size in (3, 12):
        people = party(event, size, first=len(counts) * 20)
        situation = begin(event, people, referee)
        drive(
            situation,
            referee,
            B.Act(
                actor=people[0].pk,
                act=B.ATTACK,
                cards=(buid(situation, people[0], "Nova"),),
                targets=tuple(p.pk for p in people[1:]),
            ),
        )
        headers = HX if poll else None
        counts.append(
            (
                _queries(client, reverse("duels:battle", args=[situation.pk]), headers),
                _queries(client, reverse("duels:watch", args=[situation.pk]), headers),
            )
        )
        drive(situation, referee, B.EndBattle(reason="next size"))
    assert counts[0] == counts[1]


def test_query_counts_stay_flat_for_10_vs_300_log_entries(as_user, referee, event, people):
    client = as_user(referee)
    # S2: passes do not restart the clock, so the clock stands still while 300 entries are made.
    frozen = time_machine.travel(dt.datetime.now(dt.UTC), tick=False)
    frozen.start()
    situation = begin(event, people, referee)
    counts: list[tuple[int, int]] = []
    for entries in (10, 300):
        # Compared in the same phase (a round break reads the prepared arsenals, D3).
        while situation.log.count() < entries or battle_state(situation).phase != B.TURNS:
            st = battle_state(situation)
            if st.phase == B.BETWEEN_ROUNDS:
                drive(situation, referee, B.StartRound())
            else:
                drive(situation, referee, passes(st), B.NextTurn())
        counts.append(
            (
                _queries(client, reverse("duels:battle", args=[situation.pk])),
                _queries(client, reverse("duels:battle", args=[situation.pk]), HX),
            )
        )
    frozen.stop()
    assert counts[0] == counts[1]


@pytest.mark.parametrize(
    "garbage",
    [
        {"action": "act", "who": "abc", "act": "attack"},
        {"action": "act", "who": "1", "act": "fly"},
        {"action": "act", "who": "1", "act": "attack", "targets": ["x"]},
        {"action": "act", "who": "1", "act": "attack", "targets": ["99999999999999999999999"]},
        {"action": "answer", "frame": "-1", "who": "1"},
        {"action": "confirm", "frame": "0", "who": "1", "outcome": "exploded"},
        {"action": "opportunity", "frame": "0", "who": "1"},
        {"action": "dance"},
        {"action": "start_round", "order": ["1", "1", "1"]},
    ],
)
def test_bad_input_is_refused_in_words_and_changes_nothing(as_user, referee, battle, garbage):
    client = as_user(referee)
    battle.refresh_from_db()
    before = (battle.version, battle.state)
    response = post(client, battle, **garbage)
    assert response.status_code in (400, 422)
    assert 'role="alert"' in response.content.decode()
    battle.refresh_from_db()
    assert (battle.version, battle.state) == before


def test_a_duel_id_on_a_battle_url_goes_to_the_duel_page(as_user, referee, event, people):
    duel = declare_aggression(event, people[0], people[2], user=referee, nonce=nonce()).situation
    response = as_user(referee).get(reverse("duels:battle", args=[duel.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("duels:situation", args=[duel.pk])


@pytest.mark.parametrize("language", ["ru", "en"])
def test_help_explains_battles_and_their_readings(client, language):
    client.cookies["django_language"] = language
    referee_help = client.get(reverse("help-role", args=["referee"])).content.decode()
    assert 'id="battle"' in referee_help
    for rule in ("R0", "R1", "R3", "R4", "R6", "R7", "R8", "D5", "CR2"):
        assert rule in referee_help, rule
    player_help = client.get(reverse("help-role", args=["player"])).content.decode()
    battle_part = player_help.split('id="battle"')[1]
    assert "R0" in battle_part and "R1–R3" in battle_part and "R4–R8" in battle_part


def test_D3_between_rounds_a_combatant_takes_a_prepared_arsenal(as_user, referee, event, people):
    from cards.models import Card, PreparedArsenal, PreparedArsenalCard

    event.every_round_a_bout = True  # a round of passes reaches the bout break
    event.save()
    battle = begin(event, people, referee)
    vera = people[2]
    prepared = PreparedArsenal.objects.create(character=vera, name="Volley")
    PreparedArsenalCard.objects.create(arsenal=prepared, card=Card.objects.get(name_en="Bolt"), copies=1)
    PreparedArsenalCard.objects.create(arsenal=prepared, card=Card.objects.get(name_en="Counterspell"), copies=1)
    client = as_user(referee)
    url = reverse("duels:battle-arsenal", args=[battle.pk])
    battle.refresh_from_db()
    early = client.post(url, {"version": battle.version, "nonce": nonce(), "prepared": prepared.pk}, headers=HX)
    assert early.status_code == 422 and ">AG2</a>" in early.content.decode()  # not in round 1, rule shown
    to_round(battle, referee, 1)
    to_round_break(battle, referee)
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert f'name="prepared" value="{prepared.pk}"' in page
    battle.refresh_from_db()
    response = client.post(url, {"version": battle.version, "nonce": nonce(), "prepared": prepared.pk}, headers=HX)
    assert response.status_code == 200
    st = battle_state(battle)
    hand = sorted((st.cards[u].face.name, st.cards[u].action) for u in st.combatants[vera.pk].hand)
    assert hand == [("Bolt", "standard"), ("Counterspell", "interrupt")]


def test_a_running_duel_grows_into_a_battle_from_its_page(as_user, referee, event, people):
    anna, boris, vera, _ = people
    duel = declare_aggression(event, anna, vera, user=referee, nonce=nonce()).situation
    client = as_user(referee)
    fight_page = client.get(reverse("duels:situation", args=[duel.pk])).content.decode()
    assert reverse("duels:battle-grow", args=[duel.pk]) in fight_page
    form = client.get(reverse("duels:battle-grow", args=[duel.pk])).content.decode()
    assert 'id="grow-form"' in form
    duel.refresh_from_db()
    response = client.post(
        reverse("duels:battle-grow", args=[duel.pk]),
        {"version": duel.version, "nonce": nonce(), "character": boris.pk, "declarer": str(vera.pk), "side": ""},
    )
    battle = Situation.objects.get(kind=Situation.Kind.BATTLE)
    assert response.status_code == 302 and response["Location"] == reverse("duels:battle", args=[battle.pk])
    assert battle_state(battle).turn_of == vera.pk
    duel.refresh_from_db()
    assert duel.ended


def test_D8_a_target_answering_after_its_window_closed_on_another_page_gets_the_D8_wording(
    as_user, referee, battle, people, time_machine
):
    """The battle's tablet tells a tap the clock overtook as the duel's does (issue 19: one submit path)."""
    anna, _, vera, _ = people
    client = as_user(referee)
    attack(client, battle, anna, "Blade", vera)
    frame = top(battle)
    battle.refresh_from_db()
    assert frame.current is not None and frame.current.windows[0].deadline is not None
    seen, deadline = battle.version, frame.current.windows[0].deadline
    time_machine.move_to(deadline + dt.timedelta(seconds=1), tick=False)
    client.get(reverse("duels:watch", args=[battle.pk]))  # any read applies the deadline (D8)
    late = {"version": seen, "nonce": nonce(), "action": "answer", "frame": frame.number, "who": vera.pk}
    response = client.post(
        reverse("duels:battle-act", args=[battle.pk]), {**late, "card": buid(battle, vera, "Shield")}, headers=HX
    )
    html = response.content.decode()
    assert response.status_code == 409, html
    assert "The 15 seconds to answer ran out; the attack took full effect." in html
    assert "Another referee acted first" not in html and ">D8</a>" in html
    # The same tap arriving on a fresh page after the clock: refused in the rule's words too (422).
    response = post(client, battle, action="answer", frame=frame.number, who=vera.pk, card=buid(battle, vera, "Shield"))
    html = response.content.decode()
    assert response.status_code == 422, html
    assert "seconds to answer ran out" in html and "Another referee acted first" not in html


def test_D12_at_a_bout_s_end_the_tablet_lets_a_combatant_leave(as_user, referee, event, people):
    """[D12] Issue 25 item 7: the bout break offers "<name> leaves"; tapped, the combatant is out of the
    next bout's order; mid-bout the same post is refused with the rule and changes nothing."""
    event.every_round_a_bout = True
    event.save()
    battle = begin(event, people, referee)
    boris = people[1]
    client = as_user(referee)
    early = post(client, battle, action="leave", who=boris.pk)
    assert early.status_code == 422 and ">D12</a>" in early.content.decode()
    to_round_break(battle, referee)
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert f'id="leave-{boris.pk}"' in page
    assert post(client, battle, action="leave", who=boris.pk).status_code == 200
    st = battle_state(battle)
    assert st.combatants[boris.pk].left
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert f'id="leave-{boris.pk}"' not in page
    drive(battle, referee, B.StartRound())
    assert boris.pk not in battle_state(battle).order


def test_BP4_the_tablet_joins_a_newcomer_by_attacking_and_offers_the_strike(as_user, referee, event, people):
    battle = begin(event, people[:3], referee)
    gleb = people[3]
    client = as_user(referee)
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert 'id="join-striking"' in page
    battle.refresh_from_db()
    joined = client.post(
        reverse("duels:battle-join", args=[battle.pk]),
        {"version": battle.version, "nonce": nonce(), "character": gleb.pk, "strike": "1"},
        headers=HX,
    )
    assert joined.status_code == 200
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert 'id="newcomer-strikes"' in page and f'name="who" value="{gleb.pk}"' in page
    response = attack(client, battle, gleb, "Blade", people[0])
    assert response.status_code == 200
    assert top(battle).actor == gleb.pk


def test_R1_the_tablet_offers_an_opportunity_on_an_out_of_turn_ranged_attack_with_next_to_them(
    as_user, referee, event, people
):
    """[R1] Issue 25 item 6: during Anna's turn Gleb shoots a Dart as an immediate interrupt; the tablet
    asks whether Boris is next to him now, and the opportunity posted with it is accepted."""
    from cards.models import Card

    dart = Card.objects.create(
        catalogue=event.catalogue,
        name_ru="Дротик",
        name_en="Dart",
        kind="attack",
        full_effect="lightly_wounded",
        tags="ranged",
        action_kind="interrupt",
        trigger_text="an enemy attacks",
    )
    from tests.services.kit import arm

    gleb = people[3]
    arm(gleb, dart)
    battle = begin(event, people, referee)
    anna, boris, vera = people[0], people[1], people[2]
    to_round(battle, referee, 2)
    to_turn_of(battle, referee, anna)
    client = as_user(referee)
    attack(client, battle, anna, "Blade", vera)
    frame = top(battle).number
    post(client, battle, action="interrupt", frame=frame, who=gleb.pk, card=buid(battle, gleb, "Dart"), target=anna.pk)
    dart_frame = top(battle)
    assert dart_frame.actor == gleb.pk
    page = client.get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert 'name="adjacent"' in page
    response = post(
        client,
        battle,
        action="opportunity",
        frame=dart_frame.number,
        who=boris.pk,
        card=buid(battle, boris, "Snap"),
        adjacent="1",
    )
    assert response.status_code == 200
    assert top(battle).role == B.OPPORTUNITY and top(battle).actor == boris.pk


def test_R4_the_tablet_offers_an_immediate_card_only_when_its_trigger_fits(as_user, referee, event, people):
    """[R4] Issue 25 item 10: Guard ("you are attacked") is offered to Gleb whom Anna attacks, not to Vera."""
    from cards.models import Card
    from tests.services.kit import arm

    guard = Card.objects.create(
        catalogue=event.catalogue,
        name_ru="Заслон",
        name_en="Guard",
        kind="defence",
        action_kind="interrupt",
        trigger_text="you are attacked",
        trigger_kind="attacked",
    )
    anna, _boris, vera, gleb = people
    arm(vera, guard)
    arm(gleb, guard)
    battle = begin(event, people, referee)
    to_round(battle, referee, 2)
    to_turn_of(battle, referee, anna)
    drive(battle, referee, B.Act(actor=anna.pk, act=B.ATTACK, cards=(buid(battle, anna, "Blade"),), targets=(gleb.pk,)))
    st = battle_state(battle)
    page = as_user(referee).get(reverse("duels:battle", args=[battle.pk])).content.decode()
    assert f'value="{buid(battle, gleb, "Guard")}"' in page
    assert f'value="{buid(battle, vera, "Guard")}"' not in page
    assert st.turn_of == anna.pk


@pytest.mark.parametrize("language", ["en", "ru"])
def test_R0_R5_the_bars_refusals_are_the_engines_own_words_for_each_reactor(as_user, referee, battle, people, language):
    """Issue 24: the presenter words each refusal once per presenting; every option still says what
    the engine's own check for that combatant and kind refuses, and the bar shows each of them."""
    from django.utils.translation import override

    from cards.rule_links import rule_link
    from cards.words import explain, rule_of
    from duels.battle.presenters import ROLE_LABELS, present_battle
    from duels.web.viewers import REFEREE_VIEW
    from rules import RuleError

    anna, _boris, vera, _gleb = people
    client = as_user(referee)
    to_round(battle, referee, 2)
    attack(client, battle, anna, "Bolt", vera, engaged=[vera.pk])
    state = battle_state(battle)
    frame = B.top(state)
    assert frame is not None
    with override(language):
        view = present_battle(state, REFEREE_VIEW)
        refused = 0
        for reactor in view.reactors:
            for option in reactor.options:
                if option.allowed or not option.rule:
                    continue
                try:
                    if option.kind == B.OPPORTUNITY:
                        B.check_opportunity(state, reactor.combatant.id, frame, adjacent=option.ask_adjacent)
                    else:
                        B.check_immediate(state, reactor.combatant.id, frame, option.kind)
                except RuleError as err:
                    assert (option.why_not, option.rule) == (explain(err), rule_of(err))
                    refused += 1
        assert refused >= 3, "the own turn and more are refused"
        page = client.get(reverse("duels:battle", args=[battle.pk]), headers={"Accept-Language": language})
        bar = page.content.decode()
        bar = bar[bar.index('id="reactions-why-not"') :]
        for reactor in view.reactors:
            shown = [reactor.one_reason] if reactor.one_reason else [o for o in reactor.options if not o.allowed]
            for option in shown:
                assert escape(option.why_not) in bar and str(rule_link(option.rule)) in bar
                if not reactor.one_reason:
                    assert escape(str(ROLE_LABELS[option.kind])) in bar


def test_the_strips_kept_items_are_fresh_builds_through_a_fight(as_user, referee, battle, people):
    """Issue 24: a combatant's strip item is kept by what it shows; through turns, answers, a round's
    reactions and a readied action, in en and ru, the kept item is the one built afresh."""
    from django.utils.translation import override

    from duels.battle.presenters import present_battle
    from duels.templatetags import battle_regions as R
    from duels.web.viewers import REFEREE_VIEW

    anna, _boris, vera, gleb = people
    client = as_user(referee)

    def check() -> None:
        view = present_battle(battle_state(battle), REFEREE_VIEW)
        for language in ("en", "ru"):
            with override(language):
                for c in view.combatants:
                    for on_tablet in (True, False):  # the referee's strip and the public one are kept apart
                        assert R._combatant(view, c, on_tablet) == R._strip_item(view, c, on_tablet)

    check()
    attack(client, battle, anna, "Blade", vera)
    check()
    frame = top(battle)
    post(client, battle, action="answer", frame=frame.number, who=vera.pk, card=buid(battle, vera, "Shield"))
    check()
    assert post(client, battle, action="confirm", frame=frame.number, who=vera.pk).status_code == 200
    check()
    assert post(client, battle, action="next_turn").status_code == 200
    check()
    to_round(battle, referee, 2)
    check()
    assert attack(client, battle, anna, "Bolt", vera, engaged=[vera.pk, gleb.pk]).status_code == 200
    check()
    snap = buid(battle, vera, "Snap")
    reacted = post(client, battle, action="opportunity", frame=top(battle).number, who=vera.pk, card=snap)
    assert reacted.status_code == 200
    check()

"""Battles through the services: the shared core (lock, version, nonce, log, undo, timers, write-back)
running the battle's rules (R0-R8). Every refusal changes nothing."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.utils import timezone

from cards.models import ArsenalCard
from duels import services
from duels.battle.start import add_combatant, start_battle
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from duels.services.export import export_situation
from duels.services.kinds import KINDS
from events.models import Character
from rules import RuleError, snapshots
from rules import battle as B
from rules import duel as engine
from tests.services.battle_kit import battle_state, begin, buid, party, passes, top
from tests.services.kit import act, nonce


@pytest.fixture
def anna(people):
    return people[0]


def names(situation):
    return {c.pk: c.name for c in Character.objects.filter(situations=situation)}


def go(situation, user, command):
    return act(situation, command, user)


def refused(situation, user, rule_id, command):
    situation.refresh_from_db()
    before = (situation.version, situation.state, LogEntry.objects.filter(situation=situation).count())
    with pytest.raises(RuleError) as caught:
        act(situation, command, user)
    assert caught.value.rule_id == rule_id, caught.value
    situation.refresh_from_db()
    assert (situation.version, situation.state, LogEntry.objects.filter(situation=situation).count()) == before


def attack(situation, user, actor, card, *targets, engaged=(), second=None):
    cards: tuple[str, ...] = (buid(situation, actor, card),)
    if second:
        cards += (buid(situation, actor, second, 1 if second == card else 0),)
    go(
        situation,
        user,
        B.Act(
            actor=actor.pk,
            act=B.ATTACK,
            cards=cards,
            targets=tuple(t.pk for t in targets),
            engaged=tuple(e.pk for e in engaged),
        ),
    )
    return top(situation)


def answer(situation, user, defender, card=None):
    frame = top(situation)
    go(
        situation,
        user,
        B.AnswerAttack(
            frame=frame.number, defender=defender.pk, card=None if card is None else buid(situation, defender, card)
        ),
    )
    go(situation, user, B.ConfirmAnswer(frame=frame.number, defender=defender.pk))


def to_round(situation, user, n):
    while battle_state(situation).round < n:
        st = battle_state(situation)
        if st.phase == B.BETWEEN_ROUNDS:
            go(situation, user, B.StartRound())
        else:
            go(situation, user, passes(st))
            go(situation, user, B.NextTurn())


def order(situation):
    return [r.role for r in battle_state(situation).records]


def test_start_joins_everyone_and_the_declarer_acts_first(battle, people):
    situation = battle
    st = battle_state(situation)
    assert situation.kind == Situation.Kind.BATTLE
    assert st.order == [people[0].pk, people[2].pk, people[1].pk, people[3].pk] and st.turn_of == people[0].pk
    assert set(situation.participants.values_list("pk", flat=True)) == {p.pk for p in people}
    assert st.cards[buid(situation, people[0], "Counterspell")].action == B.INTERRUPT


def test_the_event_setting_battles_on_decides_whether_a_battle_starts(event, people, referee):
    event.battles_on = False
    event.save()
    with pytest.raises(services.ServiceError):
        start_battle(event, people, declarer=people[0], user=referee, nonce=nonce())
    assert not Situation.objects.exists()


def test_a_battle_needs_three_on_two_sides(event, people, referee):
    with pytest.raises(services.ServiceError):
        start_battle(event, people[:2], declarer=people[0], user=referee, nonce=nonce())
    with pytest.raises(services.ServiceError):
        start_battle(
            event, people[:3], sides={p.pk: "light" for p in people}, declarer=people[0], user=referee, nonce=nonce()
        )


def test_someone_in_another_fight_cannot_be_drawn_into_a_battle(event, people, referee):
    begin(event, people[:3], referee)
    more = party(event, 2, first=4)
    with pytest.raises(services.ServiceError):
        start_battle(event, [people[0], *more], declarer=more[0], user=referee, nonce=nonce())
    assert Situation.objects.count() == 1


def test_R0_no_reaction_before_the_round_of_the_event_setting(battle, people, referee):
    situation = battle
    anna, boris, vera, gleb = people  # noqa: RUF059
    frame = attack(situation, referee, anna, "Bolt", vera, engaged=(vera, gleb))
    refused(
        situation, referee, "R0", B.Opportunity(reactor=gleb.pk, frame=frame.number, card=buid(situation, gleb, "Snap"))
    )


def test_R2_a_second_opportunity_action_in_one_turn_is_refused(battle, people, referee):
    situation = battle
    anna, boris, vera, gleb = people  # noqa: RUF059
    to_round(situation, referee, 2)
    frame = attack(situation, referee, anna, "Bolt", vera, engaged=(vera,), second="Nova")
    go(situation, referee, B.Opportunity(reactor=vera.pk, frame=frame.number, card=buid(situation, vera, "Snap")))
    answer(situation, referee, anna)
    go(situation, referee, B.Proceed(frame=top(situation).number))
    refused(
        situation,
        referee,
        "R2",
        B.Opportunity(reactor=vera.pk, frame=frame.number, card=buid(situation, vera, "Blade")),
    )


def test_R5_an_immediate_action_on_ones_own_turn_is_refused(battle, people, referee):
    situation = battle
    anna, boris, vera, gleb = people  # noqa: RUF059
    to_round(situation, referee, 2)
    frame = attack(situation, referee, anna, "Blade", vera)
    refused(
        situation,
        referee,
        "R5",
        B.Immediate(reactor=anna.pk, frame=frame.number, mode=B.INTERRUPT, card=buid(situation, anna, "Counterspell")),
    )


def test_R5_a_second_immediate_action_before_the_end_of_ones_next_turn_is_refused_then_allowed(battle, people, referee):
    situation = battle
    anna, boris, vera, gleb = people
    to_round(situation, referee, 2)
    frame = attack(situation, referee, anna, "Blade", vera)
    answer(situation, referee, vera)
    go(
        situation,
        referee,
        B.Immediate(reactor=gleb.pk, frame=frame.number, mode=B.RESPONSE, card=buid(situation, gleb, "Riposte")),
    )
    answer(situation, referee, anna)
    go(situation, referee, B.Proceed(frame=top(situation).number))
    go(situation, referee, B.NextTurn())  # Vera
    frame = attack(situation, referee, vera, "Blade", boris)
    refused(
        situation,
        referee,
        "R5",
        B.Immediate(reactor=gleb.pk, frame=frame.number, mode=B.INTERRUPT, card=buid(situation, gleb, "Counterspell")),
    )
    answer(situation, referee, boris)
    go(situation, referee, B.NextTurn())  # Boris
    go(situation, referee, B.Act(actor=boris.pk, act=B.PASS))
    go(situation, referee, B.NextTurn())  # Gleb's own turn ends
    go(situation, referee, B.Act(actor=gleb.pk, act=B.PASS))
    go(situation, referee, B.NextTurn())  # round 3 follows at once (the bout goes on): Anna
    frame = attack(situation, referee, anna, "Bolt", vera)
    go(
        situation,
        referee,
        B.Immediate(reactor=gleb.pk, frame=frame.number, mode=B.INTERRUPT, card=buid(situation, gleb, "Counterspell")),
    )
    assert top(situation).actor == gleb.pk


def test_R6_an_interrupt_that_negates_removes_the_attack_and_its_answer_window(battle, people, referee):
    situation = battle
    anna, boris, vera, gleb = people  # noqa: RUF059
    to_round(situation, referee, 2)
    frame = attack(situation, referee, anna, "Bolt", vera)
    situation.refresh_from_db()
    window = battle_state(situation).stack[0].parts[0].windows[0].deadline
    assert situation.next_deadline == window  # the bolt's answer window is the next deadline
    counter = buid(situation, vera, "Counterspell")
    go(
        situation,
        referee,
        B.Immediate(reactor=vera.pk, frame=frame.number, mode=B.INTERRUPT, card=counter, negates=True),
    )
    situation.refresh_from_db()
    state = battle_state(situation)
    main = state.stack[0]
    assert main.lost and main.current is None and all(not p.windows for p in main.parts)
    # No answer window is left: the next deadline is the situation's quiet gap (S2), not the bolt's window.
    assert B.running_windows(state) == [] and situation.next_deadline == B.gap_deadline(state)
    go(situation, referee, B.Proceed(frame=top(situation).number))
    assert battle_state(situation).stack[0].lost and battle_state(situation).records == []


def test_R8_a_response_to_a_double_attack_is_resolved_between_the_two_attacks(battle, people, referee):
    situation = battle
    anna, boris, vera, gleb = people  # noqa: RUF059
    to_round(situation, referee, 2)
    frame = attack(situation, referee, anna, "Blade", vera, second="Blade")
    answer(situation, referee, vera)
    go(
        situation,
        referee,
        B.Immediate(reactor=vera.pk, frame=frame.number, mode=B.RESPONSE, card=buid(situation, vera, "Riposte")),
    )
    answer(situation, referee, anna)
    go(situation, referee, B.Proceed(frame=top(situation).number))
    go(situation, referee, B.Proceed(frame=frame.number))
    answer(situation, referee, vera)
    assert order(situation) == [B.MAIN, B.RESPONSE, B.MAIN]


def test_R7_a_response_to_a_move_comes_after_at_least_one_step(battle, people, referee):
    situation = battle
    anna, boris, vera, gleb = people  # noqa: RUF059
    to_round(situation, referee, 2)
    go(situation, referee, B.Act(actor=anna.pk, act=B.MOVE, engaged=(vera.pk,)))
    move = top(situation).number
    riposte = B.Immediate(reactor=vera.pk, frame=move, mode=B.RESPONSE, card=buid(situation, vera, "Riposte"))
    refused(situation, referee, "R7", riposte)
    go(situation, referee, B.Proceed(frame=move))
    go(situation, referee, riposte)
    assert top(situation).role == B.RESPONSE and battle_state(situation).stack[0].parts_done == 1


def test_R1_R3_an_opportunity_attack_on_a_leaver_is_answered_within_its_window(battle, people, referee):
    situation = battle
    anna, boris, vera, gleb = people  # noqa: RUF059
    to_round(situation, referee, 2)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        go(situation, referee, B.Act(actor=anna.pk, act=B.MOVE, engaged=(vera.pk,)))
        go(
            situation,
            referee,
            B.Opportunity(reactor=vera.pk, frame=top(situation).number, card=buid(situation, vera, "Snap")),
        )
    with time_machine.travel(start + dt.timedelta(seconds=16), tick=False):
        # Anna did not answer in the window (D8): the opportunity attack took full effect.
        situation.refresh_from_db()
        services.refresh(situation)
        st = battle_state(situation)
        assert st.records[-1].role == B.OPPORTUNITY and st.records[-1].timed_out
        assert st.combatants[anna.pk].condition == "lightly_wounded"
        assert Character.objects.get(pk=anna.pk).condition == "lightly_wounded"  # written back at once


def test_replay_equals_state_and_undo_takes_the_last_command_back(battle, people, referee):
    situation = battle
    anna, boris, vera, gleb = people  # noqa: RUF059
    attack(situation, referee, anna, "Blade", vera)
    situation.refresh_from_db()
    services.undo_last(situation.pk, user=referee, reason="wrong card", seen_version=situation.version, nonce=nonce())
    st = battle_state(situation)
    assert st.stack == [] and buid(situation, anna, "Blade")
    assert B.to_dict(services.replayed(situation)) == situation.state
    assert LogEntry.objects.filter(situation=situation, kind=LogEntry.Kind.UNDO, reason="wrong card").exists()


def test_a_repeated_nonce_changes_nothing_and_a_stale_version_is_refused(battle, people, referee):
    situation = battle
    anna, *_ = people
    token = nonce()
    situation.refresh_from_db()
    seen = situation.version
    services.perform(situation.pk, B.Act(actor=anna.pk, act=B.PASS), user=referee, seen_version=seen, nonce=token)
    again = services.perform(
        situation.pk, B.Act(actor=anna.pk, act=B.PASS), user=referee, seen_version=seen, nonce=token
    )
    assert again.repeated
    with pytest.raises(services.StaleVersion):
        services.perform(situation.pk, B.NextTurn(), user=referee, seen_version=seen, nonce=nonce())


def test_the_end_writes_conditions_and_hands_back(battle, people, referee):
    situation = battle
    anna, boris, vera, gleb = people  # noqa: RUF059
    attack(situation, referee, anna, "Blade", vera)
    answer(situation, referee, vera)
    go(situation, referee, B.EndBattle(reason="the watch arrived"))
    situation.refresh_from_db()
    assert not situation.ended  # S2: the situation lasts until the gap
    situation = services.refresh(situation, now=timezone.now() + dt.timedelta(seconds=181))
    assert situation.ended
    anna.refresh_from_db()
    vera.refresh_from_db()
    assert vera.condition == "lightly_wounded"
    blades = ArsenalCard.objects.get(character=anna, card__name_en="Blade")
    assert blades.copies == 1  # one blade was played (D9)


def test_a_combatant_joins_a_running_battle(event, people, referee):
    situation = begin(event, people[:3], referee)
    situation.refresh_from_db()
    newcomer = people[3]
    add_combatant(situation, newcomer, user=referee, seen_version=situation.version, nonce=nonce())
    st = battle_state(situation)
    # BP4: they take turns from the next round.
    assert newcomer.pk in st.combatants and newcomer.pk not in st.order
    assert situation.participants.filter(pk=newcomer.pk).exists()


def test_BP4_a_newcomer_joining_by_attacking_strikes_at_once(event, people, referee):
    """Issue 25 item 8: the newcomer's attack is accepted during Anna's turn (no "[D5] It is Anna's turn")."""
    situation = begin(event, people[:3], referee)
    anna, gleb = people[0], people[3]
    situation.refresh_from_db()
    add_combatant(situation, gleb, strike=True, user=referee, seen_version=situation.version, nonce=nonce())
    attack(situation, referee, gleb, "Blade", anna)
    answer(situation, referee, anna)
    anna.refresh_from_db()
    assert anna.condition == "lightly_wounded"
    st = battle_state(situation)
    assert st.turn_of == anna.pk and st.records[-1].attacker == gleb.pk


def test_a_dead_character_cannot_join(event, people, referee):
    situation = begin(event, people[:3], referee)
    situation.refresh_from_db()
    people[3].condition = "dead"
    people[3].save()
    with pytest.raises(RuleError) as caught:
        add_combatant(situation, people[3], user=referee, seen_version=situation.version, nonce=nonce())
    assert caught.value.rule_id == "D11"


def test_R1_R3_an_opportunity_attack_on_a_leaver_is_answered_within_the_answer_window(battle, people, referee):
    situation = battle
    anna, boris, vera, gleb = people  # noqa: RUF059
    to_round(situation, referee, 2)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        go(situation, referee, B.Act(actor=anna.pk, act=B.MOVE, engaged=(vera.pk,)))
        move = top(situation).number
        go(situation, referee, B.Opportunity(reactor=vera.pk, frame=move, card=buid(situation, vera, "Snap")))
    with time_machine.travel(start + dt.timedelta(seconds=14), tick=False):
        answer(situation, referee, anna, "Shield")
        st = battle_state(situation)
        assert st.records[-1].role == B.OPPORTUNITY and not st.records[-1].timed_out
        assert st.stack[0].number == move and st.stack[0].parts_done == 0  # the move waited (R3)


def test_a_duel_cannot_be_started_against_someone_in_a_battle(event, people, referee):
    situation = begin(event, people[:3], referee)
    outsider = party(event, 1, first=5)[0]
    with pytest.raises(services.ServiceError):
        declare_aggression(event, outsider, people[0], user=referee, nonce=nonce())
    assert battle_state(situation).combatants.keys() == {p.pk for p in people[:3]}


def test_a_third_other_turns_a_running_duel_into_a_battle(event, people, referee):
    """IA6 reading: the third Other's attack is an ordinary attack; the duel's situation closes and a battle
    opens with everyone holding what they held (a shown card went back), the declarer first (D5)."""
    from duels.battle.start import grow_into_battle

    anna, boris, vera, _ = people
    duel = declare_aggression(event, anna, vera, user=referee, nonce=nonce()).situation
    st = services.state_of(duel)
    blade = next(u for u in st.fighters[anna.pk].hand if st.cards[u].name == "Blade")
    act(duel, engine.Attack(0, anna.pk, blade), referee)
    duel.refresh_from_db()
    token = nonce()
    made = grow_into_battle(duel, boris, declarer=boris, user=referee, seen_version=duel.version, nonce=token)
    duel.refresh_from_db()
    assert duel.ended and made.situation.kind == Situation.Kind.BATTLE
    battle = battle_state(made.situation)
    assert set(battle.combatants) == {anna.pk, boris.pk, vera.pk} and battle.turn_of == boris.pk
    assert sum(1 for u in battle.combatants[anna.pk].hand if battle.cards[u].face.name == "Blade") == 2
    again = grow_into_battle(duel, boris, declarer=boris, user=referee, seen_version=duel.version, nonce=token)
    assert again.repeated and again.situation.pk == made.situation.pk


def test_the_json_export_of_a_battle_replays_to_its_state(battle, people, referee, monkeypatch):
    """Post-game review: the export holds the opening, every log entry (undone ones too) and the state."""
    situation = battle
    anna, boris, vera, gleb = people  # noqa: RUF059
    attack(situation, referee, anna, "Blade", vera)
    answer(situation, referee, vera)
    situation.refresh_from_db()
    data = json.loads(json.dumps(export_situation(situation)))
    assert data["situation"]["kind"] == "battle"
    kind = KINDS[Situation.Kind.BATTLE]
    entries = [e for e in data["log"] if not e["undone"] and e["kind"] == "command"]
    # The document needs nothing else: read where no snapshot is known (its static parts carry their data).
    snapshots.forget()
    monkeypatch.setattr(snapshots, "_resolver", None)
    replayed = B.replay(
        kind.from_dict(data["opening"]),
        [("command", kind.decode(e["command"]), dt.datetime.fromisoformat(e["at"]), None) for e in entries],
    )
    assert snapshots.inlined(B.to_dict(replayed)) == data["state"]


def test_R4_an_immediate_action_needs_its_card_kind_or_a_readied_action(battle, people, referee):
    """A Blade is no interrupt card: refused (R4) until Vera has readied an action for it."""
    situation = battle
    anna, boris, vera, gleb = people
    go(situation, referee, B.Act(actor=anna.pk, act=B.PASS))
    go(situation, referee, B.NextTurn())  # Vera readies an interrupt with her own trigger
    go(situation, referee, B.Act(actor=vera.pk, act=B.READY, trigger="when Anna raises her staff", mode=B.INTERRUPT))
    go(situation, referee, B.NextTurn())
    to_round(situation, referee, 2)
    frame = attack(situation, referee, anna, "Blade", boris)
    refused(
        situation,
        referee,
        "R4",
        B.Immediate(
            reactor=gleb.pk, frame=frame.number, mode=B.INTERRUPT, card=buid(situation, gleb, "Blade"), target=anna.pk
        ),
    )
    go(
        situation,
        referee,
        B.Immediate(
            reactor=vera.pk, frame=frame.number, mode=B.INTERRUPT, card=buid(situation, vera, "Blade"), target=anna.pk
        ),
    )
    reaction = top(situation)
    assert reaction.readied and reaction.trigger == "when Anna raises her staff" and reaction.targets == [anna.pk]


def test_BP2_without_a_catalogue_card_granting_it_a_double_attack_is_refused(event, people, referee):
    """[BP2] Issue 25 item 5: the catalogue's double_attack property decides, read when the fighters join."""
    from cards.models import Card

    Card.objects.filter(name_en="Blade").update(double_attack=False)
    situation = begin(event, people, referee)
    anna, vera = people[0], people[2]
    refused(
        situation,
        referee,
        "BP2",
        B.Act(
            actor=anna.pk,
            act=B.ATTACK,
            cards=(buid(situation, anna, "Bolt"), buid(situation, anna, "Nova")),
            targets=(vera.pk,),
        ),
    )


def test_R4_the_catalogue_s_trigger_kinds_are_the_engine_s():
    from cards.models import Card

    assert set(Card.TriggerKind.values) == set(B.TRIGGER_KINDS)

"""Whole fights through ``duels.services`` with the database, as a referee meets them.

Every step goes through the services (start, perform, refresh, undo) with an
explicit clock, and checks what the characters see afterwards: conditions
written back at once, hands, focus and the restorable arsenal at the end of
the situation (S2), and state == replay(log) throughout (DESIGN.md §4).
"""

import datetime as dt

import pytest

import rules
from cards import arsenal as arsenal_service
from cards.faces import face_of
from cards.models import Card, CounterRule
from duels import services
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from events.models import Character
from rules import duel as engine
from rules.duel.events import ConvertedToAggression
from tests.services.kit import act, arm, arsenal, assert_replays, instant_attack, kinds, nonce, state, uid

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def do(situation, command, referee, t):
    return act(situation, command, referee, now=at(t))


def refused(situation, command, referee, t):
    """The command is refused; nothing of its own is saved."""
    situation.refresh_from_db()
    with pytest.raises(rules.RuleError) as info:
        act(situation, command, referee, now=at(t))
    return info.value


def instant(attacker, victim, card, referee, t, **options):
    return instant_attack(attacker, victim, card, referee, at(t), **options)


def aggression(declarer, target, card, referee, t, **kw):
    return declare_aggression(
        declarer.event,
        declarer,
        target,
        None if card is None else card.pk,
        user=referee,
        nonce=nonce(),
        now=at(t),
        **kw,
    )


def later(situation, t):
    """A read at ``t``: overdue deadlines are applied (D8, S2) as any page load would."""
    return services.refresh(Situation.objects.get(pk=situation.pk), now=at(t))


def conditions_match(situation):
    """Conditions are written back whenever the fight changes them."""
    st = state(situation)
    for cid, fighter in st.fighters.items():
        assert situation.participants.get(pk=cid).condition == fighter.condition


@pytest.fixture
def sleep(catalogue) -> Card:
    return Card.objects.create(
        catalogue=catalogue,
        name_ru="Сон",
        name_en="Sleep",
        kind="attack",
        full_effect="helpless",
        softened_effect="paralysed",
        tags="mind",
    )


@pytest.fixture
def ward(catalogue) -> Card:
    card = Card.objects.create(catalogue=catalogue, name_ru="Оберег", name_en="Ward", kind="defence")
    CounterRule.objects.create(defence_card=card, attack_tag="mind", outcome="parried")
    return card


# --- IA1, IA6, S2 ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("sight", "reach"), [(False, True), (True, False), (False, False)])
def test_IA1_AG1_D8_a_converted_instant_attack_is_answered_in_the_window(
    armed, referee, attack_card, defence_card, sight, reach
):
    anton, zavulon = armed
    done = instant(anton, zavulon, attack_card, referee, 0, sight=sight, reach=reach)
    situation = done.situation
    assert done.events[2] == ConvertedToAggression(rule="IA1", attacker=anton.pk, victim=zavulon.pk)
    duel = state(situation).duels[0]
    assert (duel.opened_by, duel.phase, duel.step.instant) == ("aggression", "await_answer", False)
    assert situation.next_deadline == at(15) == duel.step.answer_deadline
    assert len(state(situation).fighters[zavulon.pk].hand) == 2  # nothing drawn
    assert LogEntry.objects.get(situation=situation, command__type="instant_attack").draw is None  # IA3: no draw
    do(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, defence_card)), referee, 14.9)
    do(situation, engine.ConfirmResult(duel=0), referee, 16)
    assert state(situation).duels[0].attacker == zavulon.pk  # D10
    assert not state(situation).instant_attack_used
    assert_replays(situation)


def test_IA6_another_pair_joining_the_situation_gets_an_ordinary_attack_and_S2_a_new_one_allows_it(
    armed, bystander, referee, attack_card, defence_card, spark, sleep, ward
):
    anton, zavulon = armed
    arm(bystander, sleep, spark)
    first = instant(anton, zavulon, attack_card, referee, 0).situation
    st = state(first)
    assert st.duels[0].opened_by == "instant_attack"
    # The draw (Fireball or Shield) decides; the referee rules it not parried either way.
    do(first, engine.ConfirmResult(duel=0, outcome="not_parried", reason="from behind"), referee, 2)
    zavulon.refresh_from_db()
    assert zavulon.condition == "heavily_wounded"  # written back at once (D11)
    # Olga strikes Anton from behind a minute later: she joins the same situation, IA6 converts.
    done = instant(bystander, anton, sleep, referee, 60)
    assert done.situation.pk == first.pk and Situation.objects.count() == 1
    assert ConvertedToAggression(rule="IA6", attacker=bystander.pk, victim=anton.pk) in (done.events)
    assert kinds(first)[-2:] == ["join", "instant_attack"]
    duel = state(first).duels[1]
    assert (duel.opened_by, duel.phase) == ("aggression", "await_answer")
    entry = LogEntry.objects.filter(situation=first).latest("seq")
    assert not any(e["type"] == "card_drawn" for e in entry.events)
    do(first, engine.Answer(duel=1, fighter=anton.pk, card=None), referee, 61)
    do(first, engine.ConfirmResult(duel=1), referee, 62)
    anton.refresh_from_db()
    assert anton.condition == "helpless"
    conditions_match(first)
    assert_replays(first)
    # More than 3 minutes later the situation is over; Olga's next surprise opens a new one.
    arm(zavulon, spark)  # (organisers' bookkeeping is frozen during the fight, not after)
    later(first, 243)
    first.refresh_from_db()
    assert first.ended and first.ended_at == at(242)
    zavulon.condition = "fit"
    zavulon.save()
    second = instant(bystander, zavulon, spark, referee, 300).situation
    assert second.pk != first.pk
    assert state(second).duels[0].opened_by == "instant_attack"
    assert_replays(second)


def test_S2_the_next_action_after_the_gap_starts_a_new_situation_with_the_restored_arsenal(
    armed, referee, attack_card, defence_card, spark
):
    anton, zavulon = armed
    situation = aggression(anton, zavulon, attack_card, referee, 0).situation
    do(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, defence_card)), referee, 3)
    do(situation, engine.ConfirmResult(duel=0), referee, 4)  # parried
    do(situation, engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, spark)), referee, 5)
    do(situation, engine.Answer(duel=0, fighter=anton.pk, card=uid(situation, anton, defence_card)), referee, 6)
    do(situation, engine.ConfirmResult(duel=0, outcome="not_parried", reason="shield vs a spark"), referee, 7)
    # During the situation the arsenal is frozen (AG2/S2): restoring is refused.
    assert services.in_active_situation(anton, now=at(100))
    with pytest.raises(rules.RuleError):
        arsenal_service.restore_arsenal(anton)
    # Exactly 3 minutes is still the same situation; a moment more and it is over.
    assert later(situation, 187).ended is False
    situation = later(situation, 187.001)
    assert situation.ended and situation.ended_at == at(187)
    anton.refresh_from_db()
    zavulon.refresh_from_db()
    assert arsenal(anton) == {attack_card.pk: 1}  # one Fireball left; the shield was spent
    assert anton.restorable_arsenal == sorted([attack_card.pk, attack_card.pk, defence_card.pk])
    assert arsenal(zavulon) == {}
    assert (anton.condition, zavulon.condition) == ("lightly_wounded", "fit")
    # A new situation: Anton restores his original arsenal, Zavulon does not.
    arsenal_service.restore_arsenal(anton)
    assert arsenal(anton) == {attack_card.pk: 2, defence_card.pk: 1}
    fresh = aggression(zavulon, anton, None, referee, 400).situation
    assert fresh.pk != situation.pk
    st = state(fresh)
    assert sorted(st.cards[u].card_id for u in st.fighters[anton.pk].hand) == sorted(
        [attack_card.pk, attack_card.pk, defence_card.pk]
    )
    assert st.fighters[zavulon.pk].hand == []
    # D10: the declarer holds no attack card, so Anton attacks first.
    assert st.duels[0].attacker == anton.pk
    assert_replays(fresh)


# --- F1 ------------------------------------------------------------------------------------------


def test_F1_IA4_a_focused_victim_parries_with_the_focus_which_is_spent_and_dropped_at_the_end(
    armed, referee, attack_card, defence_card, spark
):
    anton, zavulon = armed
    zavulon.focus_card = defence_card
    zavulon.save()
    done = instant(anton, zavulon, attack_card, referee, 0)
    situation = done.situation
    entry = LogEntry.objects.get(situation=situation, command__type="instant_attack")
    assert entry.draw is None
    drawn = next(e for e in done.events if e.type == "card_drawn")
    assert drawn.by_focus and drawn.card_id == defence_card.pk
    do(situation, engine.ConfirmResult(duel=0), referee, 1)  # parried (shield vs fire)
    duel = state(situation).duels[0]
    assert (duel.phase, duel.attacker) == ("await_attack", zavulon.pk)  # IA5
    # IA5: no arsenal change in round 1.
    new = (face_of(spark),)
    err = refused(situation, engine.RoundChoice(duel=0, fighter=zavulon.pk, go_on=True, arsenal=new), referee, 2)
    assert err.rule_id == "IA5"
    do(situation, engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, spark)), referee, 3)
    # D8 runs out: full effect on Anton, no referee needed.
    situation = later(situation, 18.5)
    anton.refresh_from_db()
    assert anton.condition == "lightly_wounded"
    assert kinds(situation)[-1] == "expire"
    situation = later(situation, 400)
    zavulon.refresh_from_db()
    assert situation.ended and zavulon.focus_card_id is None and arsenal(zavulon) == {}
    assert_replays(situation)


def test_F1_IA4_a_focus_that_did_nothing_stays_in_hand_and_focused_after_the_situation(
    armed, referee, attack_card, sleep, ward
):
    anton, zavulon = armed
    arm(zavulon, ward)
    zavulon.focus_card = ward
    zavulon.save()
    situation = instant(anton, zavulon, attack_card, referee, 0).situation
    assert state(situation).duels[0].step.proposed == "not_parried"  # a ward against fire
    do(situation, engine.ConfirmResult(duel=0), referee, 1)
    zavulon.refresh_from_db()
    assert zavulon.condition == "heavily_wounded"  # IA7, written back at once
    situation = later(situation, 200)
    zavulon.refresh_from_db()
    assert situation.ended and zavulon.focus_card_id == ward.pk and arsenal(zavulon)[ward.pk] == 1


# --- D8, D12, D3, AG2, D2 ----------------------------------------------------------------------------


def test_D8_a_late_answer_is_refused_and_the_timeout_is_kept(armed, referee, attack_card, defence_card):
    anton, zavulon = armed
    situation = aggression(anton, zavulon, attack_card, referee, 0).situation
    err = refused(
        situation, engine.Answer(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, defence_card)), referee, 15.2
    )
    assert err.rule_id == "D8"
    situation.refresh_from_db()
    assert kinds(situation)[-1] == "expire"
    zavulon.refresh_from_db()
    assert zavulon.condition == "heavily_wounded"
    assert state(situation).duels[0].result == "fighter_out"
    assert_replays(situation)


def test_AG2_D3_D12_D2_rounds_new_arsenals_and_the_write_back_at_the_end(
    armed, referee, attack_card, defence_card, spark, sleep, ward
):
    anton, zavulon = armed
    situation = aggression(anton, zavulon, None, referee, 0, max_rounds=2).situation
    version = Situation.objects.get(pk=situation.pk).version
    err = refused(
        situation, engine.RoundChoice(duel=0, fighter=anton.pk, go_on=True, arsenal=(face_of(sleep),)), referee, 1
    )
    assert err.rule_id == "AG2" and Situation.objects.get(pk=situation.pk).version == version
    # Round 1: Anton's two Fireballs against Zavulon's Shield and Spark.
    do(situation, engine.Attack(duel=0, fighter=anton.pk, card=uid(situation, anton, attack_card)), referee, 2)
    do(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, defence_card)), referee, 3)
    do(situation, engine.ConfirmResult(duel=0), referee, 4)
    do(situation, engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, spark)), referee, 5)
    do(situation, engine.Answer(duel=0, fighter=anton.pk, card=uid(situation, anton, defence_card)), referee, 6)
    do(situation, engine.ConfirmResult(duel=0), referee, 7)  # no rule: not parried
    do(situation, engine.Attack(duel=0, fighter=anton.pk, card=uid(situation, anton, attack_card)), referee, 8)
    do(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=None), referee, 9)
    do(situation, engine.ConfirmResult(duel=0, outcome="softened", reason="he rolled away"), referee, 10)
    st = state(situation)
    assert st.duels[0].phase == "between_rounds"
    anton.refresh_from_db()
    zavulon.refresh_from_db()
    assert (anton.condition, zavulon.condition) == ("lightly_wounded", "lightly_wounded")
    # D3: Anton builds a new arsenal; Zavulon takes a prepared one (both as faces of the catalogue).
    do(
        situation,
        engine.RoundChoice(duel=0, fighter=anton.pk, go_on=True, arsenal=(face_of(sleep), face_of(ward))),
        referee,
        20,
    )
    do(
        situation,
        engine.RoundChoice(
            duel=0, fighter=zavulon.pk, go_on=True, arsenal=(face_of(ward), face_of(spark)), label="prepared"
        ),
        referee,
        21,
    )
    duel = state(situation).duels[0]
    assert (duel.round, duel.attacker) == (2, zavulon.pk)  # he defended first in round 1
    do(situation, engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, spark)), referee, 22)
    do(situation, engine.Answer(duel=0, fighter=anton.pk, card=uid(situation, anton, ward)), referee, 23)
    do(situation, engine.ConfirmResult(duel=0), referee, 24)
    do(situation, engine.Attack(duel=0, fighter=anton.pk, card=uid(situation, anton, sleep)), referee, 25)
    done = do(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, ward)), referee, 26)
    done = do(situation, engine.ConfirmResult(duel=0), referee, 27)  # the Ward parries Sleep
    assert [e.type for e in done.events][-2:] == ["round_ended", "duel_ended"]
    assert state(situation).duels[0].result == "max_rounds"
    assert_replays(situation)
    situation = later(situation, 300)
    assert situation.ended
    anton.refresh_from_db()
    zavulon.refresh_from_db()
    # The round-2 hands are written back (all played); D3: the arsenals composed at the
    # break are the originals now, restorable whole though every card of them was played.
    assert arsenal(anton) == {} and arsenal(zavulon) == {}
    assert anton.restorable_arsenal == sorted([sleep.pk, ward.pk])
    assert zavulon.restorable_arsenal == sorted([ward.pk, spark.pk])


# --- undo ------------------------------------------------------------------------------------------


def test_undo_at_every_point_of_a_fight_keeps_state_the_replay_of_the_log_and_conditions_written(
    armed, referee, attack_card, defence_card, spark
):
    """DESIGN.md §4 with IA3, IA5, D8, D11: undo after each kind of action, then do it again."""
    anton, zavulon = armed

    def undo_and_check(situation, t):
        situation.refresh_from_db()
        before = [e.seq for e in LogEntry.objects.filter(situation=situation, undone=False)]
        services.undo_last(
            situation.pk, user=referee, reason="tapped wrong", seen_version=situation.version, nonce=nonce(), now=at(t)
        )
        situation.refresh_from_db()
        assert_replays(situation)
        conditions_match(situation)
        after = [e.seq for e in LogEntry.objects.filter(situation=situation, undone=False)]
        assert len(after) < len(before) + 1  # something was undone (the undo record itself is added)
        return situation

    zavulon.focus_card = defence_card
    zavulon.save()
    situation = instant(anton, zavulon, attack_card, referee, 0).situation
    do(situation, engine.ConfirmResult(duel=0, outcome="not_parried", reason="too slow"), referee, 1)
    zavulon.refresh_from_db()
    assert zavulon.condition == "heavily_wounded"
    situation = undo_and_check(situation, 2)  # the confirmation
    assert state(situation).duels[0].phase == "await_result"
    zavulon.refresh_from_db()
    assert zavulon.condition == "fit"
    do(situation, engine.ConfirmResult(duel=0), referee, 3)  # parried after all
    assert state(situation).duels[0].attacker == zavulon.pk
    do(situation, engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, spark)), referee, 4)
    situation = undo_and_check(situation, 5)  # the attack
    assert state(situation).duels[0].phase == "await_attack"
    do(situation, engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, spark)), referee, 6)
    situation = later(situation, 22)  # D8 timed out at 21
    anton.refresh_from_db()
    assert anton.condition == "lightly_wounded"
    # Undo takes back the attack and the timeout after it.
    situation = undo_and_check(situation, 23)
    assert kinds(situation)[-3:] == ["~attack", "~expire", "undo"]
    anton.refresh_from_db()
    assert anton.condition == "fit"
    do(situation, engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, spark)), referee, 24)
    do(situation, engine.Answer(duel=0, fighter=anton.pk, card=uid(situation, anton, defence_card)), referee, 25)
    situation = undo_and_check(situation, 26)  # the answer; the window (to 39) is still open
    do(situation, engine.Answer(duel=0, fighter=anton.pk, card=None), referee, 27)
    do(situation, engine.ConfirmResult(duel=0), referee, 28)
    assert state(situation).duels[0].attacker == anton.pk
    # Undo the very start: the situation is emptied and both are free.
    while any(not e.undone and e.kind == "command" for e in LogEntry.objects.filter(situation=situation)):
        situation = undo_and_check(situation, 30)
    situation.refresh_from_db()
    assert situation.ended and not services.in_active_situation(anton, now=at(31))
    anton.refresh_from_db()
    zavulon.refresh_from_db()
    assert (anton.condition, zavulon.condition) == ("fit", "fit")


def test_D8_undo_of_an_answer_after_its_window_lets_it_run_out_and_undoing_the_start_restores_the_condition(
    armed, referee, attack_card, defence_card
):
    """Deadlines are absolute (D8): the referee fixes a mistyped answer by undoing the attack too."""
    anton, zavulon = armed
    situation = aggression(anton, zavulon, attack_card, referee, 0).situation
    do(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=None), referee, 3)  # should have been the Shield
    situation.refresh_from_db()
    services.undo_last(
        situation.pk,
        user=referee,
        reason="he showed the shield",
        seen_version=situation.version,
        nonce=nonce(),
        now=at(30),
    )
    situation = later(situation, 31)
    zavulon.refresh_from_db()
    assert zavulon.condition == "heavily_wounded"  # the window (to 15) had closed: full effect
    assert kinds(situation)[-3:] == ["~answer", "undo", "expire"]
    situation.refresh_from_db()
    services.undo_last(
        situation.pk,
        user=referee,
        reason="show the attack again",
        seen_version=situation.version,
        nonce=nonce(),
        now=at(32),
    )
    # The attack was the start: undoing it empties the situation, and Zavulon leaves as he came (fit).
    zavulon.refresh_from_db()
    situation.refresh_from_db()
    assert situation.ended and state(situation).fighters == {}
    assert zavulon.condition == "fit"
    assert_replays(situation)


def test_undo_of_a_start_that_joined_a_fighter_gives_them_back_their_condition(
    armed, bystander, referee, attack_card, defence_card, spark
):
    """A fighter joined by a start that is undone leaves the situation with the condition they brought."""
    anton, zavulon = armed
    arm(bystander, defence_card)
    situation = aggression(anton, zavulon, None, referee, 0).situation
    do(situation, engine.EndDuel(duel=0, reason="parted"), referee, 1)
    # Zavulon strikes Olga, who joins; she does not answer in time: the Spark wounds her.
    aggression(zavulon, bystander, spark, referee, 10)
    situation = later(situation, 26)
    bystander.refresh_from_db()
    assert bystander.condition == "lightly_wounded"
    situation.refresh_from_db()
    services.undo_last(
        situation.pk,
        user=referee,
        reason="Olga was not there",
        seen_version=situation.version,
        nonce=nonce(),
        now=at(27),
    )
    situation.refresh_from_db()
    assert bystander.pk not in state(situation).fighters and not situation.ended
    assert kinds(situation)[-4:] == ["~join", "~declare_aggression", "~expire", "undo"]
    bystander.refresh_from_db()
    assert bystander.condition == "fit"
    assert_replays(situation)


def test_F1_a_focus_on_a_card_the_catalogue_has_since_made_an_attack_card_is_dropped_not_a_blocked_fight(
    armed, referee, attack_card, defence_card, spark
):
    anton, zavulon = armed
    zavulon.focus_card = defence_card
    zavulon.save()
    defence_card.kind = "attack"  # the organisers corrected the catalogue mid-game
    defence_card.save()
    situation = instant(anton, zavulon, attack_card, referee, 0).situation
    st = state(situation)
    assert st.fighters[zavulon.pk].focus is None
    assert LogEntry.objects.get(situation=situation, command__type="instant_attack").draw is not None  # IA3 blind
    assert_replays(situation)


def test_D11_S2_an_organisers_heal_during_the_situation_is_not_undone_when_it_ends(
    armed, referee, attack_card, defence_card
):
    """Conditions are written when the fight changes them; the end of the situation changes none."""
    anton, zavulon = armed
    situation = aggression(anton, zavulon, attack_card, referee, 0).situation
    situation = later(situation, 16)  # no answer: the Fireball takes full effect (D8)
    zavulon.refresh_from_db()
    assert zavulon.condition == "heavily_wounded"
    zavulon.condition = "lightly_wounded"  # a healer's work, entered by the organisers
    zavulon.save(update_fields=["condition"])
    situation = later(situation, 200)
    assert situation.ended
    zavulon.refresh_from_db()
    assert zavulon.condition == "lightly_wounded"
    assert len(arsenal(zavulon)) == 2  # the hand is still written back


def test_S2_the_original_arsenal_survives_two_fights_without_a_restore(
    armed, referee, attack_card, defence_card, spark
):
    """S2: "restore to the original" means the arsenal as last composed, not what a fight left over."""
    anton, zavulon = armed
    arsenal_service.build_arsenal(anton, [attack_card.pk, attack_card.pk, defence_card.pk])
    original = sorted([attack_card.pk, attack_card.pk, defence_card.pk])
    for start in (0, 1000):  # two situations, Anton never restores in between
        situation = aggression(anton, zavulon, attack_card, referee, start).situation
        do(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=None), referee, start + 1)
        do(situation, engine.ConfirmResult(duel=0), referee, start + 2)
        assert later(situation, start + 400).ended
        anton.refresh_from_db()
        assert anton.restorable_arsenal == original
        Character.objects.filter(pk=zavulon.pk).update(condition="fit")  # the healers saw to him
    assert arsenal(anton) == {defence_card.pk: 1}  # both Fireballs spent in the two fights
    arsenal_service.restore_arsenal(anton)
    assert arsenal(anton) == {attack_card.pk: 2, defence_card.pk: 1}

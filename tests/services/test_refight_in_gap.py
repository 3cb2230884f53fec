"""[S2, IA6, D3, AG1] A new fight within the gap after a fight takes the open situation on.

S2: the end of a battle (or a duel) does not end the situation: until the gap has
passed, arsenals stay frozen and IA6 still counts. A new fight with one of its
people - an instant attack (an ordinary attack by IA6), an aggression, a referee's
start - takes the situation on: the old row is closed by the referee (its hands
written back) and the new fight opens from those hands with the old clock and the
spent instant attack, as a duel grown into a battle does (``grow_into_battle``).
Every time is explicit: T0 plus seconds.
"""

import datetime as dt
from collections import Counter

import pytest

from cards import arsenal as arsenal_service
from cards.models import ArsenalCard, Card
from duels import services
from duels.battle.start import start_battle
from duels.duel.start import declare_aggression
from duels.models import LogEntry, Situation
from duels.services.errors import CardNotHeld, StillInSituation
from events.models import Character, Side
from rules import RuleError
from rules import battle as B
from rules import duel as rules_duel
from tests.services.battle_kit import battle_state, top
from tests.services.kit import act, arm, instant_attack, nonce

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)
GAP = 180  # the event's default situation gap (S2)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def go(situation, user, command, t):
    return act(situation, command, user, now=at(t))


def hand(character) -> Counter:
    return Counter(dict(ArsenalCard.objects.filter(character=character).values_list("card__name_en", "copies")))


def won_at_10(event, people, referee) -> Situation:
    """Anna's instant attack on Vera at 0 s (IA1, unparried), the duel grown into a battle by Boris's
    Blade on Anna at 5 s (an ordinary attack by IA6, answered at 6 s), the battle over at 10 s (BP5).
    Gleb stays out."""
    anna, boris, vera, _gleb = people
    blade = ArsenalCard.objects.get(character=anna, card__name_en="Blade").card
    instant_attack(anna, vera, blade, referee, at(0), parry=False)
    battle = instant_attack(boris, anna, blade, referee, at(5)).situation
    assert battle.kind == Situation.Kind.BATTLE
    frame = top(battle).number  # Boris's blow lands: his first Blade is spent
    go(battle, referee, B.AnswerAttack(frame=frame, defender=anna.pk, card=None), 6)
    go(battle, referee, B.ConfirmAnswer(frame=frame, defender=anna.pk), 7)
    go(battle, referee, B.EndBattle(reason="the Dark ran"), 10)
    st = battle_state(battle)
    assert st.ended and not st.closed and st.instant_attack_used
    return battle


def active_pk(character, t: float) -> int | None:
    found = services.active_situation_for(character, now=at(t))
    return None if found is None else found.pk


def closed_by_referee(situation: Situation) -> bool:
    situation.refresh_from_db()
    return (
        situation.ended
        and situation.log.filter(
            kind=LogEntry.Kind.COMMAND, command__type__in=("close_situation", "end_situation")
        ).exists()
    )


def test_S2_IA6_an_instant_attack_after_a_battle_in_its_gap_is_an_ordinary_attack_carrying_the_situation(
    event, people, referee, monkeypatch
):
    _boris, boris, vera, _gleb = people
    composed = hand(boris)
    battle = won_at_10(event, people, referee)
    last = battle_state(battle).last_action_at
    assert last == at(7)  # S2: the answer at 6 s, its step held until the confirm at 7 s
    monkeypatch.setattr("secrets.randbelow", lambda n: pytest.fail("IA6: an ordinary attack draws nothing"))
    blade = ArsenalCard.objects.get(character=boris, card__name_en="Blade").card

    struck = instant_attack(boris, vera, blade, referee, at(30))

    # IA6: the situation's instant attack was the battle's; this one is an ordinary attack (AG1).
    converted = next(e for e in struck.events if e.type == "converted_to_aggression")
    assert converted.rule == "IA6"
    duel = struck.situation
    assert duel.kind == Situation.Kind.DUEL and duel.pk != battle.pk
    assert services.state_of(duel).duels[0].opened_by != rules_duel.INSTANT_ATTACK
    # S2: the battle's situation is taken on, not ended by its gap: closed by the referee now.
    assert closed_by_referee(battle)
    assert battle.ended_at == at(30)
    opening = rules_duel.from_dict(duel.opening)
    assert opening.last_action_at == last and opening.instant_attack_used
    # S2: arsenals frozen - the hands as the battle left them (a Blade spent), no restore.
    assert hand(boris)["Blade"] == 1
    assert services.in_active_situation(boris, now=at(31))
    with pytest.raises(RuleError):
        arsenal_service.restore_arsenal(boris)
    st = services.state_of(duel)
    assert not [u for u in st.fighters[boris.pk].hand if st.cards[u].card_id == blade.pk]  # on the table now
    # S2: the new situation's gap counts from its last combat action, not the battle's end.
    go(duel, referee, rules_duel.EndDuel(duel=0, reason="parted"), 40)
    last_new = services.state_of(Situation.objects.get(pk=duel.pk)).last_action_at
    assert last_new is not None and last_new >= at(30)
    assert not services.refresh(Situation.objects.get(pk=duel.pk), now=last_new + dt.timedelta(seconds=GAP)).ended
    ended = services.refresh(Situation.objects.get(pk=duel.pk), now=last_new + dt.timedelta(seconds=GAP + 1))
    assert ended.ended
    # No card lost, none in two places: the battle's hand comes back out of the duel.
    assert hand(boris) == composed - Counter({"Blade": 1})
    # D3, S2: restore gives back the arsenal composed before the first fight, whole.
    boris.refresh_from_db()
    Character.objects.filter(pk=boris.pk).update(arsenal_limit=8)
    boris.refresh_from_db()
    arsenal_service.restore_arsenal(boris)
    assert hand(boris) == composed


def test_S2_IA6_an_outsiders_instant_attack_on_a_combatant_in_the_gap_takes_the_situation_on(
    event, people, referee, monkeypatch
):
    _anna, _boris, vera, gleb = people
    battle = won_at_10(event, people, referee)
    blade = ArsenalCard.objects.get(character=gleb, card__name_en="Blade").card
    monkeypatch.setattr("secrets.randbelow", lambda n: pytest.fail("IA6: nothing may be drawn"))
    struck = instant_attack(gleb, vera, blade, referee, at(30))
    assert next(e for e in struck.events if e.type == "converted_to_aggression").rule == "IA6"
    assert struck.situation.kind == Situation.Kind.DUEL
    assert closed_by_referee(battle)
    st = services.state_of(struck.situation)
    assert [{d.a, d.b} for d in st.duels] == [{gleb.pk, vera.pk}]
    # S2: the battle's other people stay in the situation, in no duel: frozen, and IA6 counts for them.
    anna, boris = people[0], people[1]
    assert set(struck.situation.participants.values_list("pk", flat=True)) == {p.pk for p in people}
    assert active_pk(anna, 31) == struck.situation.pk
    with pytest.raises(RuleError):
        arsenal_service.restore_arsenal(boris)
    again = instant_attack(anna, boris, blade, referee, at(40))  # still no draw (IA6)
    assert again.situation.pk == struck.situation.pk
    assert next(e for e in again.events if e.type == "converted_to_aggression").rule == "IA6"


def test_S2_a_refused_start_in_the_gap_leaves_the_battle_situation_open(event, people, referee):
    anna, _boris, vera, _gleb = people
    battle = won_at_10(event, people, referee)
    version = Situation.objects.get(pk=battle.pk).version
    rows = Situation.objects.count()
    axe = Card.objects.create(catalogue=event.catalogue, name_ru="Топор", name_en="Axe", kind="attack")
    with pytest.raises(CardNotHeld):
        instant_attack(anna, vera, axe, referee, at(30))  # not in her hand
    row = Situation.objects.get(pk=battle.pk)
    assert not row.ended and row.version == version
    assert not battle_state(battle).closed
    assert Situation.objects.count() == rows  # the new duel's row is dropped too


def test_S2_IA6_a_new_battle_in_the_gap_of_one_carries_its_clock_and_frozen_hands(event, people, referee):
    anna, boris, vera, gleb = people
    battle = won_at_10(event, people, referee)
    last = battle_state(battle).last_action_at
    version = Situation.objects.get(pk=battle.pk).version
    with pytest.raises(StillInSituation) as left:  # S2: Anna, still fit, is in that situation too
        start_battle(event, [boris, vera, gleb], declarer=vera, user=referee, nonce=nonce(), now=at(30))
    assert left.value.params == {"name": anna.name}
    assert Situation.objects.get(pk=battle.pk).version == version and not battle_state(battle).closed
    made = start_battle(event, [anna, boris, vera, gleb], declarer=vera, user=referee, nonce=nonce(), now=at(30))
    assert closed_by_referee(battle)
    opening = B.from_dict(made.situation.opening)
    assert opening.last_action_at == last
    st = battle_state(made.situation)
    blade = ArsenalCard.objects.get(character=gleb, card__name_en="Blade").card
    blades = [u for u in st.combatants[boris.pk].hand if st.cards[u].face.card_id == blade.pk]
    assert len(blades) == 1  # S2: no restore between the two fights (Boris spent one Blade)
    assert opening.instant_attack_used  # IA6: the battle's situation used its instant attack
    assert active_pk(anna, 31) == made.situation.pk


def test_S2_IA6_an_aggression_in_the_gap_of_a_battle_opens_a_duel_that_takes_it_on(event, people, referee):
    anna, _boris, vera, _gleb = people
    battle = won_at_10(event, people, referee)
    performed = declare_aggression(event, vera, anna, None, user=referee, nonce=nonce(), now=at(30))
    assert performed.situation.kind == Situation.Kind.DUEL
    assert closed_by_referee(battle)
    opening = rules_duel.from_dict(performed.situation.opening)
    assert opening.last_action_at == battle_state(battle).last_action_at


# --- the same for a duel that ended within its gap ------------------------------------------------


def test_S2_IA6_after_a_duel_in_its_gap_an_instant_attack_is_a_second_duel_and_a_battle_takes_it_on(
    armed, bystander, attack_card, referee, event, monkeypatch
):
    anton, zavulon = armed
    first = instant_attack(anton, zavulon, attack_card, referee, at(0)).situation
    st = services.state_of(Situation.objects.get(pk=first.pk))
    go(first, referee, rules_duel.EndDuel(duel=0, reason="parted"), 5)
    assert not Situation.objects.get(pk=first.pk).ended
    # IA6 within the gap: an outsider's instant attack on a duellist is an ordinary one, in the same situation.
    arm(bystander, attack_card)
    Character.objects.filter(pk=bystander.pk).update(side=Side.DARK)
    bystander.refresh_from_db()
    monkeypatch.setattr("secrets.randbelow", lambda n: pytest.fail("IA6: nothing may be drawn"))
    second = instant_attack(bystander, zavulon, attack_card, referee, at(20))
    assert second.situation.pk == first.pk
    assert next(e for e in second.events if e.type == "converted_to_aggression").rule == "IA6"
    go(first, referee, rules_duel.EndDuel(duel=1, reason="parted"), 25)
    last = services.state_of(Situation.objects.get(pk=first.pk)).last_action_at
    # A battle started with them within the gap takes the duel's situation on (S2, IA6).
    vlad = Character.objects.create(event=event, name="Vlad", side=Side.LIGHT)
    arm(vlad, attack_card)
    everyone = [anton, zavulon, bystander, vlad]
    made = start_battle(event, everyone, declarer=vlad, user=referee, nonce=nonce(), now=at(30))
    assert closed_by_referee(first)
    opening = B.from_dict(made.situation.opening)
    assert opening.instant_attack_used and opening.last_action_at == last
    assert st.instant_attack_used


@pytest.mark.parametrize("new_fight", ["instant attack", "battle"])
def test_S2_undoing_the_new_fights_start_opens_the_situation_it_took_on_again(event, people, referee, new_fight):
    _anna, boris, vera, _gleb = people
    battle = won_at_10(event, people, referee)
    before = battle_state(battle)
    if new_fight == "battle":
        made = start_battle(event, people, declarer=vera, user=referee, nonce=nonce(), now=at(30))
    else:
        blade = ArsenalCard.objects.get(character=boris, card__name_en="Blade").card
        made = instant_attack(boris, vera, blade, referee, at(30))
    assert closed_by_referee(battle)
    new = Situation.objects.get(pk=made.situation.pk)
    services.undo_last(new.pk, user=referee, reason="wrong people", seen_version=new.version, nonce=nonce(), now=at(40))
    new.refresh_from_db()
    assert new.ended and not new.participants.exists()
    battle.refresh_from_db()
    assert not battle.ended  # S2: the battle's situation is open again, as it was
    assert battle_state(battle) == before
    assert active_pk(boris, 41) == battle.pk
    # ... and its gap still counts from its own last combat action.
    assert before.last_action_at is not None
    gone = before.last_action_at + dt.timedelta(seconds=GAP + 1)
    assert services.refresh(Situation.objects.get(pk=battle.pk), now=gone).ended

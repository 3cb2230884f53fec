"""[D3, S2] "Restore arsenal" after a situation gives back the arsenal last composed, whole.

Issue 25 item 11 (data loss): a fighter takes a 7-card prepared arsenal at a
break and plays one of its cards; after the fight the restore must give back
all 7, the played one included, in a duel and in a battle.
"""

import datetime as dt

import pytest

from cards import arsenal as arsenal_service
from cards.faces import face_of
from cards.models import Card, PoolEntry
from duels import services
from duels.battle.start import build_between_rounds
from duels.duel.start import declare_aggression
from duels.models import Situation
from rules import battle as B
from rules import duel as engine
from tests.services.battle_kit import battle_state, begin, buid, passes
from tests.services.kit import act, arsenal, nonce, uid

pytestmark = pytest.mark.django_db

T0 = dt.datetime(2026, 12, 5, 21, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def seven(catalogue) -> list[Card]:
    return [
        Card.objects.create(
            catalogue=catalogue,
            name_ru=f"Карта {i}",
            name_en=f"Card {i}",
            kind="attack" if i < 3 else "defence",
            full_effect="lightly_wounded" if i < 3 else "",
            tags="seven",
        )
        for i in range(7)
    ]


def pool_only(character, cards):
    for card in cards:
        PoolEntry.objects.update_or_create(character=character, card=card, defaults={"copies": 1})


def test_D3_S2_duel_restore_gives_back_the_prepared_arsenal_whole(armed, referee, attack_card, catalogue):
    anton, zavulon = armed
    extra = seven(catalogue)
    pool_only(zavulon, extra)
    zavulon.arsenal_limit = 7
    zavulon.save()
    situation = declare_aggression(
        anton.event, anton, zavulon, attack_card.pk, user=referee, nonce=nonce(), now=at(0)
    ).situation
    act(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=None), referee, now=at(1))
    act(situation, engine.ConfirmResult(duel=0, outcome="parried", reason="dodged"), referee, now=at(2))
    # Zavulon attacks with Spark; Anton's shield does not parry it.
    spark = Card.objects.get(name_en="Spark")
    act(situation, engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, spark)), referee, now=at(3))
    act(situation, engine.Answer(duel=0, fighter=anton.pk, card=None), referee, now=at(4))
    act(situation, engine.ConfirmResult(duel=0), referee, now=at(5))
    fireball = attack_card
    act(situation, engine.Attack(duel=0, fighter=anton.pk, card=uid(situation, anton, fireball)), referee, now=at(6))
    act(situation, engine.Answer(duel=0, fighter=zavulon.pk, card=None), referee, now=at(7))
    act(situation, engine.ConfirmResult(duel=0, outcome="parried", reason="dodged"), referee, now=at(8))
    situation.refresh_from_db()
    st = services.state_of(situation)
    assert st.duels[0].phase == "between_rounds"
    faces = tuple(face_of(c) for c in extra)
    act(situation, engine.RoundChoice(duel=0, fighter=anton.pk, go_on=True), referee, now=at(9))
    act(
        situation,
        engine.RoundChoice(duel=0, fighter=zavulon.pk, go_on=True, arsenal=faces, label="prepared"),
        referee,
        now=at(10),
    )
    st = services.state_of(Situation.objects.get(pk=situation.pk))
    attacker = st.duels[0].attacker
    assert attacker == zavulon.pk
    act(
        situation,
        engine.Attack(duel=0, fighter=zavulon.pk, card=uid(situation, zavulon, extra[0])),
        referee,
        now=at(11),
    )
    act(situation, engine.Answer(duel=0, fighter=anton.pk, card=None), referee, now=at(12))
    act(situation, engine.ConfirmResult(duel=0, outcome="parried", reason="dodged"), referee, now=at(13))
    act(situation, engine.EndDuel(duel=0, reason="they part"), referee, now=at(14))
    situation = services.refresh(Situation.objects.get(pk=situation.pk), now=at(400))
    assert situation.ended
    zavulon.refresh_from_db()
    assert sum(arsenal(zavulon).values()) == 6
    assert zavulon.restorable_arsenal == sorted(c.pk for c in extra)
    arsenal_service.restore_arsenal(zavulon)
    assert arsenal(zavulon) == {c.pk: 1 for c in extra}


def test_D3_S2_battle_restore_gives_back_the_new_arsenal_whole(event, referee, people, catalogue):
    event.every_round_a_bout = True  # a round of passes reaches a bout break
    event.save()
    battle = begin(event, people, referee)
    vera = people[2]
    extra = seven(catalogue)
    pool_only(vera, extra)
    vera.arsenal_limit = 7
    vera.save()
    while battle_state(battle).phase != B.BETWEEN_ROUNDS:
        act(battle, passes(battle_state(battle)), referee)
        act(battle, B.NextTurn(), referee)
    battle.refresh_from_db()
    build_between_rounds(battle, vera, [c.pk for c in extra], user=referee, seen_version=battle.version, nonce=nonce())
    act(battle, B.StartRound(), referee)
    while battle_state(battle).turn_of != vera.pk:
        act(battle, passes(battle_state(battle)), referee)
        act(battle, B.NextTurn(), referee)
    card = buid(battle, vera, "Card 0")
    act(battle, B.Act(actor=vera.pk, act=B.ATTACK, cards=(card,), targets=(people[0].pk,)), referee)
    # The card is played (D9: answered and resolved), not merely shown: an unresolved attack would go
    # back to the hand at the end and the restore would have nothing to lose.
    frame = B.top(battle_state(battle))
    assert frame is not None
    act(battle, B.AnswerAttack(frame=frame.number, defender=people[0].pk, card=None), referee)
    act(battle, B.ConfirmAnswer(frame=frame.number, defender=people[0].pk), referee)
    assert card in battle_state(battle).combatants[vera.pk].discards
    act(battle, B.EndBattle(reason="they part"), referee)
    situation = services.refresh(
        Situation.objects.get(pk=battle.pk), now=dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
    )
    assert situation.ended
    vera.refresh_from_db()
    assert sum(arsenal(vera).values()) == 6  # the played card is gone from the hand written back
    assert vera.restorable_arsenal == sorted(c.pk for c in extra)
    arsenal_service.restore_arsenal(vera)
    assert arsenal(vera) == {c.pk: 1 for c in extra}

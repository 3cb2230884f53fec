"""The post-game report's figures against a small event counted by hand (issue 15).

Five fights, played through the real services:

1. Anton (two Fireballs, two Shields) shows a Fireball to Zavulon (two Sparks, two
   Shields; aggression), Zavulon answers with the
   Mage Shield: parried, confirmed; the referee ends the duel.
2. In the same situation Zavulon shows a Spark, Anton does not answer; the
   referee overrides "not parried" to "softened" (a reason given); ends it.
3. Olga attacks Igor by surprise (instant attack) with a Fireball; Igor's only
   card, the Shield, is drawn and parries; the referee ends the duel.
4. Svetlana shows a Fireball to Egor, who lets the 15 s run out: heavily
   wounded (D8), out of the fight (D11), the duel ends.
5. Boris (a Spark in hand) declares aggression on Gleb by voice; the referee ends it at once.

By hand: 5 fights (4 by aggression, 1 instant attack), 2 answers and 1 timeout
(33.3 timeouts per 100 answers), 4 results of which 1 overridden (25 per 100),
Fireball parried twice and timed out once, Spark softened once, the Shield
parried twice, one instant attack parried without focus, one heavy wound.
"""

import datetime as dt
import uuid

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from cards.models import ArsenalCard, Card, Catalogue, CounterRule, PoolEntry
from duels import services
from duels.duel.start import declare_aggression, start_instant_attack
from duels.models import Situation
from events.models import Character, Event, StaffRole
from lab.postgame import read
from rules import duel as engine

pytestmark = pytest.mark.django_db


def nonce() -> str:
    return uuid.uuid4().hex


@pytest.fixture
def game(db, monkeypatch):
    monkeypatch.setattr("duels.services.store.schedule_expiry", lambda situation_id, deadline: None)
    catalogue = Catalogue.objects.create(name="Report catalogue")
    event = Event.objects.create(name="Report", starts_on="2026-01-01", ends_on="2099-01-01", catalogue=catalogue)
    referee = User.objects.create_user("judge")
    StaffRole.objects.create(event=event, user=referee, role=StaffRole.Role.REFEREE)
    fireball = Card.objects.create(
        catalogue=catalogue,
        name_ru="Огненный шар",
        kind="attack",
        full_effect="heavily_wounded",
        softened_effect="lightly_wounded",
        tags="fire",
    )
    spark = Card.objects.create(catalogue=catalogue, name_ru="Искра", kind="attack", full_effect="lightly_wounded")
    shield = Card.objects.create(catalogue=catalogue, name_ru="Щит мага", kind="defence")
    CounterRule.objects.create(defence_card=shield, attack_tag="fire", outcome="parried")
    return event, referee, {"fireball": fireball, "spark": spark, "shield": shield}


def character(event, name, *cards, copies=1):
    found = Character.objects.create(event=event, name=name)
    for card in cards:
        PoolEntry.objects.create(character=found, card=card, copies=copies)
        ArsenalCard.objects.create(character=found, card=card, copies=copies)
    return found


def act(situation: Situation, command, referee, now=None):
    situation.refresh_from_db()
    return services.perform(
        situation.pk, command, user=referee, seen_version=situation.version, nonce=nonce(), now=now
    ).situation


def uid(situation, fighter, card) -> str:
    situation.refresh_from_db()
    state = services.state_of(situation)
    return next(u for u in state.fighters[fighter.pk].hand if state.cards[u].card_id == card.pk)


def test_the_report_of_five_fights_matches_the_hand_count(game):
    event, referee, cards = game
    fireball, spark, shield = cards["fireball"], cards["spark"], cards["shield"]
    anton = character(event, "Anton", fireball, shield, copies=2)
    zavulon = character(event, "Zavulon", spark, shield, copies=2)
    # 1
    duel = declare_aggression(event, anton, zavulon, fireball.pk, user=referee, nonce=nonce()).situation
    act(duel, engine.Answer(duel=0, fighter=zavulon.pk, card=uid(duel, zavulon, shield)), referee)
    act(duel, engine.ConfirmResult(duel=0), referee)
    act(duel, engine.EndDuel(duel=0, reason="they parted"), referee)
    # 2
    second = declare_aggression(event, zavulon, anton, spark.pk, user=referee, nonce=nonce()).situation
    assert second.pk == duel.pk  # the same combat situation (S2)
    act(duel, engine.Answer(duel=1, fighter=anton.pk, card=None), referee)
    act(duel, engine.ConfirmResult(duel=1, outcome="softened", reason="he ducked"), referee)
    act(duel, engine.EndDuel(duel=1, reason="they parted"), referee)
    # 3
    olga, igor = character(event, "Olga", fireball), character(event, "Igor", shield)
    surprise = start_instant_attack(
        event, olga, igor, fireball.pk, out_of_sight=True, within_reach=True, user=referee, nonce=nonce()
    ).situation
    state = services.state_of(Situation.objects.get(pk=surprise.pk))
    if state.duels and state.duels[0].phase == engine.AWAIT_RESULT:
        act(surprise, engine.ConfirmResult(duel=0), referee)
    act(surprise, engine.EndDuel(duel=0, reason="they parted"), referee)
    # 4
    svetlana, egor = character(event, "Svetlana", fireball), character(event, "Egor", shield)
    timed = declare_aggression(event, svetlana, egor, fireball.pk, user=referee, nonce=nonce()).situation
    later = timezone.now() + dt.timedelta(seconds=event.answer_window_s + 5)
    services.refresh(Situation.objects.get(pk=timed.pk), now=later)
    state = services.state_of(Situation.objects.get(pk=timed.pk))
    if state.duels[0].phase == engine.AWAIT_RESULT:
        act(timed, engine.ConfirmResult(duel=0), referee, now=later)
    # 5
    boris, gleb = character(event, "Boris", spark), character(event, "Gleb")
    spoken = declare_aggression(event, boris, gleb, None, user=referee, nonce=nonce()).situation
    act(spoken, engine.EndDuel(duel=0, reason="no fight after all"), referee)

    report = read(event)

    assert report.fights == 5
    assert report.kinds == {"aggression": 4, "instant_attack": 1}
    assert report.per_referee == {"judge": 5}
    assert sum(report.per_hour.values()) == 5
    assert (report.answers, report.timeouts) == (2, 1)
    assert report.timeouts_per_100_answers == pytest.approx(100 / 3)
    assert (report.results_applied, report.overrides) == (4, 1)
    assert report.overrides_per_100_results == 25
    assert report.override_cells == {(None, spark.pk, "not_parried", "softened"): 1}
    assert report.attack_cards[fireball.pk] == {"parried": 2, "timed_out": 1}
    assert report.attack_cards[spark.pk] == {"softened": 1}
    assert report.defence_cards == {shield.pk: {"parried": 2}}
    assert report.instant == {(False, "parried"): 1}
    assert report.conditions == {"heavily_wounded": 1}
    assert report.results["fighter_out"] == 1
    assert report.average_answer_s is not None and report.average_answer_s >= 0
    assert report.characters[anton.pk]["fights"] == 1  # one situation, two duels
    assert report.cards_played[anton.pk] == {fireball.pk: 1}

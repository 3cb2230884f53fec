"""[issue 20] The post-game report on the demo after one duel, one battle and one mass battle.

Played through the real services on the demo game (demo.load()):

1. Duel: Антон shows «Огненный шар» to Завулон, who answers with «Щит мага»:
   softened (the demo's counter rules), Завулон lightly wounded; the referee
   ends the duel.
2. Battle (reactions from round 1, an event setting): Илья, Семён, Тигрёнок
   (Light) against Арина, Виталий Рогоза (Dark). Илья, the declarer, shoots
   «Огненная стрела» at Арина, who stands next to him: she answers with an
   opportunity attack, «Подножка Сумрака» (R1-R3); Илья does not answer it:
   not parried, lightly wounded. Then Арина answers the arrow with «Щит мага»:
   softened (the demo's counter rule), and its softened effect is none. The
   referee ends the battle.
3. Mass battle between the demo's two armies: the referee enters a tie
   (3-3), then 5-2; then ends the battle.

By hand: 3 fights (one of each kind); every one of the 7 characters appears
(Семён, Тигрёнок and Виталий only joined: 1 fight, nothing else), 3 answers
(Завулон's, Илья's "no answer", Арина's),
no late ones; 1 reaction (Арина's opportunity attack); the battle's results:
«Подножка Сумрака» not parried once, «Огненная стрела» softened once (and
the duel's «Огненный шар»), so «Щит мага» softened twice; two light wounds
dealt (Завулон, Илья); results: the duel and the battle ended by the referee,
the mass battle's end; 2 rolls entered by the referee, 1 tie.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from cards.models import Card
from cards.models_mass import Army
from duels import services
from duels.battle.start import start_battle
from duels.duel.start import declare_aggression
from duels.mass.start import start_mass_battle
from duels.models import Situation
from events.models import Character, Event
from lab.postgame import read
from lab.presenters import postgame_page
from rules import battle as B
from rules import duel as D
from rules import mass as M
from tests.services.kit import nonce

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(demo_event, monkeypatch):
    monkeypatch.setattr("duels.services.store.schedule_expiry", lambda situation_id, deadline: None)
    event = demo_event
    Event.objects.filter(pk=event.pk).update(reactions_from_round=1)
    event.refresh_from_db()
    referee = event.staff.get(role="referee").user
    people = {c.name: c for c in Character.objects.filter(event=event)}
    card = {c.name_ru: c for c in Card.objects.filter(catalogue=event.catalogue)}

    def act(situation: Situation, command) -> None:
        situation.refresh_from_db()
        services.perform(situation.pk, command, user=referee, seen_version=situation.version, nonce=nonce())

    def uid(situation: Situation, who: Character, name: str) -> str:
        situation.refresh_from_db()
        state = services.state_of(situation)
        if situation.kind == "duel":
            return next(u for u in state.fighters[who.pk].hand if state.cards[u].card_id == card[name].pk)
        return next(u for u in state.combatants[who.pk].hand if state.cards[u].face.card_id == card[name].pk)

    # 1. The duel.
    anton, zavulon = people["Антон Городецкий"], people["Завулон"]
    duel = declare_aggression(event, anton, zavulon, card["Огненный шар"].pk, user=referee, nonce=nonce()).situation
    act(duel, D.Answer(duel=0, fighter=zavulon.pk, card=uid(duel, zavulon, "Щит мага")))
    act(duel, D.ConfirmResult(duel=0))
    duel.refresh_from_db()
    if not duel.ended:
        act(duel, D.EndDuel(duel=0, reason="they parted"))

    def top(situation: Situation) -> B.Frame:
        frame = B.top(services.state_of(Situation.objects.get(pk=situation.pk)))
        assert frame is not None
        return frame

    # 2. The battle.
    ilya, arina = people["Илья"], people["Арина"]
    group = [people[n] for n in ("Илья", "Семён", "Тигрёнок", "Арина", "Виталий Рогоза")]
    battle = start_battle(event, group, declarer=ilya, user=referee, nonce=nonce()).situation
    act(
        battle,
        B.Act(
            actor=ilya.pk,
            act=B.ATTACK,
            cards=(uid(battle, ilya, "Огненная стрела"),),
            targets=(arina.pk,),
            engaged=(arina.pk,),
        ),
    )
    arrow = top(battle)
    act(battle, B.Opportunity(reactor=arina.pk, frame=arrow.number, card=uid(battle, arina, "Подножка Сумрака")))
    trip = top(battle)
    act(battle, B.AnswerAttack(frame=trip.number, defender=ilya.pk, card=None))
    act(battle, B.ConfirmAnswer(frame=trip.number, defender=ilya.pk))
    act(battle, B.Proceed(frame=top(battle).number))
    act(battle, B.AnswerAttack(frame=arrow.number, defender=arina.pk, card=uid(battle, arina, "Щит мага")))
    act(battle, B.ConfirmAnswer(frame=arrow.number, defender=arina.pk))
    act(battle, B.EndBattle(reason="dusk"))

    # 3. The mass battle.
    first, second = Army.objects.filter(event=event).order_by("pk")[:2]
    mass = start_mass_battle(event, first, second, user=referee, nonce=nonce()).situation
    act(mass, M.RollInitiative(source="referee", dice=(3, 3)))
    act(mass, M.RollInitiative(source="referee", dice=(5, 2)))
    act(mass, M.EndBattle(reason="dusk"))
    return event, people, card


def test_the_report_counts_a_duel_a_battle_and_a_mass_battle(played):
    event, people, card = played
    report = read(event)
    assert report.fights == 3
    assert report.kinds == {"aggression": 1, "battle": 1, "mass_battle": 1}
    # Every participant appears; who only joined the battle has one fight and nothing else.
    fighters = ["Антон Городецкий", "Завулон", "Илья", "Семён", "Тигрёнок", "Арина", "Виталий Рогоза"]
    assert {people[n].pk for n in fighters} == set(report.characters)
    assert all(report.characters[people[n].pk]["fights"] == 1 for n in fighters)
    for name in ("Семён", "Тигрёнок", "Виталий Рогоза"):
        assert report.characters[people[name].pk] == {"fights": 1}
    assert (report.answers, report.timeouts) == (3, 0)
    assert report.reactions == {"opportunity": 1}
    assert report.characters[people["Арина"].pk]["reactions"] == 1
    assert report.attack_cards[card["Подножка Сумрака"].pk] == {"not_parried": 1}
    assert report.attack_cards[card["Огненная стрела"].pk] == {"softened": 1}
    assert report.attack_cards[card["Огненный шар"].pk] == {"softened": 1}
    assert report.defence_cards == {card["Щит мага"].pk: {"softened": 2}}
    assert report.cards_played[people["Илья"].pk] == {card["Огненная стрела"].pk: 1}
    assert report.cards_played[people["Арина"].pk] == {card["Подножка Сумрака"].pk: 1, card["Щит мага"].pk: 1}
    assert report.characters[people["Арина"].pk]["attacks_won"] == 1
    assert report.conditions == {"lightly_wounded": 2}
    assert report.results == {"ended_by_referee": 2, "mass_battle_ended": 1}
    assert report.rolls == {"referee": 2, "tied": 1}


def test_the_report_page_shows_every_kind(played, as_user):
    event, _people, _card = played
    referee = event.staff.get(role="referee").user
    page = as_user(referee).get(reverse("lab:postgame", args=[event.pk])).content.decode()
    for section in ("table-results", "table-conditions", "table-reactions", "table-rolls", "chart-results"):
        assert f'id="{section}"' in page
    assert "Виталий Рогоза" in page and "Тигрёнок" in page
    figures = postgame_page(event, read(event))
    characters = {row[0]: row for row in figures["tables"]["characters"][1]}
    assert characters["Арина"][1:] == [1, 1, 0, 0, 2, 1]
    assert characters["Семён"][1:] == [1, 0, 0, 0, 0, 0]

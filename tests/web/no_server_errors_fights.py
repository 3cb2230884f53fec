"""One fight of every kind, running and ended, added to the world of ``no_server_errors_kit``.

``add_every_kind(world, personas)`` adds to ``world.event``: a running battle (an
attack's answer window open), an ended battle, a duel grown into a battle (the
duel closed, the battle running), a running mass battle (the world's) and an
ended one. ``world.fights`` lists them with the ids a URL of each may take:
the situation, a participant (character, secret link) and, for a mass battle,
an army's link and a side. ``test_no_server_errors_kinds.py`` walks every URL
with each.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.utils import timezone

from duels import services
from duels.battle.start import grow_into_battle
from duels.duel.start import declare_aggression
from duels.models import Situation
from events.models import Character, Event
from rules import battle as B
from rules import mass as M
from tests.services.battle_kit import battle_cards, begin, buid, party
from tests.services.kit import nonce


@dataclass
class Fight:
    label: str
    situation: Situation
    ids: dict[str, Any] = field(default_factory=dict)


def _perform(situation: Situation, command: Any, user: User) -> None:
    situation.refresh_from_db()
    services.perform(situation.pk, command, user=user, seen_version=situation.version, nonce=nonce())


def _battle_ids(situation: Situation, character: Character) -> dict[str, Any]:
    # The mass battle's URLs with a battle's or a duel's id: another kind's fight is never a 500.
    ids = {"situation": situation.pk, "mass": situation.pk, "mass_tablet": situation.pk}
    return {**ids, "character": character.pk, "token": character.link_token}


def _mass_ids(situation: Situation) -> dict[str, Any]:
    from cards.models_mass import Army

    army = Army.objects.get(pk=situation.opening["armies"]["a"])
    return {
        "mass": situation.pk,
        "mass_tablet": situation.pk,
        "situation": situation.pk,
        "army_token": str(army.link_token),
    }


def _ended_mass(event: Event, user: User) -> Situation:
    from cards.models_mass import Army, Warrior, WarriorType
    from duels.mass.start import start_mass_battle

    kind = WarriorType.objects.filter(event=event).first() or WarriorType.objects.create(event=event, name_ru="Воин")
    armies = [Army.objects.create(event=event, name=name) for name in ("Green", "White")]
    for army in armies:
        for n in range(1, 4):
            Warrior.objects.create(army=army, name=str(n), warrior_type=kind)
    situation = start_mass_battle(event, *armies, user=user, nonce=nonce()).situation
    _perform(situation, M.EndBattle(reason="dusk"), user)
    situation.refresh_from_db()
    assert situation.ended
    return situation


def add_every_kind(w: Any, personas: dict[str, User | None]) -> Any:
    referee = personas["referee"]
    assert referee is not None
    event = w.event
    Event.objects.filter(pk=event.pk).update(battles_on=True)
    event.refresh_from_db()
    cards = battle_cards(event.catalogue)

    # A running battle, an attack's answer window open; the other player holds one of its combatants.
    running = party(event, 4, cards, first=4)
    Character.objects.filter(pk=running[0].pk).update(player=personas["other_player"])
    battle = begin(event, running, referee)
    state = services.state_of(battle)
    actor = next(c for c in running if c.pk == state.turn_of)
    target = next(c for c in running if c.side != actor.side)
    _perform(
        battle,
        B.Act(actor=actor.pk, act=B.ATTACK, cards=(buid(battle, actor, "Blade"),), targets=(target.pk,)),
        referee,
    )

    # An ended battle.
    ended_people = party(event, 4, cards, first=8)
    ended = begin(event, ended_people, referee)
    _perform(ended, B.EndBattle(reason="dusk"), referee)
    # S2: the battle is over but its situation lasts until the gap; read it once past the gap.
    past_gap = timezone.now() + dt.timedelta(seconds=event.situation_gap_s + 1)
    ended = services.refresh(Situation.objects.get(pk=ended.pk), now=past_gap)
    assert ended.ended

    # A duel grown into a battle: the player's new character joins it.
    first, newcomer, second = party(event, 3, cards, first=12)  # Light, Light, Dark
    duelists = [first, second]
    Character.objects.filter(pk=newcomer.pk).update(player=personas["player"])
    duel = declare_aggression(event, duelists[0], duelists[1], None, user=referee, nonce=nonce()).situation
    duel.refresh_from_db()
    grown = grow_into_battle(
        duel, newcomer, declarer=newcomer, user=referee, seen_version=duel.version, nonce=nonce()
    ).situation
    duel.refresh_from_db()
    assert duel.ended and not grown.ended

    mass_ended = _ended_mass(event, referee)
    w.fights = [
        Fight("duel running", w.running, _battle_ids(w.running, w.character)),
        Fight("duel ended", w.finished, _battle_ids(w.finished, w.character)),
        Fight("battle running", battle, _battle_ids(battle, target)),
        Fight("battle ended", ended, _battle_ids(ended, ended_people[0])),
        Fight("battle grown", grown, _battle_ids(grown, newcomer)),
        Fight("duel grown into a battle", duel, _battle_ids(duel, duelists[0])),
        Fight("mass running", w.mass, _mass_ids(w.mass)),
        Fight("mass ended", mass_ended, _mass_ids(mass_ended)),
    ]
    return w

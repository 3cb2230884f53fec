"""A battle-ready party for service, web and browser tests: two Light against two Dark.

Every character holds Blade x2 (melee), Bolt (ranged), Nova (area), Shield
(defence, parries missiles), Counterspell (immediate interrupt), Riposte
(immediate response attack) and Snap (opportunity attack).
"""

from __future__ import annotations

from typing import Any

from cards.models import Card, Catalogue
from duels import services
from duels.battle.start import start_battle
from duels.models import Situation
from events.models import Character, Event, Side
from rules import battle as B
from tests.services.kit import arm, nonce, parries

NAMES = (("Anna", Side.LIGHT), ("Boris", Side.LIGHT), ("Vera", Side.DARK), ("Gleb", Side.DARK))


def battle_cards(catalogue: Catalogue) -> dict[str, Card]:
    def card(key: str, ru: str, kind: str, **kw: Any) -> Card:
        found = Card.objects.filter(catalogue=catalogue, name_ru=ru).first()
        return found or Card.objects.create(catalogue=catalogue, name_ru=ru, name_en=key, kind=kind, **kw)

    cards = {
        # BP2: the Blade grants a double attack (the catalogue's property).
        "Blade": card("Blade", "Клинок", "attack", full_effect="lightly_wounded", double_attack=True),
        "Bolt": card("Bolt", "Стрела", "attack", full_effect="lightly_wounded", tags="ranged, missile"),
        "Nova": card("Nova", "Вспышка", "attack", full_effect="lightly_wounded", tags="area"),
        "Shield": card("Shield", "Щит", "defence"),
        "Counterspell": card(
            "Counterspell", "Контрзаклятие", "defence", action_kind="interrupt", trigger_text="an enemy casts at you"
        ),
        "Riposte": card(
            "Riposte",
            "Ответный удар",
            "attack",
            full_effect="lightly_wounded",
            action_kind="response",
            trigger_text="you are attacked",
        ),
        "Snap": card("Snap", "Подсечка", "attack", full_effect="lightly_wounded", action_kind="opportunity"),
    }
    if not cards["Shield"].counters.exists():
        parries(cards["Shield"], "missile")
    return cards


def party(event: Event, count: int = 4, cards: dict[str, Card] | None = None, first: int = 0) -> list[Character]:
    if not cards:
        assert event.catalogue is not None, "the party's cards come from the event's catalogue"
        cards = battle_cards(event.catalogue)
    people = []
    for i in range(first, first + count):
        # Whatever ``first``, the party's sides run Light, Light, Dark, Dark, ...
        side = NAMES[(i - first) % len(NAMES)][1]
        name = NAMES[i][0] if i < len(NAMES) else f"Extra {i}"
        character = Character.objects.create(event=event, name=name, side=side)
        arm(
            character,
            (cards["Blade"], 2),
            *(cards[k] for k in ("Bolt", "Nova", "Shield", "Counterspell", "Riposte", "Snap")),
        )
        people.append(character)
    return people


def begin(event: Event, people: list[Character], user: Any, **kw: Any) -> Situation:
    kw.setdefault("declarer", people[0])
    performed = start_battle(event, people, user=user, nonce=nonce(), **kw)
    return performed.situation


def battle_state(situation: Situation) -> B.Battle:
    situation.refresh_from_db()
    return services.state_of(situation)


def passes(state: B.Battle) -> B.Act:
    """The one whose turn it is passes (a test walking a battle to a later turn or round)."""
    assert state.turn_of is not None, "nobody's turn: the battle is between rounds or over"
    return B.Act(actor=state.turn_of, act=B.PASS)


def buid(situation: Situation, character: Character, name: str, n: int = 0) -> str:
    st = battle_state(situation)
    found = [u for u in st.combatants[character.pk].hand if st.cards[u].face.name == name]
    return found[n]


def top(situation: Situation) -> B.Frame:
    frame = B.top(battle_state(situation))
    assert frame is not None
    return frame

"""Builders for mass-battle tests: a small catalogue of magic cards, an armlist, two armies.

Deck 2: Fire Rain (fire, harmful) and Wind Ward (wind, helpful, keepable).
Deck 4: Water Lash (water, harmful) and Stone Skin (earth, helpful).
Deck 5: Bright Banner (universal, helpful, keepable).
Deck 6: Flame Wall (fire, harmful, 2 copies) and Warm Wind (fire, helpful).
No card acts on protected warriors (M3): protection covers every card of its types.
Armlist: Salamander (protected from fire), Spearman (no protection), Sylph (wind, fire).
"""

from __future__ import annotations

import uuid
from typing import Any

import rules.mass as magic
from cards.models_mass import Army, MagicCard, Warrior, WarriorType
from duels import services
from duels.mass.start import start_mass_battle
from duels.models import Situation
from events.models import Event

CARDS = [
    # name_en, deck, type, acts_on_protected, keepable, copies
    ("Fire Rain", 2, "fire", False, False, 1),
    ("Wind Ward", 2, "wind", False, True, 1),
    ("Water Lash", 4, "water", False, False, 1),
    ("Stone Skin", 4, "earth", False, False, 1),
    ("Bright Banner", 5, "universal", False, True, 1),
    ("Flame Wall", 6, "fire", False, False, 2),
    ("Warm Wind", 6, "fire", False, False, 1),
]


def nonce() -> str:
    return uuid.uuid4().hex


def magic_cards(event: Event) -> dict[str, MagicCard]:
    out = {}
    assert event.catalogue is not None
    for name, deck, kind, acts_on_protected, keepable, copies in CARDS:
        out[name] = MagicCard.objects.create(
            catalogue=event.catalogue,
            name_ru=name + " (ru)",
            name_en=name,
            deck=deck,
            magic_type=kind,
            text=f"{name}: the referee reads this aloud.",
            acts_on_protected=acts_on_protected,
            keepable=keepable,
            copies=copies,
        )
    return out


def armies(event: Event, commander_a: Any = None, commander_b: Any = None) -> tuple[Army, Army]:
    types = {
        "Salamander": WarriorType.objects.create(
            event=event, name_ru="Саламандра", name_en="Salamander", protections="fire"
        ),
        "Spearman": WarriorType.objects.create(event=event, name_ru="Копейщик", name_en="Spearman"),
        "Sylph": WarriorType.objects.create(event=event, name_ru="Сильф", name_en="Sylph", protections="wind,fire"),
    }
    red = Army.objects.create(event=event, name="Red", commander=commander_a, commander_name="Red Khan")
    blue = Army.objects.create(event=event, name="Blue", commander=commander_b)
    for army in (red, blue):
        Warrior.objects.create(army=army, name=f"{army.name} salamander", warrior_type=types["Salamander"])
        Warrior.objects.create(army=army, name=f"{army.name} spear 1", warrior_type=types["Spearman"])
        Warrior.objects.create(
            army=army, name=f"{army.name} spear 2", warrior_type=types["Spearman"], state=Warrior.State.HOSPITAL
        )
        Warrior.objects.create(army=army, name=f"{army.name} sylph", warrior_type=types["Sylph"])
    return red, blue


def in_catalogue_order(monkeypatch, *on_top: MagicCard) -> None:
    """Make the 'shuffle' keep catalogue order (first created card on top), ``on_top`` cards first."""
    first = [card.pk for card in on_top]

    def ordered(uids):
        def key(u):
            card_id, copy = (int(p) for p in u.split("."))
            return (first.index(card_id) if card_id in first else len(first), card_id, copy)

        return tuple(sorted(uids, key=key))

    monkeypatch.setattr("duels.mass.kind.shuffled", ordered)


def start(event: Event, user: Any, red: Army, blue: Army) -> Situation:
    event.mass_battles_on = True
    event.save(update_fields=["mass_battles_on"])
    return start_mass_battle(event, red, blue, user=user, nonce=nonce()).situation


def state(situation: Situation) -> magic.MassBattle:
    situation.refresh_from_db()
    return services.state_of(situation)


def act(situation: Situation, command: Any, user: Any) -> services.Performed:
    situation.refresh_from_db()
    return services.perform(situation.pk, command, user=user, seen_version=situation.version, nonce=nonce())


def undo(situation: Situation, user: Any, reason: str = "misread the die") -> services.Performed:
    situation.refresh_from_db()
    return services.undo_last(situation.pk, user=user, reason=reason, seen_version=situation.version, nonce=nonce())


def events(performed: services.Performed) -> list[dict[str, Any]]:
    """The events of a service call as logged (typed events become their dicts)."""
    return [e if isinstance(e, dict) else e.to_dict() for e in performed.events]


def types(performed: services.Performed) -> list[str]:
    return [e["type"] for e in events(performed)]


def wid(situation: Situation, name: str) -> str:
    return next(w.wid for w in state(situation).warriors.values() if w.name == name)


def uid_of(card: MagicCard, copy: int = 1) -> str:
    return f"{card.pk}.{copy}"


def assert_replays(situation: Situation) -> None:
    situation.refresh_from_db()
    assert magic.to_dict(services.replayed(situation)) == situation.state


def ready(situation: Situation, user: Any, a: int, b: int, starter: str = "a") -> None:
    """Referee-entered dice (M8) and the winner's choice (M4), so ``starter`` acts first."""
    act(situation, magic.RollInitiative(source=magic.REFEREE, dice=(a, b)), user)
    winner = "a" if a > b else "b"
    act(situation, magic.ChooseStarter(side=winner, starts=winner == starter), user)

"""The magic phase of a mass battle (M1-M8): pure rules, no Django.

``open_battle`` builds the state from the catalogue's cards and the armlists'
warriors; ``apply`` runs one command; ``replay`` rebuilds a battle from its
log. The deck order and the dice are inputs inside the commands.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.mass.commands import (
    COMMAND_TYPES,
    CarryOut,
    ChooseStarter,
    EndBattle,
    EndTurn,
    KeepCard,
    MassCommand,
    MoveWarrior,
    NextCycle,
    RollInitiative,
    ShuffleDecks,
    UseKept,
    UsePoints,
    command_from_dict,
    command_to_dict,
)
from rules.mass.phase import (
    DIES,
    DRAW,
    MAY_DRAW,
    RETURNS,
    apply,
    casualties_open,
    deck_belief,
    deck_contents,
    drawable,
    kept_usable,
    may_keep,
    next_roll,
    points_use,
)
from rules.mass.state import (
    CHOOSE,
    DEAD,
    DECKS,
    DEFAULT_KEEPABLE_DECKS,
    DICE_SOURCES,
    EARTH,
    FIELD,
    FIRE,
    HOSPITAL,
    INITIATIVE,
    MAGIC_TYPES,
    OVER,
    REFEREE,
    SERVER,
    SIDES,
    STAGES,
    TURNS,
    UNIVERSAL,
    WARRIOR_PLACES,
    WATER,
    WIND,
    Effect,
    Kept,
    MagicFace,
    MagicSettings,
    MassBattle,
    Pending,
    Roll,
    Side,
    Warrior,
    from_dict,
    open_battle,
    to_dict,
)


def replay(opening: MassBattle, commands: Iterable[object]) -> MassBattle:
    """Apply the logged commands in order; a refusal means the log is corrupt and propagates."""
    state = opening
    for command in commands:
        state, _events = apply(state, command)
    return state


def uids_everywhere(state: MassBattle) -> list[str]:
    """Every place a magic card can be, flattened: each uid must appear exactly once (conservation)."""
    found = [uid for deck in DECKS for uid in state.decks[deck]]
    found += [k.uid for side in state.sides.values() for k in side.kept]
    if state.pending is not None:
        found.append(state.pending.uid)
    return found


__all__ = [
    "CHOOSE",
    "COMMAND_TYPES",
    "DEAD",
    "DECKS",
    "DEFAULT_KEEPABLE_DECKS",
    "DICE_SOURCES",
    "DIES",
    "DRAW",
    "EARTH",
    "FIELD",
    "FIRE",
    "HOSPITAL",
    "INITIATIVE",
    "MAGIC_TYPES",
    "MAY_DRAW",
    "OVER",
    "REFEREE",
    "RETURNS",
    "SERVER",
    "SIDES",
    "STAGES",
    "TURNS",
    "UNIVERSAL",
    "WARRIOR_PLACES",
    "WATER",
    "WIND",
    "CarryOut",
    "ChooseStarter",
    "Effect",
    "EndBattle",
    "EndTurn",
    "KeepCard",
    "Kept",
    "MagicFace",
    "MagicSettings",
    "MassBattle",
    "MassCommand",
    "MoveWarrior",
    "NextCycle",
    "Pending",
    "Roll",
    "RollInitiative",
    "ShuffleDecks",
    "Side",
    "UseKept",
    "UsePoints",
    "Warrior",
    "apply",
    "casualties_open",
    "command_from_dict",
    "command_to_dict",
    "deck_belief",
    "deck_contents",
    "drawable",
    "from_dict",
    "kept_usable",
    "may_keep",
    "next_roll",
    "open_battle",
    "points_use",
    "replay",
    "to_dict",
    "uids_everywhere",
]

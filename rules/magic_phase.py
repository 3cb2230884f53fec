"""The magic phase of a mass battle (rules M1-M8, seed 002).

Chance is an input, as everywhere in the engine: deck shuffles arrive as an
order of card ids, dice as numbers with their source (rolled by the server or
read off real dice by the referee, M8), so a phase can be replayed from its log.

Readings (docs/battle-rules.md): with no wounded warrior, 1 and 3 points do
nothing; the player chooses which wounded warrior; only decks 2 and 5 hold
cards that may be kept ("use when you see fit"), an event deck setting.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Final

from .errors import INPUT, RuleError, gettext_noop
from .events import Event

DECKS: Final[tuple[int, ...]] = (2, 4, 5, 6)  # M1
KEEPABLE_DECKS: Final[frozenset[int]] = frozenset({2, 5})  # M5 reading
MAGIC_TYPES: Final[tuple[str, ...]] = ("universal", "wind", "earth", "water", "fire")  # M2
DICE_SOURCES: Final[frozenset[str]] = frozenset({"server", "referee"})  # M8
OPTIONAL_DRAW: Final[frozenset[int]] = frozenset({4, 5, 6})  # M5: "may take"


@dataclass(frozen=True)
class MagicCard:
    card_id: int
    deck: int
    magic_type: str
    negative: bool = True  # harms the warriors it targets (M3)
    keepable: bool = False  # "use when you see fit" (M5)

    def __post_init__(self) -> None:
        if self.deck not in DECKS:
            raise RuleError("M1", gettext_noop("A magic card belongs to deck 2, 4, 5 or 6."))
        if self.magic_type not in MAGIC_TYPES:
            raise RuleError("M2", gettext_noop("Unknown type of magic: %(type)s."), type=self.magic_type)


@dataclass(frozen=True)
class Roll:
    player: str
    value: int
    source: str  # M8


@dataclass(frozen=True)
class ActiveEffect:
    card_id: int
    player: str
    until_cycle: int  # M6: lasts one game cycle from when it is applied


@dataclass
class PlayerSide:
    name: str
    hospital: list[str] = field(default_factory=list)  # wounded warriors
    field_: list[str] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)  # cards kept to use later (M5)


@dataclass
class MagicPhase:
    cards: dict[int, MagicCard]
    decks: dict[int, list[int]]  # top of the deck first
    players: dict[str, PlayerSide]
    cycle: int = 1
    rolls: list[Roll] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=dict)
    initiative_winner: str | None = None
    order: list[str] = field(default_factory=list)  # who acts first, second
    acted: list[str] = field(default_factory=list)
    effects: list[ActiveEffect] = field(default_factory=list)


def setup(cards: list[MagicCard], shuffled: dict[int, list[int]], players: list[PlayerSide]) -> MagicPhase:
    """M1: sort the cards into the four decks by the number on their back, each shuffled."""
    by_id = {c.card_id: c for c in cards}
    decks: dict[int, list[int]] = {}
    for deck in DECKS:
        expected = sorted(c.card_id for c in cards if c.deck == deck)
        order = list(shuffled.get(deck, []))
        if sorted(order) != expected:
            raise RuleError("M1", gettext_noop("Deck %(deck)s must hold exactly its own cards."), deck=deck)
        decks[deck] = order
    if len(players) != 2 or players[0].name == players[1].name:
        raise RuleError(INPUT, gettext_noop("The magic phase is played by two players."))
    return MagicPhase(cards=by_id, decks=decks, players={p.name: copy.deepcopy(p) for p in players})


def affects(card: MagicCard, protections: frozenset[str]) -> bool:
    """M3: a warrior protected against a type ignores negative cards of that type."""
    return not (card.negative and card.magic_type in protections)


def _check_die(value: int, source: str) -> None:
    if not 1 <= value <= 6:
        raise RuleError("M8", gettext_noop("A die shows 1 to 6, not %(value)s."), value=value)
    if source not in DICE_SOURCES:
        raise RuleError("M8", gettext_noop("A roll is made by the server or entered by the referee."))


def roll_initiative(state: MagicPhase, rolls: dict[str, int], source: str) -> tuple[MagicPhase, list[Event]]:
    """M4: both roll; a tie is rolled again. The rolls become the magic points (M5)."""
    if state.initiative_winner is not None:
        raise RuleError("M4", gettext_noop("Initiative is already decided."))
    if set(rolls) != set(state.players):
        raise RuleError("M4", gettext_noop("Both players roll one die."))
    for value in rolls.values():
        _check_die(value, source)
    new = copy.deepcopy(state)
    new.rolls.extend(Roll(player, value, source) for player, value in rolls.items())
    a, b = list(rolls)
    events: list[Event] = [{"type": "initiative_rolled", "rolls": dict(rolls), "source": source}]
    if rolls[a] == rolls[b]:
        events.append({"type": "initiative_tied"})
        return new, events
    new.initiative_winner = a if rolls[a] > rolls[b] else b
    new.points = dict(rolls)
    events.append({"type": "initiative_won", "player": new.initiative_winner})
    return new, events


def choose_starter(state: MagicPhase, chooser: str, starts: bool) -> MagicPhase:
    """M4: the winner either starts or makes the opponent start."""
    if state.initiative_winner is None or chooser != state.initiative_winner:
        raise RuleError("M4", gettext_noop("Only the winner of the initiative chooses who starts."))
    if state.order:
        raise RuleError("M4", gettext_noop("The order is already chosen."))
    other = next(p for p in state.players if p != chooser)
    new = copy.deepcopy(state)
    new.order = [chooser, other] if starts else [other, chooser]
    return new


def _whose_turn(state: MagicPhase) -> str | None:
    for player in state.order:
        if player not in state.acted:
            return player
    return None


def _draw(state: MagicPhase, deck: int) -> int:
    if not state.decks[deck]:
        raise RuleError("M1", gettext_noop("Deck %(deck)s is empty."), deck=deck)
    return state.decks[deck].pop(0)


def _carry_out(state: MagicPhase, player: str, card_id: int, events: list[Event]) -> None:
    # M6 one cycle from now; M7 the used card goes to the bottom of its own deck.
    state.effects.append(ActiveEffect(card_id, player, until_cycle=state.cycle + 1))
    state.decks[state.cards[card_id].deck].append(card_id)
    events.append({"type": "magic_card_applied", "player": player, "card": card_id})


def use_points(
    state: MagicPhase, player: str, *, warrior: str | None = None, take_card: bool = True
) -> tuple[MagicPhase, list[Event]]:
    """M5: a player's own roll decides what they do in the phase, in turn order."""
    if not state.order:
        raise RuleError("M4", gettext_noop("Roll for initiative and choose who starts first."))
    if _whose_turn(state) != player:
        raise RuleError("M4", gettext_noop("It is not this player's turn in the magic phase."))
    new = copy.deepcopy(state)
    side = new.players[player]
    points = new.points[player]
    events: list[Event] = [{"type": "magic_points", "player": player, "points": points}]
    if points in (1, 3):
        if side.hospital:
            if warrior not in side.hospital:
                raise RuleError("M5", gettext_noop("Choose one of your wounded warriors in the hospital."))
            side.hospital.remove(warrior)
            if points == 1:
                side.dead.append(warrior)
                events.append({"type": "warrior_died", "player": player, "warrior": warrior})
            else:
                side.field_.append(warrior)
                events.append({"type": "warrior_returned", "player": player, "warrior": warrior})
        else:
            events.append({"type": "nothing_happens", "player": player})
    elif points == 2 or (points in OPTIONAL_DRAW and take_card):
        card_id = _draw(new, points)
        card = new.cards[card_id]
        events.append({"type": "magic_card_drawn", "player": player, "card": card_id, "deck": points})
        if card.keepable and points in KEEPABLE_DECKS:
            side.kept.append(card_id)
            events.append({"type": "magic_card_kept", "player": player, "card": card_id})
        else:
            _carry_out(new, player, card_id, events)
    else:
        events.append({"type": "card_declined", "player": player, "deck": points})
    new.acted.append(player)
    return new, events


def use_kept_card(state: MagicPhase, player: str, card_id: int) -> tuple[MagicPhase, list[Event]]:
    """M5: a kept card is used during a later turn of its holder."""
    if card_id not in state.players[player].kept:
        raise RuleError("M5", gettext_noop("This player does not hold that card."))
    new = copy.deepcopy(state)
    new.players[player].kept.remove(card_id)
    events: list[Event] = []
    _carry_out(new, player, card_id, events)
    return new, events


def next_cycle(state: MagicPhase) -> MagicPhase:
    """M6: effects applied in the last cycle lapse; a new phase begins with new rolls."""
    new = copy.deepcopy(state)
    new.cycle += 1
    new.effects = [e for e in new.effects if e.until_cycle > new.cycle]
    new.initiative_winner = None
    new.points = {}
    new.order = []
    new.acted = []
    return new

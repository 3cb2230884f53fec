"""The state of a mass battle's magic phase (M1-M8), as plain data.

Card conservation: every magic card (one uid per physical copy) is in exactly
one place - a deck (top first), a side's kept cards, or ``pending`` (drawn
and being carried out). Warriors are listed once each with their place:
on the field, wounded in the hospital, or dead.

The persistence layer caches ``to_dict(state)`` as JSON and rebuilds it by
replaying the log from the opening state, so everything here round-trips.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from rules import snapshots
from rules.errors import INPUT, RuleError, gettext_noop

DECKS: Final[tuple[int, ...]] = (2, 4, 5, 6)  # M1
UNIVERSAL: Final = "universal"
WIND: Final = "wind"
EARTH: Final = "earth"
WATER: Final = "water"
FIRE: Final = "fire"
MAGIC_TYPES: Final[tuple[str, ...]] = (UNIVERSAL, WIND, EARTH, WATER, FIRE)  # M2
SERVER: Final = "server"
REFEREE: Final = "referee"
DICE_SOURCES: Final[tuple[str, ...]] = (SERVER, REFEREE)  # M8
MANDATORY_DRAW: Final = 2  # M5: "take a card from deck 2"
OPTIONAL_DRAWS: Final[frozenset[int]] = frozenset({4, 5, 6})  # M5: "may take"
DEFAULT_KEEPABLE_DECKS: Final[tuple[int, ...]] = (2, 5)  # M5 reading, an event setting

FIELD: Final = "field"
HOSPITAL: Final = "hospital"
DEAD: Final = "dead"
WARRIOR_PLACES: Final[tuple[str, ...]] = (FIELD, HOSPITAL, DEAD)

SIDES: Final[tuple[str, ...]] = ("a", "b")

# Stages of one game cycle's magic phase.
INITIATIVE: Final = "initiative"  # both roll (M4)
CHOOSE: Final = "choose"  # the winner chooses who starts (M4)
TURNS: Final = "turns"  # each side acts with its points (M5)
OVER: Final = "over"  # the phase is over: the physical battle, its casualties, then the next cycle
STAGES: Final[tuple[str, ...]] = (INITIATIVE, CHOOSE, TURNS, OVER)


@dataclass(frozen=True)
class MagicSettings:
    keepable_decks: tuple[int, ...] = DEFAULT_KEEPABLE_DECKS
    # M1 reading, an event setting: the decks are real, printed ones; the referee records each card drawn.
    printed_decks: bool = False

    def __post_init__(self) -> None:
        if any(deck not in DECKS for deck in self.keepable_decks):
            raise RuleError("M1", gettext_noop("A magic card belongs to deck 2, 4, 5 or 6."))


@dataclass(frozen=True)
class MagicFace:
    """One physical magic card: what the rules need of it (names and text stay in the catalogue)."""

    uid: str
    card_id: int
    deck: int
    magic_type: str
    acts_on_protected: bool = False  # M3: the organizer's exception - it acts on protected warriors too
    keepable: bool = False  # "use when you see fit" (M5)

    def __post_init__(self) -> None:
        if self.deck not in DECKS:
            raise RuleError("M1", gettext_noop("A magic card belongs to deck 2, 4, 5 or 6."))
        if self.magic_type not in MAGIC_TYPES:
            raise RuleError("M2", gettext_noop("Unknown type of magic: %(type)s."), type=self.magic_type)

    def __deepcopy__(self, memo: dict[int, Any]) -> MagicFace:
        # Immutable all through: a deep copy of the battle shares it (and its key, rules/snapshots.py).
        return self


@dataclass
class Warrior:
    wid: str
    side: str
    name: str
    type_name: str = ""
    protections: tuple[str, ...] = ()  # M3: the armlist's "protection from magic"
    place: str = FIELD

    def protected_from(self, face: MagicFace) -> bool:
        """M3: no card of a type the warrior is protected against acts on them (positive ones included),
        unless the organizer marked that card as one that acts on protected warriors too."""
        return face.magic_type in self.protections and not face.acts_on_protected


@dataclass
class Kept:
    uid: str
    cycle: int  # drawn in this cycle; usable only in a later one (M5)


@dataclass
class Side:
    key: str
    name: str
    commander: str = ""
    kept: list[Kept] = field(default_factory=list)


@dataclass
class Roll:
    cycle: int
    a: int
    b: int
    source: str  # M8


@dataclass
class Pending:
    """A drawn (or kept, now used) card the side is carrying out."""

    uid: str
    side: str
    from_kept: bool = False


@dataclass
class Effect:
    """A carried-out card (M6): on whom it acted, and the cycle at whose start it ends."""

    uid: str
    card_id: int
    side: str  # who used it
    cycle: int  # applied in
    ends_cycle: int  # gone when this cycle begins: one game cycle after it was applied
    target_side: str | None = None
    affected: list[str] = field(default_factory=list)
    unaffected: list[str] = field(default_factory=list)  # protected (M3)


@dataclass
class MassBattle:
    settings: MagicSettings
    cards: dict[str, MagicFace]
    warriors: dict[str, Warrior]
    sides: dict[str, Side]
    decks: dict[int, list[str]] = field(default_factory=lambda: {deck: [] for deck in DECKS})
    # Printed decks (M1): how many cards at the top of each deck lie in an order nobody knows (shuffled by
    # hand); the rest, below, are the cards used since, in the order they were put under (M7).
    shuffled_part: dict[int, int] = field(default_factory=lambda: {deck: 0 for deck in DECKS})
    shuffled: bool = False
    cycle: int = 1
    stage: str = INITIATIVE
    rolls: list[Roll] = field(default_factory=list)
    points: dict[str, int] = field(default_factory=dict)
    winner: str | None = None
    order: list[str] = field(default_factory=list)
    used_points: list[str] = field(default_factory=list)
    done: list[str] = field(default_factory=list)
    pending: Pending | None = None
    effects: list[Effect] = field(default_factory=list)
    ended: bool = False

    def whose_turn(self) -> str | None:
        if self.stage != TURNS:
            return None
        return next((side for side in self.order if side not in self.done), None)

    def other(self, side: str) -> str:
        return SIDES[1] if side == SIDES[0] else SIDES[0]

    def hospital(self, side: str) -> list[str]:
        return [w.wid for w in self.warriors.values() if w.side == side and w.place == HOSPITAL]

    def kept_uids(self, side: str) -> list[str]:
        return [k.uid for k in self.sides[side].kept]


def open_battle(
    settings: MagicSettings, cards: list[MagicFace], warriors: list[Warrior], sides: list[Side]
) -> MassBattle:
    """The battle before its decks are shuffled: every card is listed, no deck holds any yet."""
    if [s.key for s in sides] != list(SIDES):
        raise RuleError(INPUT, gettext_noop("A mass battle has two sides."))
    for face in cards:
        if face.keepable and face.deck not in settings.keepable_decks:
            raise RuleError(
                "M5",
                gettext_noop("A card kept to use when you see fit cannot be in deck %(deck)s."),
                deck=face.deck,
            )
    if len({c.uid for c in cards}) != len(cards) or len({w.wid for w in warriors}) != len(warriors):
        raise RuleError(INPUT, gettext_noop("Every card and every warrior is listed once."))
    if any(w.side not in SIDES or w.place not in WARRIOR_PLACES for w in warriors):
        raise RuleError(INPUT, gettext_noop("Every warrior belongs to one of the two sides."))
    return MassBattle(
        settings=settings,
        cards={c.uid: c for c in cards},
        warriors={w.wid: w for w in warriors},
        sides={s.key: s for s in sides},
    )


# Snapshot part (rules/snapshots.py): the magic cards, listed when the battle opened, never change.
CARDS_PART: Final = "mass.cards"


def to_dict(s: MassBattle) -> dict[str, Any]:
    """A JSON-safe copy: ``from_dict(to_dict(s)) == s`` (lists keep orders and int keys through JSON).

    The magic cards are a reference to a snapshot (written once, rules/snapshots.py).
    """
    return {
        "settings": {"keepable_decks": list(s.settings.keepable_decks), "printed_decks": s.settings.printed_decks},
        "cards": snapshots.list_ref(CARDS_PART, list(s.cards.values()), asdict),
        "warriors": [{**asdict(w), "protections": list(w.protections)} for w in s.warriors.values()],
        "sides": [asdict(side) for side in s.sides.values()],
        "decks": [[deck, list(s.decks[deck])] for deck in DECKS],
        "shuffled_part": [[deck, s.shuffled_part[deck]] for deck in DECKS],
        "shuffled": s.shuffled,
        "cycle": s.cycle,
        "stage": s.stage,
        "rolls": [asdict(r) for r in s.rolls],
        "points": dict(s.points),
        "winner": s.winner,
        "order": list(s.order),
        "used_points": list(s.used_points),
        "done": list(s.done),
        "pending": None if s.pending is None else asdict(s.pending),
        "effects": [asdict(e) for e in s.effects],
        "ended": s.ended,
    }


def _face(d: Mapping[str, Any]) -> MagicFace:
    """A card as stored; a battle stored before the M3 rename says ``negative`` (its opposite)."""
    data = dict(d)
    if "negative" in data:
        data["acts_on_protected"] = not data.pop("negative")
    return MagicFace(**data)


def from_dict(d: Mapping[str, Any]) -> MassBattle:
    """The battle ``to_dict`` wrote; one written before snapshots (its cards inline) reads too."""
    snapshots.prefetch(d)
    if snapshots.is_ref(d["cards"]):
        faces: Iterable[MagicFace] = snapshots.list_from(CARDS_PART, d["cards"], _face)
    else:
        faces = [_face(c) for c in d["cards"]]
    return MassBattle(
        settings=MagicSettings(
            keepable_decks=tuple(d["settings"]["keepable_decks"]),
            printed_decks=bool(d["settings"].get("printed_decks", False)),
        ),
        cards={c.uid: c for c in faces},
        warriors={w["wid"]: Warrior(**{**w, "protections": tuple(w["protections"])}) for w in d["warriors"]},
        sides={s["key"]: Side(**{**s, "kept": [Kept(**k) for k in s["kept"]]}) for s in d["sides"]},
        decks={int(deck): list(order) for deck, order in d["decks"]},
        shuffled_part={
            **{deck: 0 for deck in DECKS},
            **{int(k): int(n) for k, n in d.get("shuffled_part", [])},
        },
        shuffled=d["shuffled"],
        cycle=d["cycle"],
        stage=d["stage"],
        rolls=[Roll(**r) for r in d["rolls"]],
        points=dict(d["points"]),
        winner=d["winner"],
        order=list(d["order"]),
        used_points=list(d["used_points"]),
        done=list(d["done"]),
        pending=None if d["pending"] is None else Pending(**d["pending"]),
        effects=[Effect(**e) for e in d["effects"]],
        ended=d["ended"],
    )

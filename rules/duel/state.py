"""The state of one combat situation, as plain data.

Everything the rules need to decide the next command is here, and nothing else:
the persistence layer caches ``to_dict(state)`` as JSON and can always rebuild
it by replaying the command log.

Card conservation: every uid in ``Situation.cards`` is in exactly one place -
a fighter's ``hand``, ``discards`` or ``set_aside``, or an open step of a duel
(``attack_card`` / ``answer_card``).

Finished steps: a duel keeps its newest ``RECORDS_KEPT`` records and the count
of all (``steps_total``). The rules read only the last (D10, D8), the live
pages the newest few; the whole record is rebuilt from the log (a replay with
``Situation.whole_record`` set keeps every record), so the row rewritten on
every step does not grow with the fight (issue 24).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from rules import snapshots
from rules.cards import CardFace, CounterRule, CounterTable, face_from_dict, face_to_dict
from rules.clone import Shared
from rules.clone import clone as clone_state
from rules.duel.commands import RoundChoice, command_from_dict, command_to_dict

# Duel phases: whose move it is.
AWAIT_ATTACK: Final = "await_attack"  # the duel's ``attacker`` shows a card (D6)
AWAIT_ANSWER: Final = "await_answer"  # the step's defender answers before the deadline (D7, D8)
AWAIT_RESULT: Final = "await_result"  # the referee confirms or overrides the proposal (CR2)
BETWEEN_ROUNDS: Final = "between_rounds"  # both fighters choose to go on or not (D3, D12)
ENDED: Final = "ended"
PHASES: Final[tuple[str, ...]] = (AWAIT_ATTACK, AWAIT_ANSWER, AWAIT_RESULT, BETWEEN_ROUNDS, ENDED)
# A step in these phases holds the situation open (S2 reading).
STEP_OPEN: Final[frozenset[str]] = frozenset({AWAIT_ANSWER, AWAIT_RESULT})

AGGRESSION: Final = "aggression"
INSTANT_ATTACK: Final = "instant_attack"

# Why a duel ended.
FIGHTER_OUT: Final = "fighter_out"
STOPPED: Final = "stopped"
MAX_ROUNDS: Final = "max_rounds"
NO_ATTACKS_LEFT: Final = "no_attacks_left"
SITUATION_ENDED: Final = "situation_ended"
INSTANT_ATTACK_SUCCEEDED: Final = "instant_attack_succeeded"
ENDED_BY_REFEREE: Final = "ended_by_referee"
RESULTS: Final[tuple[str, ...]] = (
    FIGHTER_OUT,
    STOPPED,
    MAX_ROUNDS,
    NO_ATTACKS_LEFT,
    SITUATION_ENDED,
    INSTANT_ATTACK_SUCCEEDED,
    ENDED_BY_REFEREE,
)


@dataclass(frozen=True)
class Settings:
    answer_window_s: int = 15  # D8
    gap_s: int = 180  # S2
    focus_abilities: bool = False  # F1: may a defence ability be focused, not only a spell?
    physical_draws: bool = False  # IA3: the referee records the card drawn from the real cards

    def __post_init__(self) -> None:
        if self.answer_window_s <= 0 or self.gap_s <= 0:
            raise ValueError("the answer window and the situation gap must be positive")


@dataclass
class Step:
    """The open step: an attack card is shown and not yet resolved."""

    attacker: int
    defender: int
    attack_card: str
    shown_at: datetime
    answer_deadline: datetime | None  # None in an instant attack: nothing to wait for
    answer_card: str | None = None
    answered: bool = False
    drawn: bool = False  # IA3: the answer was drawn blind or taken from the focus
    proposed: str | None = None
    instant: bool = False
    draw: int | None = None  # IA3: the recorded index into the victim's hand
    answer_by: str = ""  # how the answer was chosen: ANSWER_BY_* (the record, not today's focus)


# How an instant attack's answering card was chosen (IA3, F1), kept in the step
# and its record so the screen never guesses it from the focus of the moment.
ANSWER_BY_FOCUS: Final = "focus"
ANSWER_BY_DRAW: Final = "draw"
ANSWER_BY_DECLINED: Final = "declined"  # the victim did not try to parry
ANSWER_BY_REAL_CARDS: Final = "real_cards"  # IA3: drawn blind from the real cards, recorded by the referee


@dataclass(frozen=True)
class StepRecord:
    """A finished step, kept for the fight's record and for D10."""

    round: int
    attacker: int
    defender: int
    attack_card: str
    answer_card: str | None
    outcome: str
    proposed: str
    override_reason: str = ""
    timed_out: bool = False
    instant: bool = False
    answer_by: str = ""


# How many finished steps a duel keeps in its state: the rules need the last
# (D8, D10), the live pages the newest five (duels/duel/presenters.LIVE_RECENT).
RECORDS_KEPT: Final = 5


@dataclass
class Duel:
    number: int
    a: int
    b: int
    opened_by: str
    opened_at: datetime
    max_rounds: int | None = None
    round: int = 1
    phase: str = AWAIT_ATTACK
    attacker: int = 0  # whose step it is (in await_attack) or was (in a step)
    first_attacker_this_round: int = 0
    step: Step | None = None
    # The newest RECORDS_KEPT finished steps (all of them with ``Situation.whole_record``), oldest first.
    steps_done: list[StepRecord] = field(default_factory=list)
    steps_total: int = 0  # every finished step of the duel, kept or not
    round_choices: dict[int, RoundChoice] = field(default_factory=dict)
    result: str | None = None
    end_reason: str = ""
    ended_at: datetime | None = None

    def other(self, fighter: int) -> int:
        return self.b if fighter == self.a else self.a

    @property
    def is_open(self) -> bool:
        return self.phase != ENDED


@dataclass
class Fighter:
    character_id: int
    name: str
    hand: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)
    focus: str | None = None
    condition: str = "fit"
    next_n: int = 0
    # S2: the card ids of the arsenal last taken at a round break (D3), one per
    # copy - the "original" to restore after the situation; None if none was taken.
    composed: list[int] | None = None


@dataclass
class Situation:
    settings: Settings
    # Immutable through the fight (CR2: the rules as the situation opened): shared by every clone.
    counters: tuple[CounterRule, ...]
    opened_at: datetime
    fighters: dict[int, Fighter] = field(default_factory=dict)
    # Changed only by a new copy (``core.mint``): shared by every clone until then.
    cards: Shared[str, CardFace] = field(default_factory=Shared)
    duels: list[Duel] = field(default_factory=list)
    instant_attack_used: bool = False
    # None until the first combat action: a situation being set up (fighters
    # joining, focusing) does not run the S2 clock.
    last_action_at: datetime | None = None
    ended: bool = False
    ended_at: datetime | None = None
    # The referee closed the situation (EndSituation: it grows into a battle), not the S2 gap.
    closed_by_referee: bool = False
    # Keep every finished step, not only the newest RECORDS_KEPT: set on a replay
    # for the record page, the export or the lab. Not part of the state.
    whole_record: bool = field(default=False, compare=False, repr=False)
    # CR2 lookups, built once per counters snapshot and shared by clones (the
    # snapshot is never changed, see ``clone``). Not part of the state.
    _table: CounterTable | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # The shared parts in their shared forms, however the state was built (``clone`` shares them).
        if not isinstance(self.counters, tuple):
            self.counters = tuple(self.counters)
        if not isinstance(self.cards, Shared):
            self.cards = Shared(self.cards)


def record_step(state: Situation, duel: Duel, record: StepRecord) -> None:
    """A finished step joins the duel's record; the state keeps the newest RECORDS_KEPT."""
    duel.steps_done.append(record)
    duel.steps_total += 1
    if not state.whole_record and len(duel.steps_done) > RECORDS_KEPT:
        del duel.steps_done[:-RECORDS_KEPT]


def counter_table(state: Situation) -> CounterTable:
    """The situation's counter rules indexed for CR2; a catalogue of hundreds of rules is indexed once."""
    if state._table is None:
        state._table = CounterTable(state.counters)
    return state._table


# --- cloning -------------------------------------------------------------------------------------
#
# ``apply`` and ``expire`` work on a clone: the containers copied, the
# immutable leaves shared (``rules.clone``, the kernel's, which every kind uses).


def clone(s: Situation) -> Situation:
    """A copy of ``s`` that no change to it can reach ``s`` through; immutable parts are shared."""
    return clone_state(s)


# --- JSON-safe form ------------------------------------------------------------------------------


def _dt(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _parse_dt(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def _req_dt(value: str) -> datetime:
    return datetime.fromisoformat(value)


def _step_to_dict(s: Step) -> dict[str, Any]:
    return {
        "attacker": s.attacker,
        "defender": s.defender,
        "attack_card": s.attack_card,
        "shown_at": _dt(s.shown_at),
        "answer_deadline": _dt(s.answer_deadline),
        "answer_card": s.answer_card,
        "answered": s.answered,
        "drawn": s.drawn,
        "proposed": s.proposed,
        "instant": s.instant,
        "draw": s.draw,
        "answer_by": s.answer_by,
    }


def _step_from_dict(d: Mapping[str, Any]) -> Step:
    return Step(
        **{**d, "shown_at": _req_dt(d["shown_at"]), "answer_deadline": _parse_dt(d["answer_deadline"])},
    )


def _record_to_dict(r: StepRecord) -> dict[str, Any]:
    return {
        "round": r.round,
        "attacker": r.attacker,
        "defender": r.defender,
        "attack_card": r.attack_card,
        "answer_card": r.answer_card,
        "outcome": r.outcome,
        "proposed": r.proposed,
        "override_reason": r.override_reason,
        "timed_out": r.timed_out,
        "instant": r.instant,
        "answer_by": r.answer_by,
    }


def _duel_to_dict(d: Duel) -> dict[str, Any]:
    return {
        "number": d.number,
        "a": d.a,
        "b": d.b,
        "opened_by": d.opened_by,
        "opened_at": _dt(d.opened_at),
        "max_rounds": d.max_rounds,
        "round": d.round,
        "phase": d.phase,
        "attacker": d.attacker,
        "first_attacker_this_round": d.first_attacker_this_round,
        "step": None if d.step is None else _step_to_dict(d.step),
        "steps_done": [_record_to_dict(r) for r in d.steps_done],
        # Only when some are not kept: a whole record (and a state written before) reads and writes as before.
        **({} if d.steps_total == len(d.steps_done) else {"steps_total": d.steps_total}),
        # A list, not a dict: JSON object keys would turn the ids into strings.
        "round_choices": [command_to_dict(c) for c in d.round_choices.values()],
        "result": d.result,
        "end_reason": d.end_reason,
        "ended_at": _dt(d.ended_at),
    }


def _duel_from_dict(d: Mapping[str, Any]) -> Duel:
    choices: dict[int, RoundChoice] = {}
    for raw in d["round_choices"]:
        choice = command_from_dict(raw)
        assert isinstance(choice, RoundChoice)
        choices[choice.fighter] = choice
    return Duel(
        number=d["number"],
        a=d["a"],
        b=d["b"],
        opened_by=d["opened_by"],
        opened_at=_req_dt(d["opened_at"]),
        max_rounds=d["max_rounds"],
        round=d["round"],
        phase=d["phase"],
        attacker=d["attacker"],
        first_attacker_this_round=d["first_attacker_this_round"],
        step=None if d["step"] is None else _step_from_dict(d["step"]),
        # A state written before kept every step: it reads as a new one (the newest kept, all counted).
        steps_done=[StepRecord(**r) for r in d["steps_done"][-RECORDS_KEPT:]],
        steps_total=d.get("steps_total", len(d["steps_done"])),
        round_choices=choices,
        result=d["result"],
        end_reason=d["end_reason"],
        ended_at=_parse_dt(d["ended_at"]),
    )


def _fighter_to_dict(f: Fighter) -> dict[str, Any]:
    return {
        "character_id": f.character_id,
        "name": f.name,
        "hand": list(f.hand),
        "discards": list(f.discards),
        "set_aside": list(f.set_aside),
        "focus": f.focus,
        "condition": f.condition,
        "next_n": f.next_n,
        # Only when set: states cached before the field existed read and compare unchanged.
        **({} if f.composed is None else {"composed": list(f.composed)}),
    }


def _counter_to_dict(r: CounterRule) -> dict[str, Any]:
    return {
        "defence_card_id": r.defence_card_id,
        "attack_card_id": r.attack_card_id,
        "attack_tag": r.attack_tag,
        "outcome": r.outcome,
    }


# Snapshot parts (rules/snapshots.py): what a stored state names by reference.
COUNTERS_PART: Final = "duel.counters"
FACES_PART: Final = "duel.faces"


def to_dict(s: Situation) -> dict[str, Any]:
    """A JSON-safe copy of the state: ``from_dict(to_dict(s)) == s``.

    The counter rules and the card faces are references to snapshots (written
    once, rules/snapshots.py); ``cards`` gives each uid's index in the faces.
    """
    faces, cards = snapshots.faces_ref(FACES_PART, s.cards, face_to_dict)
    return {
        "settings": {
            "answer_window_s": s.settings.answer_window_s,
            "gap_s": s.settings.gap_s,
            "focus_abilities": s.settings.focus_abilities,
            # Only when set: states cached before the setting existed read and compare unchanged.
            **({"physical_draws": True} if s.settings.physical_draws else {}),
        },
        "counters": snapshots.list_ref(COUNTERS_PART, s.counters, _counter_to_dict),
        "opened_at": _dt(s.opened_at),
        # Lists keep the join order and integer ids through JSON.
        "fighters": [_fighter_to_dict(f) for f in s.fighters.values()],
        "faces": faces,
        "cards": cards,
        "duels": [_duel_to_dict(d) for d in s.duels],
        "instant_attack_used": s.instant_attack_used,
        "last_action_at": _dt(s.last_action_at),
        "ended": s.ended,
        "ended_at": _dt(s.ended_at),
        # Written only when set, so a state stored before the field is written back byte for byte.
        **({"closed_by_referee": True} if s.closed_by_referee else {}),
    }


# Decoded counter snapshots with their CR2 index, shared by every state that
# holds the same rules (all the fights of an event): ~450 rules cost ~0.5 ms
# to decode and index, their key a fraction of it. The rules are immutable
# and the tuple is shared by the states and their clones.
_COUNTERS: dict[tuple[tuple[Any, ...], ...], tuple[tuple[CounterRule, ...], CounterTable]] = {}
_COUNTERS_MAX = 64


def _counters_from(rows: list[Mapping[str, Any]]) -> tuple[tuple[CounterRule, ...], CounterTable]:
    key = tuple((r["defence_card_id"], r["attack_card_id"], r["attack_tag"], r["outcome"]) for r in rows)
    found = _COUNTERS.get(key)
    if found is None:
        if len(_COUNTERS) >= _COUNTERS_MAX:
            _COUNTERS.clear()
        rules = tuple(CounterRule(**r) for r in rows)
        found = _COUNTERS[key] = (rules, CounterTable(rules))
    return found


def from_dict(d: Mapping[str, Any]) -> Situation:
    """The state ``to_dict`` wrote; a state written before snapshots (rules and faces inline) reads too."""
    snapshots.prefetch(d)
    if snapshots.is_ref(d["counters"]):
        counters = snapshots.list_from(COUNTERS_PART, d["counters"], lambda r: CounterRule(**r))
        table = snapshots.decoded(COUNTERS_PART + ".table", d["counters"], lambda _raw: CounterTable(counters))
    else:
        counters, table = _counters_from(d["counters"])
    if "faces" in d:
        cards = snapshots.faces_from(FACES_PART, d["faces"], d["cards"], face_from_dict)
    else:
        cards = Shared({uid: face_from_dict(face) for uid, face in d["cards"].items()})
    fighters = [
        Fighter(**{**f, "hand": list(f["hand"]), "discards": list(f["discards"]), "set_aside": list(f["set_aside"])})
        for f in d["fighters"]
    ]
    state = Situation(
        settings=Settings(**d["settings"]),
        counters=counters,
        opened_at=_req_dt(d["opened_at"]),
        fighters={f.character_id: f for f in fighters},
        cards=cards,
        duels=[_duel_from_dict(x) for x in d["duels"]],
        instant_attack_used=d["instant_attack_used"],
        last_action_at=_parse_dt(d["last_action_at"]),
        ended=d["ended"],
        ended_at=_parse_dt(d["ended_at"]),
        closed_by_referee=d.get("closed_by_referee", False),
    )
    state._table = table
    return state

"""The state of one battle, as plain data (R0-R8, D3-D11 as a battle reads them).

The persistence layer caches ``to_dict(state)`` as JSON and can always rebuild
it by replaying the log. Card conservation: every uid in ``Battle.cards`` is
in exactly one place - a combatant's ``hand``, ``discards`` or ``set_aside``,
a part's shown attack card (``Part.card`` once begun) or an open answer
(``Window.answer_card``).

The action in progress is a *stack of frames* (docs/battle-rules.md): the
bottom frame is the action of the combatant whose turn it is; an opportunity
attack or an immediate interrupt is pushed on top of what it interrupts
(last in, first out); responses wait in the ``queue`` of the frame they answer
and run, in the order they were called, once that frame's current part is done.

Finished answers: the battle keeps its newest ``RECORDS_KEPT`` records, the
count of all (``records_total``) and which windows closed on the clock
(``timed_out``, D8); the whole record is rebuilt from the log (a replay with
``Battle.whole_record`` set keeps every record), so the row rewritten on every
step does not grow with the fight's record (issue 24).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any, Final

from rules import snapshots
from rules.cards import CardFace, CounterRule, face_from_dict, face_to_dict
from rules.clone import Shared
from rules.errors import INPUT, RuleError, gettext_noop

# Card action kinds in battles (the catalogue's ``action_kind``).
STANDARD: Final = "standard"
OPPORTUNITY: Final = "opportunity"
INTERRUPT: Final = "interrupt"
RESPONSE: Final = "response"
ACTION_KINDS: Final[tuple[str, ...]] = (STANDARD, OPPORTUNITY, INTERRUPT, RESPONSE)

# R4: what an immediate card reacts to (the catalogue's ``trigger_kind``); "" = the referee decides.
ANY_TRIGGER: Final = ""
ATTACKED: Final = "attacked"
ALLY_ATTACKED: Final = "ally_attacked"
ENEMY_ATTACKS: Final = "enemy_attacks"
ENEMY_MOVES: Final = "enemy_moves"
ENEMY_USES_CARD: Final = "enemy_uses_card"
TRIGGER_KINDS: Final[tuple[str, ...]] = (
    ANY_TRIGGER,
    ATTACKED,
    ALLY_ATTACKED,
    ENEMY_ATTACKS,
    ENEMY_MOVES,
    ENEMY_USES_CARD,
)

# What a combatant does with their turn.
ATTACK: Final = "attack"
MOVE: Final = "move"
USE: Final = "use"
READY: Final = "ready"
PASS: Final = "pass"
ACTS: Final[tuple[str, ...]] = (ATTACK, MOVE, USE, READY, PASS)

# A frame's role on the stack.
MAIN: Final = "main"
ROLES: Final[tuple[str, ...]] = (MAIN, OPPORTUNITY, INTERRUPT, RESPONSE)

# An attack card's reach, read from its catalogue tags.
MELEE: Final = "melee"
RANGED: Final = "ranged"
AREA: Final = "area"

# Battle phases.
SETUP: Final = "setup"
TURNS: Final = "turns"
BETWEEN_ROUNDS: Final = "between_rounds"
ENDED: Final = "ended"

# Why a battle ended.
ONE_SIDE_LEFT: Final = "one_side_left"
ENDED_BY_REFEREE: Final = "ended_by_referee"
MAX_ROUNDS: Final = "max_rounds"
NO_ATTACKS_LEFT: Final = "no_attacks_left"
SITUATION_ENDED: Final = "situation_ended"

# Why an action is lost (ActionLost.why) besides R6's "negated" and D11's "out".
NO_CARD: Final = "no_card"  # R8: a waiting response whose card was played meanwhile


@dataclass(frozen=True)
class BattleCard:
    """A catalogue card as a battle sees it: its face (CR1) and how it may be used (R4)."""

    face: CardFace
    action: str = STANDARD
    trigger: str = ""  # the trigger's own words (R4), shown to the referee
    trigger_kind: str = ANY_TRIGGER  # R4: what it reacts to, so it is offered only when that happened
    double: bool = False  # BP2: grants its holder two attack cards in one action

    def __post_init__(self) -> None:
        # A catalogue row or a stored log with another kind is refused as any bad input is, not a crash.
        if self.action not in ACTION_KINDS:
            raise RuleError(INPUT, gettext_noop("Unknown action kind of a battle card: %(kind)s."), kind=self.action)
        if self.trigger_kind not in TRIGGER_KINDS:
            raise RuleError(
                "R4", gettext_noop("Unknown trigger kind of a battle card: %(kind)s."), kind=self.trigger_kind
            )

    @property
    def reach(self) -> str:
        # Reading: the catalogue marks ranged and area attacks with a tag.
        tags = set(self.face.tags)
        if AREA in tags:
            return AREA
        if RANGED in tags:
            return RANGED
        return MELEE

    @property
    def is_attack(self) -> bool:
        return self.face.is_attack

    def __deepcopy__(self, memo: dict[int, Any]) -> BattleCard:
        # Immutable all through: a deep copy of the battle shares it (and its key, rules/snapshots.py).
        return self


@dataclass(frozen=True)
class BattleSettings:
    answer_window_s: int = 15  # D8
    gap_s: int = 180  # S2
    reactions_from_round: int = 2  # R0
    every_round_a_bout: bool = False  # D3 reading: off = a bout lasts until nobody fit holds an attack card
    physical_draws: bool = False  # IA3: an instant attack's draw is the card the victim drew from their real cards

    def __post_init__(self) -> None:
        if self.answer_window_s <= 0 or self.gap_s <= 0 or self.reactions_from_round < 1:
            raise ValueError("battle settings must be positive")


@dataclass
class Window:
    """One target's answer to a shown attack (D7, D8); an area attack opens one per target."""

    defender: int
    deadline: datetime | None  # None while suspended under a reaction (R3, R6)
    remaining_ms: int  # what is left of the window when it is suspended
    answer_card: str | None = None
    answered: bool = False
    proposed: str | None = None
    outcome: str | None = None
    timed_out: bool = False

    @property
    def resolved(self) -> bool:
        return self.outcome is not None


@dataclass
class Part:
    """One part of an action: one attack of a double attack, one stretch of a move."""

    card: str | None = None
    begun: bool = False
    done: bool = False
    windows: list[Window] = field(default_factory=list)


@dataclass
class Frame:
    number: int
    actor: int
    role: str
    act: str
    parts: list[Part]
    targets: list[int] = field(default_factory=list)
    engaged: list[int] = field(default_factory=list)  # enemies next to the actor (R1)
    trigger: str = ""  # what a reaction reacts to; a readied action's own words
    reacts_to: int | None = None
    readied: bool = False
    lost: bool = False  # R6: negated by an interrupt
    newcomer: bool = False  # BP4: a newcomer's strike out of turn, not the turn's own action
    instant: bool = False  # IA1: an instant attack (rules/battle/instant.py); IA4: a card that did not parry stays
    queue: list[Frame] = field(default_factory=list)  # responses waiting (R7, R8)

    @property
    def current(self) -> Part | None:
        """The part begun and not done, if any (none once the action is lost)."""
        if self.lost:
            return None
        return next((p for p in self.parts if p.begun and not p.done), None)

    @property
    def parts_done(self) -> int:
        return sum(1 for p in self.parts if p.done)

    @property
    def finished(self) -> bool:
        return self.lost or all(p.done for p in self.parts)


# How many finished answers a battle keeps in its state: the live pages show the newest twelve
# (duels/battle/presenters.present_battle), the rules read ``timed_out`` instead.
RECORDS_KEPT: Final = 12


@dataclass(frozen=True)
class StepRecord:
    """A resolved answer window, in the order results were applied (the fight's record)."""

    round: int
    frame: int
    role: str
    attacker: int
    defender: int
    attack_card: str
    answer_card: str | None
    outcome: str
    proposed: str
    override_reason: str = ""
    timed_out: bool = False


@dataclass(frozen=True)
class Readied:
    """R4: an action readied with a trigger the combatant chose."""

    mode: str  # interrupt or response
    trigger: str


@dataclass
class Combatant:
    character_id: int
    name: str
    side: str
    hand: list[str] = field(default_factory=list)
    discards: list[str] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)
    condition: str = "fit"
    next_n: int = 0
    focus_card_id: int | None = None  # F1 is not a battle rule: the focus is carried through untouched
    composed: list[int] | None = None  # S2, D3: the card ids of the arsenal last taken at a bout's end
    left: bool = False  # D12: left the battle at a bout's end; no more turns, reactions or blows


@dataclass
class Battle:
    settings: BattleSettings
    # Immutable through the fight (CR2: the rules as the battle opened): shared by every clone.
    counters: tuple[CounterRule, ...]
    opened_at: datetime
    combatants: dict[int, Combatant] = field(default_factory=dict)
    # Changed only by new copies (``apply._mint``): shared by every clone until then.
    cards: Shared[str, BattleCard] = field(default_factory=Shared)
    phase: str = SETUP
    round: int = 0
    bout: int = 0  # D3, D11: arsenals change only between bouts; a bout lasts one or more rounds
    max_rounds: int | None = None
    declarer: int | None = None
    order: list[int] = field(default_factory=list)
    turn: int = 0  # index into ``order``
    turn_seq: int = 0  # counts every turn of the battle (R2)
    stack: list[Frame] = field(default_factory=list)
    next_frame: int = 0
    opportunity_in_turn: dict[int, int] = field(default_factory=dict)  # R2
    immediate_spent: list[int] = field(default_factory=list)  # R5, since the end of their last turn
    readied: dict[int, Readied] = field(default_factory=dict)  # R4
    striker: int | None = None  # BP4: a newcomer who joined by attacking and strikes at once
    # The newest RECORDS_KEPT resolved answers (all of them with ``whole_record``), oldest first.
    records: list[StepRecord] = field(default_factory=list)
    records_total: int = 0  # every resolved answer of the battle, kept or not
    timed_out: list[tuple[int, int]] = field(default_factory=list)  # D8: (frame, defender) closed on the clock
    last_action_at: datetime | None = None  # S2: the last combat action (carried from a duel grown into this)
    instant_attack_used: bool = False  # IA6: the situation's instant attack (carried from a duel grown into this)
    ended: bool = False  # the battle is over (BP5); the situation stays open until ``closed``
    ended_at: datetime | None = None
    closed: bool = False  # S2: the situation is over - the gap passed with no combat action
    closed_at: datetime | None = None
    result: str | None = None
    end_reason: str = ""
    # Keep every record, not only the newest RECORDS_KEPT: set on a replay for the record
    # page or the export. Not part of the state.
    whole_record: bool = field(default=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # The shared parts in their shared forms, however the state was built (``clone`` shares them).
        if not isinstance(self.counters, tuple):
            self.counters = tuple(self.counters)
        if not isinstance(self.cards, Shared):
            self.cards = Shared(self.cards)

    @property
    def turn_of(self) -> int | None:
        if self.phase != TURNS or not self.order:
            return None
        return self.order[self.turn]

    @property
    def reactions_on(self) -> bool:
        """R0: reactions apply from the event's round (default 2)."""
        return self.phase == TURNS and self.round >= self.settings.reactions_from_round


def record_answer(state: Battle, record: StepRecord) -> None:
    """A resolved answer joins the record; the state keeps the newest RECORDS_KEPT."""
    state.records.append(record)
    state.records_total += 1
    if record.timed_out:
        state.timed_out.append((record.frame, record.defender))
    if not state.whole_record and len(state.records) > RECORDS_KEPT:
        del state.records[:-RECORDS_KEPT]


# --- JSON-safe form ------------------------------------------------------------------------------


def _dt(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _parse_dt(value: str | None) -> datetime | None:
    return None if value is None else datetime.fromisoformat(value)


def card_to_dict(card: BattleCard) -> dict[str, Any]:
    out = {**face_to_dict(card.face), "action": card.action, "trigger": card.trigger}
    # Written only when set, so states and logs from before them read and replay unchanged.
    if card.trigger_kind:
        out["trigger_kind"] = card.trigger_kind
    if card.double:
        out["double"] = True
    return out


def card_from_dict(d: Mapping[str, Any]) -> BattleCard:
    return BattleCard(
        face=face_from_dict(d),
        action=str(d["action"]),
        trigger=str(d["trigger"]),
        trigger_kind=str(d.get("trigger_kind", ANY_TRIGGER)),
        double=bool(d.get("double", False)),
    )


def _frame_to_dict(f: Frame) -> dict[str, Any]:
    out: dict[str, Any] = {x.name: getattr(f, x.name) for x in fields(Frame)}
    out["parts"] = [
        {
            "card": p.card,
            "begun": p.begun,
            "done": p.done,
            "windows": [{**w.__dict__, "deadline": _dt(w.deadline)} for w in p.windows],
        }
        for p in f.parts
    ]
    out["targets"], out["engaged"] = list(f.targets), list(f.engaged)
    out["queue"] = [_frame_to_dict(q) for q in f.queue]
    return out


def _frame_from_dict(d: Mapping[str, Any]) -> Frame:
    parts = [
        Part(
            card=p["card"],
            begun=p["begun"],
            done=p["done"],
            windows=[Window(**{**w, "deadline": _parse_dt(w["deadline"])}) for w in p["windows"]],
        )
        for p in d["parts"]
    ]
    return Frame(
        **{
            **d,
            "parts": parts,
            "targets": list(d["targets"]),
            "engaged": list(d["engaged"]),
            "queue": [_frame_from_dict(q) for q in d["queue"]],
        }
    )


# Snapshot parts (rules/snapshots.py): what a stored battle names by reference.
COUNTERS_PART: Final = "battle.counters"
CARDS_PART: Final = "battle.cards"


def _counter_to_dict(r: CounterRule) -> dict[str, Any]:
    return r.__dict__.copy()


def to_dict(s: Battle) -> dict[str, Any]:
    """A JSON-safe copy of the state: ``from_dict(to_dict(s)) == s``.

    The counter rules and the cards are references to snapshots (written
    once, rules/snapshots.py); ``cards`` gives each uid's index in ``faces``.
    """
    faces, cards = snapshots.faces_ref(CARDS_PART, s.cards, card_to_dict)
    return {
        "settings": s.settings.__dict__.copy(),
        "counters": snapshots.list_ref(COUNTERS_PART, s.counters, _counter_to_dict),
        "opened_at": _dt(s.opened_at),
        # Lists keep the join order and integer ids through JSON.
        "combatants": [c.__dict__ | {"hand": list(c.hand)} for c in s.combatants.values()],
        "faces": faces,
        "cards": cards,
        "phase": s.phase,
        "round": s.round,
        "bout": s.bout,
        "max_rounds": s.max_rounds,
        "declarer": s.declarer,
        "order": list(s.order),
        "turn": s.turn,
        "turn_seq": s.turn_seq,
        "stack": [_frame_to_dict(f) for f in s.stack],
        "next_frame": s.next_frame,
        "opportunity_in_turn": [[k, v] for k, v in s.opportunity_in_turn.items()],
        "immediate_spent": list(s.immediate_spent),
        "readied": [[k, r.mode, r.trigger] for k, r in s.readied.items()],
        "striker": s.striker,
        "records": [r.__dict__.copy() for r in s.records],
        # Only when some are not kept: a whole record (and a state written before) reads and writes as before.
        **(
            {}
            if s.records_total == len(s.records)
            else {"records_total": s.records_total, "timed_out": [list(p) for p in s.timed_out]}
        ),
        "last_action_at": _dt(s.last_action_at),
        "instant_attack_used": s.instant_attack_used,
        "ended": s.ended,
        "ended_at": _dt(s.ended_at),
        "closed": s.closed,
        "closed_at": _dt(s.closed_at),
        "result": s.result,
        "end_reason": s.end_reason,
    }


def from_dict(d: Mapping[str, Any]) -> Battle:
    """The battle ``to_dict`` wrote; one written before snapshots (rules and cards inline) reads too."""
    snapshots.prefetch(d)
    if snapshots.is_ref(d["counters"]):
        counters = snapshots.list_from(COUNTERS_PART, d["counters"], lambda r: CounterRule(**r))
    else:
        counters = tuple(CounterRule(**r) for r in d["counters"])
    if "faces" in d:
        cards = snapshots.faces_from(CARDS_PART, d["faces"], d["cards"], card_from_dict)
    else:
        cards = Shared({uid: card_from_dict(card) for uid, card in d["cards"].items()})
    combatants = [
        Combatant(**{**c, "hand": list(c["hand"]), "discards": list(c["discards"]), "set_aside": list(c["set_aside"])})
        for c in d["combatants"]
    ]
    opened_at = _parse_dt(d["opened_at"])
    assert opened_at is not None
    # A state written before issue 24 kept every record: it reads as a new one.
    records = [StepRecord(**r) for r in d["records"]]
    if "timed_out" in d:
        timed_out = [(int(f), int(w)) for f, w in d["timed_out"]]
    else:
        timed_out = [(r.frame, r.defender) for r in records if r.timed_out]
    return Battle(
        settings=BattleSettings(**d["settings"]),
        counters=counters,
        opened_at=opened_at,
        combatants={c.character_id: c for c in combatants},
        cards=cards,
        phase=d["phase"],
        round=d["round"],
        bout=int(d.get("bout", d["round"])),
        max_rounds=d["max_rounds"],
        declarer=d["declarer"],
        order=list(d["order"]),
        turn=d["turn"],
        turn_seq=d["turn_seq"],
        stack=[_frame_from_dict(f) for f in d["stack"]],
        next_frame=d["next_frame"],
        opportunity_in_turn={int(k): int(v) for k, v in d["opportunity_in_turn"]},
        immediate_spent=list(d["immediate_spent"]),
        readied={int(k): Readied(mode=m, trigger=t) for k, m, t in d["readied"]},
        striker=d.get("striker"),
        records=records[-RECORDS_KEPT:],
        records_total=d.get("records_total", len(records)),
        timed_out=timed_out,
        last_action_at=_parse_dt(d["last_action_at"]),
        instant_attack_used=bool(d.get("instant_attack_used", False)),
        ended=d["ended"],
        ended_at=_parse_dt(d["ended_at"]),
        # A state saved before S2 kept the situation open after the battle: then ended meant closed.
        closed=d.get("closed", d["ended"]),
        closed_at=_parse_dt(d.get("closed_at", d["ended_at"])),
        result=d["result"],
        end_reason=d["end_reason"],
    )

"""The magic phase of a mass battle (rules M1-M8, seed 002): state + command -> state + events.

Chance is an input: the deck order (M1) and the dice (M4, M8) arrive inside
the commands, chosen by the services with ``secrets`` or typed in by the
referee from real dice, so a battle replays exactly from its log.

Readings (docs/mass-battle-rules.md): with no wounded warrior, 1 and 3 points
do nothing; the side chooses which wounded warrior; only the decks of the
event setting (default 2 and 5) hold cards that may be kept; a kept card is
used in a *later* cycle during its side's own actions - its magic-phase turn,
or the cycle's other phases (stage OVER) when the referee records it - never
in the other side's magic-phase turn; a draw from a deck emptied
by kept cards does nothing and never blocks the phase; an effect lasts one
game cycle: it ends when the next cycle begins.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from rules.clone import clone
from rules.errors import INPUT, RuleError, gettext_noop
from rules.events import EngineEvent
from rules.mass import events as ev
from rules.mass.commands import (
    CarryOut,
    ChooseStarter,
    EndBattle,
    EndTurn,
    KeepCard,
    MoveWarrior,
    NextCycle,
    RollInitiative,
    ShuffleDecks,
    UseKept,
    UsePoints,
)
from rules.mass.state import (
    CHOOSE,
    DEAD,
    DECKS,
    DICE_SOURCES,
    FIELD,
    INITIATIVE,
    MANDATORY_DRAW,
    OPTIONAL_DRAWS,
    OVER,
    SIDES,
    TURNS,
    WARRIOR_PLACES,
    Effect,
    Kept,
    MassBattle,
    Pending,
    Roll,
)

Events = list[EngineEvent]


DIES, RETURNS, DRAW, MAY_DRAW = "dies", "returns", "draw", "may_draw"


def points_use(points: int) -> str:
    """M5: what a side's magic points do - a wounded warrior dies (1) or returns (3), a draw (2), an optional draw."""
    if points == 1:
        return DIES
    if points == 3:
        return RETURNS
    return DRAW if points == MANDATORY_DRAW else MAY_DRAW


def casualties_open(state: MassBattle) -> bool:
    """The battle's casualties may be recorded now: between magic phases, no card being carried out (M4, M5)."""
    return not state.ended and state.pending is None and state.stage in (INITIATIVE, OVER)


def next_roll(state: MassBattle) -> tuple[int, int]:
    """M4: which roll the next ``RollInitiative`` is - (cycle, its number in the cycle, 2 after a tie)."""
    return state.cycle, 1 + sum(1 for r in state.rolls if r.cycle == state.cycle)


def deck_contents(state: MassBattle) -> dict[int, list[str]]:
    """Which uids each deck must hold, sorted: what the services shuffle (M1)."""
    return {deck: sorted(uid for uid, face in state.cards.items() if face.deck == deck) for deck in DECKS}


def apply(state: MassBattle, command: object) -> tuple[MassBattle, Events]:
    """One command; a refusal raises ``RuleError`` and leaves ``state`` untouched."""
    if isinstance(command, ShuffleDecks):
        return _shuffle(state, command)
    if not state.shuffled:
        raise RuleError("M1", gettext_noop("Shuffle the four decks first."))
    if state.ended:
        raise RuleError(INPUT, gettext_noop("The mass battle has ended."))
    handler = _HANDLERS.get(type(command))
    if handler is None:
        raise RuleError(INPUT, gettext_noop("Unknown command."))
    new = clone(state)
    events: Events = []
    handler(new, command, events)
    return new, events


def _shuffle(state: MassBattle, cmd: ShuffleDecks) -> tuple[MassBattle, Events]:
    if state.shuffled:
        raise RuleError("M1", gettext_noop("The decks are already shuffled."))
    if cmd.order is None:
        raise RuleError("M1", gettext_noop("The decks are shuffled by the server."))
    order: Mapping[int, tuple[str, ...]] = dict(cmd.order)
    expected = deck_contents(state)
    for deck in DECKS:
        if sorted(order.get(deck, ())) != expected[deck]:
            raise RuleError("M1", gettext_noop("Deck %(deck)s must hold exactly its own cards."), deck=deck)
    new = clone(state)
    new.decks = {deck: list(order[deck]) for deck in DECKS}
    if state.settings.printed_decks:
        # Shuffled by hand at the table: every card of a deck is in its shuffled part, order unknown.
        new.shuffled_part = {deck: len(new.decks[deck]) for deck in DECKS}
    new.shuffled = True
    sizes = {str(d): len(new.decks[d]) for d in DECKS}
    return new, [ev.DecksShuffled(sizes=sizes, printed=state.settings.printed_decks)]


def _check_side(state: MassBattle, side: str) -> None:
    if side not in SIDES:
        raise RuleError(INPUT, gettext_noop("Unknown side."))


def _roll(state: MassBattle, cmd: RollInitiative, events: Events) -> None:
    if state.stage != INITIATIVE:
        raise RuleError("M4", gettext_noop("Initiative is already decided in this cycle."))
    if cmd.source not in DICE_SOURCES:
        raise RuleError("M8", gettext_noop("A roll is made by the server or entered by the referee."))
    if cmd.dice is None or len(cmd.dice) != 2:
        raise RuleError("M4", gettext_noop("Both sides roll one die."))
    a, b = cmd.dice
    for value in (a, b):
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
            raise RuleError("M8", gettext_noop("A die shows 1 to 6, not %(value)s."), value=value)
    _cycle, nth = next_roll(state)
    state.rolls.append(Roll(cycle=state.cycle, a=a, b=b, source=cmd.source))
    events.append(ev.InitiativeRolled(cycle=state.cycle, a=a, b=b, source=cmd.source, nth=nth))
    if a == b:
        events.append(ev.InitiativeTied(cycle=state.cycle))  # M4: rolled again
        return
    state.winner = SIDES[0] if a > b else SIDES[1]
    state.points = {SIDES[0]: a, SIDES[1]: b}  # M5: a side's own roll is its magic points
    state.stage = CHOOSE
    events.append(ev.InitiativeWon(cycle=state.cycle, side=state.winner))


def _choose(state: MassBattle, cmd: ChooseStarter, events: Events) -> None:
    if state.stage != CHOOSE or cmd.side != state.winner:
        raise RuleError("M4", gettext_noop("Only the winner of the initiative chooses who starts."))
    starter = cmd.side if cmd.starts else state.other(cmd.side)
    state.order = [starter, state.other(starter)]
    state.stage = TURNS
    events.append(ev.StarterChosen(chooser=cmd.side, starter=starter))


def _own_turn(state: MassBattle, side: str) -> None:
    _check_side(state, side)
    if state.stage != TURNS:
        raise RuleError("M4", gettext_noop("Roll for initiative and choose who starts first."))
    if state.whose_turn() != side:
        raise RuleError("M4", gettext_noop("It is not this side's turn in the magic phase."))


def _no_pending(state: MassBattle) -> None:
    if state.pending is not None:
        raise RuleError("M5", gettext_noop("Carry out the drawn card first."))


def _use_points(state: MassBattle, cmd: UsePoints, events: Events) -> None:
    _own_turn(state, cmd.side)
    _no_pending(state)
    if cmd.side in state.used_points:
        raise RuleError("M5", gettext_noop("This side has already used its magic points in this cycle."))
    points = state.points[cmd.side]
    state.used_points.append(cmd.side)
    events.append(ev.PointsUsed(side=cmd.side, points=points))
    if points in (1, 3):
        wounded = state.hospital(cmd.side)
        if not wounded:
            events.append(ev.NothingHappens(side=cmd.side, points=points, why="empty_hospital"))
            return
        if cmd.warrior not in wounded:
            raise RuleError("M5", gettext_noop("Choose one of this side's wounded warriors in the hospital."))
        _move(state, cmd.warrior, DEAD if points == 1 else FIELD, "points", events)
        return
    if points in OPTIONAL_DRAWS and not cmd.take:
        events.append(ev.CardDeclined(side=cmd.side, deck=points))  # no card moves
        return
    assert points == MANDATORY_DRAW or points in OPTIONAL_DRAWS
    printed = state.settings.printed_decks
    if cmd.card is not None and not printed:
        raise RuleError(INPUT, gettext_noop("The server draws from its own decks here; no card is recorded."))
    deck = state.decks[points]
    if not deck:
        # Every card of the deck is kept, or the battle has none of that deck (M1 names four decks; an
        # organizer may leave one out): the draw does nothing and the phase goes on.
        kept = any(face.deck == points for face in state.cards.values())
        if cmd.card is not None:
            if kept:
                raise RuleError(
                    "M1", gettext_noop("By the record, deck %(deck)s is empty: all its cards are kept."), deck=points
                )
            raise RuleError("M1", gettext_noop("Deck %(deck)s has no cards in this battle."), deck=points)
        events.append(ev.NothingHappens(side=cmd.side, points=points, why="empty_deck" if kept else "no_deck"))
        return
    uid = _recorded(state, points, cmd.card) if printed else deck[0]
    if deck.index(uid) < state.shuffled_part[points]:
        state.shuffled_part[points] -= 1
    deck.remove(uid)
    face = state.cards[uid]
    state.pending = Pending(uid=uid, side=cmd.side)
    events.append(
        ev.CardDrawn(
            side=cmd.side,
            deck=points,
            uid=uid,
            card_id=face.card_id,
            may_keep=_may_keep(state, uid),
            recorded=printed,
        )
    )


def deck_belief(state: MassBattle, deck: int) -> tuple[list[int], list[int]]:
    """M1, M7: what the record says deck ``deck`` holds - the catalogue cards of its shuffled part (any order,
    sorted), then the cards put under it since, top first. Server decks have no shuffled part."""
    order = [state.cards[uid].card_id for uid in state.decks[deck]]
    cut = state.shuffled_part[deck]
    return sorted(order[:cut]), order[cut:]


def drawable(state: MassBattle, deck: int) -> list[int]:
    """M1: the catalogue cards that may come up next from deck ``deck`` by the record (printed decks)."""
    shuffled, known = deck_belief(state, deck)
    return sorted(set(shuffled)) if shuffled else known[:1]


def _recorded(state: MassBattle, deck: int, card_id: int | None) -> str:
    """The copy of the recorded card that the record says may be drawn from ``deck`` now, or a refusal that says
    where the record has it (M1: printed decks)."""
    if card_id is None:
        raise RuleError(
            "M1",
            gettext_noop("Record the card drawn from the real deck %(deck)s: its number or its QR code."),
            deck=deck,
        )
    copies = [uid for uid, face in state.cards.items() if face.card_id == card_id]
    if not copies:
        raise RuleError("M1", gettext_noop("There is no magic card number %(card)s in this battle."), card=card_id)
    home = state.cards[copies[0]].deck
    if home != deck:
        raise RuleError(
            "M1",
            gettext_noop("Card number %(card)s belongs to deck %(home)s, not deck %(deck)s."),
            card=card_id,
            home=home,
            deck=deck,
        )
    order, cut = state.decks[deck], state.shuffled_part[deck]
    allowed = order[:cut] if cut else order[:1]
    found = next((uid for uid in allowed if state.cards[uid].card_id == card_id), None)
    if found is not None:
        return found
    keepers = [side for side in SIDES if any(state.cards[k.uid].card_id == card_id for k in state.sides[side].kept)]
    if not any(state.cards[uid].card_id == card_id for uid in order) and keepers:
        raise RuleError(
            "M1",
            gettext_noop("By the record, card number %(card)s is kept by %(side)s, not in deck %(deck)s."),
            card=card_id,
            side=state.sides[keepers[0]].name,
            deck=deck,
        )
    if cut:
        raise RuleError(
            "M1",
            gettext_noop(
                "By the record, card number %(card)s lies under deck %(deck)s (used and put under it); the card "
                "drawn now comes from the deck's shuffled part: number %(cards)s."
            ),
            card=card_id,
            deck=deck,
            cards=", ".join(str(c) for c in sorted({state.cards[uid].card_id for uid in allowed})),
        )
    top = state.cards[order[0]].card_id
    raise RuleError(
        "M1",
        gettext_noop(
            "By the record, the top card of deck %(deck)s is number %(top)s, not number %(card)s: check the deck "
            "against its printed order."
        ),
        card=card_id,
        top=top,
        deck=deck,
    )


def _may_keep(state: MassBattle, uid: str) -> bool:
    face = state.cards[uid]
    pending = state.pending
    return face.keepable and face.deck in state.settings.keepable_decks and not (pending and pending.from_kept)


def _keep(state: MassBattle, cmd: KeepCard, events: Events) -> None:
    _own_turn(state, cmd.side)
    pending = state.pending
    if pending is None or pending.side != cmd.side:
        raise RuleError("M5", gettext_noop("There is no drawn card to keep."))
    if not _may_keep(state, pending.uid):
        raise RuleError("M5", gettext_noop("Only a card that says “use when you see fit” may be kept."))
    state.sides[cmd.side].kept.append(Kept(uid=pending.uid, cycle=state.cycle))
    state.pending = None
    events.append(ev.CardKept(side=cmd.side, uid=pending.uid, card_id=state.cards[pending.uid].card_id))


def may_keep(state: MassBattle) -> bool:
    """M5: the drawn card waiting to be carried out may be kept instead (the pages ask this)."""
    return state.pending is not None and _may_keep(state, state.pending.uid)


def kept_usable(state: MassBattle, side: str, uid: str) -> bool:
    """M5: ``side`` may use its kept card ``uid`` now - the same check that ``UseKept`` makes."""
    try:
        _usable_kept(state, side, uid)
    except RuleError:
        return False
    return True


def _usable_kept(state: MassBattle, side: str, uid: str) -> Kept:
    _check_side(state, side)
    kept = next((k for k in state.sides[side].kept if k.uid == uid), None)
    if kept is None:
        raise RuleError("M5", gettext_noop("This side does not hold that card."))
    if state.stage in (INITIATIVE, CHOOSE):
        raise RuleError("M5", gettext_noop("A kept card is not used while the initiative is decided."))
    if state.stage == TURNS and state.whose_turn() != side:
        raise RuleError("M5", gettext_noop("A kept card is never used during the other side's magic-phase turn."))
    # Otherwise: the side's own magic-phase turn, or the cycle's other phases (stage OVER), where the referee
    # records the use as the keeper's own action.
    _no_pending(state)
    if kept.cycle >= state.cycle:
        raise RuleError("M5", gettext_noop("A kept card is used in a later cycle, not in the one it was drawn."))
    return kept


def _use_kept(state: MassBattle, cmd: UseKept, events: Events) -> None:
    kept = _usable_kept(state, cmd.side, cmd.uid)
    state.sides[cmd.side].kept.remove(kept)
    state.pending = Pending(uid=cmd.uid, side=cmd.side, from_kept=True)
    events.append(ev.KeptCardUsed(side=cmd.side, uid=cmd.uid, card_id=state.cards[cmd.uid].card_id))


def _carry_out(state: MassBattle, cmd: CarryOut, events: Events) -> None:
    _check_side(state, cmd.side)
    pending = state.pending
    if pending is None or pending.side != cmd.side:
        raise RuleError("M5", gettext_noop("There is no drawn card to carry out."))
    if cmd.move_to is not None and cmd.move_to not in WARRIOR_PLACES:
        raise RuleError(INPUT, gettext_noop("Unknown place for a warrior."))
    if cmd.target_side is not None:
        _check_side(state, cmd.target_side)
    targets = list(dict.fromkeys(cmd.targets))
    if any(t not in state.warriors for t in targets):
        raise RuleError(INPUT, gettext_noop("Unknown warrior."))
    if cmd.target_side is not None:
        targets += [
            w.wid
            for w in state.warriors.values()
            if w.side == cmd.target_side and w.place == FIELD and w.wid not in targets
        ]
    if cmd.move_to is not None and not targets and cmd.target_side is None:
        # A place and nobody to send there is a forgotten choice; a whole side with nobody on the field is not:
        # the card is carried out at once (M5) and acts on nobody.
        raise RuleError("M6", gettext_noop("Choose the warriors the card acts on."))
    face = state.cards[pending.uid]
    affected = [t for t in targets if not state.warriors[t].protected_from(face)]
    unaffected = [t for t in targets if state.warriors[t].protected_from(face)]  # M3
    effect = Effect(
        uid=face.uid,
        card_id=face.card_id,
        side=cmd.side,
        cycle=state.cycle,
        ends_cycle=state.cycle + 1,  # M6
        target_side=cmd.target_side,
        affected=affected,
        unaffected=unaffected,
    )
    state.effects.append(effect)
    state.decks[face.deck].append(face.uid)  # M7: to the bottom of its own deck
    state.pending = None
    events.append(
        ev.CardCarriedOut(
            side=cmd.side,
            uid=face.uid,
            card_id=face.card_id,
            target_side=cmd.target_side,
            affected=affected,
            unaffected=unaffected,
            ends_cycle=effect.ends_cycle,
            to_bottom_of=face.deck,
        )
    )
    if cmd.move_to is not None:
        for wid in affected:  # M3: a protected warrior does not obey the card
            if state.warriors[wid].place != cmd.move_to:
                _move(state, wid, cmd.move_to, "card", events)


def _end_turn(state: MassBattle, cmd: EndTurn, events: Events) -> None:
    _own_turn(state, cmd.side)
    _no_pending(state)
    if cmd.side not in state.used_points:
        raise RuleError("M5", gettext_noop("Use the magic points first."))
    state.done.append(cmd.side)
    events.append(ev.TurnEnded(side=cmd.side))
    if len(state.done) == len(SIDES):
        state.stage = OVER
        events.append(ev.PhaseOver(cycle=state.cycle))


def _move(state: MassBattle, wid: str, to: str, by: str, events: Events) -> None:
    warrior = state.warriors[wid]
    old = warrior.place
    warrior.place = to
    events.append(ev.WarriorMoved(warrior=wid, side=warrior.side, old=old, new=to, by=by))


def _casualty(state: MassBattle, cmd: MoveWarrior, events: Events) -> None:
    if cmd.warrior not in state.warriors:
        raise RuleError(INPUT, gettext_noop("Unknown warrior."))
    if cmd.to not in WARRIOR_PLACES:
        raise RuleError(INPUT, gettext_noop("Unknown place for a warrior."))
    _no_pending(state)
    if not casualties_open(state):
        # The physical battle's casualties fall between magic phases: a warrior moved mid-phase
        # would change what the other side's 1 (a death in hospital) or 3 (a return) can do (M5).
        raise RuleError(
            "M4",
            gettext_noop(
                "Casualties are recorded between magic phases: before the initiative roll or after both turns."
            ),
        )
    if state.warriors[cmd.warrior].place == cmd.to:
        raise RuleError(INPUT, gettext_noop("The warrior is already there."))
    _move(state, cmd.warrior, cmd.to, "casualties", events)


def _next_cycle(state: MassBattle, cmd: NextCycle, events: Events) -> None:
    if state.stage != OVER:
        raise RuleError("M4", gettext_noop("Finish this cycle's magic phase first."))
    _no_pending(state)  # a kept card used in the cycle's other phases is carried out in it
    state.cycle += 1
    for effect in state.effects:
        if effect.ends_cycle <= state.cycle:  # M6: one game cycle after it was applied
            events.append(ev.EffectEnded(uid=effect.uid, card_id=effect.card_id, cycle=effect.cycle))
    state.effects = [e for e in state.effects if e.ends_cycle > state.cycle]
    state.stage = INITIATIVE
    state.points, state.winner, state.order, state.used_points, state.done = {}, None, [], [], []
    events.append(ev.CycleStarted(cycle=state.cycle))


def _end(state: MassBattle, cmd: EndBattle, events: Events) -> None:
    _no_pending(state)
    state.ended = True
    events.append(ev.BattleEnded(cycle=state.cycle, reason=cmd.reason))


_HANDLERS: dict[type, Callable[[MassBattle, Any, Events], None]] = {
    RollInitiative: _roll,
    ChooseStarter: _choose,
    UsePoints: _use_points,
    KeepCard: _keep,
    UseKept: _use_kept,
    CarryOut: _carry_out,
    EndTurn: _end_turn,
    MoveWarrior: _casualty,
    NextCycle: _next_cycle,
    EndBattle: _end,
}

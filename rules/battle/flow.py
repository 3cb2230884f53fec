"""Rounds, turns and the end of a battle (D2-D5, D11, D12 as a battle reads them).

Reading (docs/battle-rules.md): every combatant who can fight has one turn a
round, in an order that starts with whoever declared the fight and then
alternates between the sides as far as possible; the referee may give another
order before a round starts. A round ends after the last turn, or earlier when
no combatant who can fight holds an attack card; the battle ends when at most
one side can still fight, when the referee ends it, or after the maximum of
rounds.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from rules.battle import events as E
from rules.battle.state import (
    BETWEEN_ROUNDS,
    ENDED,
    MAX_ROUNDS,
    NO_ATTACKS_LEFT,
    ONE_SIDE_LEFT,
    SITUATION_ENDED,
    TURNS,
    Battle,
    Frame,
)
from rules.conditions import can_fight
from rules.errors import INPUT, RuleError, gettext_noop
from rules.events import EngineEvent

Events = list[EngineEvent]


def fit(state: Battle, cid: int) -> bool:
    """Can fight (D11) and is still in the battle (D12)."""
    combatant = state.combatants[cid]
    return can_fight(combatant.condition) and not combatant.left


def sides_standing(state: Battle) -> list[str]:
    """The sides that still have a combatant who can fight (and has not left), in join order."""
    seen: list[str] = []
    for c in state.combatants.values():
        if can_fight(c.condition) and not c.left and c.side not in seen:
            seen.append(c.side)
    return seen


def holds_attack(state: Battle, cid: int) -> bool:
    return any(state.cards[uid].is_attack for uid in state.combatants[cid].hand)


def default_order(state: Battle, first: int) -> list[int]:
    """``first`` leads; then the sides take turns, each in join order, as long as each has someone."""
    by_side: dict[str, list[int]] = {}
    for cid, c in state.combatants.items():
        if fit(state, cid):
            by_side.setdefault(c.side, []).append(cid)
    if first in state.combatants and fit(state, first):
        side = state.combatants[first].side
        by_side[side].remove(first)
        by_side[side].insert(0, first)
        sides = [side] + [s for s in by_side if s != side]
    else:
        sides = list(by_side)
    order: list[int] = []
    while any(by_side[s] for s in sides):
        for s in sides:
            if by_side[s]:
                order.append(by_side[s].pop(0))
    return order


def next_order(state: Battle) -> list[int]:
    """Reading: the next round keeps the last order; who can no longer fight drops out, newcomers go last."""
    order = [cid for cid in state.order if fit(state, cid)]
    return order + [cid for cid in state.combatants if fit(state, cid) and cid not in order]


def check_order(state: Battle, order: Iterable[int]) -> list[int]:
    order = list(order)
    everyone_fit = {cid for cid in state.combatants if fit(state, cid)}
    still_in = {cid for cid, c in state.combatants.items() if not c.left}  # D12: who left is nobody's turn
    if len(set(order)) != len(order) or not set(order) <= still_in or not everyone_fit <= set(order):
        raise RuleError(
            INPUT, gettext_noop("The order must name every combatant who can fight, each once, and nobody else.")
        )
    return order


def start_round(state: Battle, order: list[int], now: datetime, events: Events, *, new_bout: bool = True) -> None:
    if not any(holds_attack(state, cid) for cid in order if fit(state, cid)):
        # D12 reading: ready to go on but nobody can attack - nothing to fight with.
        end_battle(state, NO_ATTACKS_LEFT, now, events)
        return
    if new_bout:
        state.bout += 1
    state.round += 1
    state.phase = TURNS
    state.order = order
    state.turn = -1
    state.opportunity_in_turn = {}
    events.append(E.RoundStarted(round=state.round, order=list(order), reactions=state.reactions_on))
    advance(state, now, events)


def advance(state: Battle, now: datetime, events: Events) -> None:
    """The next combatant who can fight takes their turn (D11: the others are skipped)."""
    if not any(holds_attack(state, cid) for cid in state.order if fit(state, cid)):
        end_round(state, NO_ATTACKS_LEFT, now, events)
        return
    while state.turn + 1 < len(state.order):
        state.turn += 1
        cid = state.order[state.turn]
        if not fit(state, cid):
            events.append(E.TurnSkipped(round=state.round, combatant=cid, condition=state.combatants[cid].condition))
            continue
        state.turn_seq += 1
        # R4 reading: a readied action waits until the readier's next turn.
        state.readied.pop(cid, None)
        if state.striker == cid:
            state.striker = None  # BP4: their turns have begun; a blow never struck "at once" has lapsed
        events.append(E.TurnStarted(round=state.round, combatant=cid))
        return
    end_round(state, "all_turns", now, events)


def end_turn(state: Battle, now: datetime, events: Events) -> None:
    who = state.turn_of
    assert who is not None
    events.append(E.TurnEnded(round=state.round, combatant=who))
    # R5: "since the end of your last turn" - the allowance returns now.
    if who in state.immediate_spent:
        state.immediate_spent.remove(who)
    advance(state, now, events)


def end_round(state: Battle, why: str, now: datetime, events: Events) -> None:
    """The round is over. D11 reading: the bout ends with it only when nobody fit holds an attack
    card (or the event makes every round a bout); otherwise the next round of the bout starts at once."""
    events.append(E.RoundEnded(round=state.round, why=why))
    state.turn = 0
    if state.max_rounds is not None and state.round >= state.max_rounds:
        end_battle(state, MAX_ROUNDS, now, events)
        return
    if why == NO_ATTACKS_LEFT or state.settings.every_round_a_bout:
        events.append(E.BoutEnded(bout=state.bout))
        state.phase = BETWEEN_ROUNDS  # the break between bouts: arsenals, leaving, a new order (D3, D12)
        return
    start_round(state, next_order(state), now, events, new_bout=False)


def check_sides(state: Battle, now: datetime, events: Events) -> bool:
    """At most one side can still fight: the battle is over. True if it ended."""
    if state.phase == ENDED or len(sides_standing(state)) > 1:
        return False
    end_battle(state, ONE_SIDE_LEFT, now, events)
    return True


def _cancel(state: Battle, frame: Frame) -> None:
    """An unfinished frame at the end: nothing was decided, so shown cards go back (as a duel's EndDuel)."""
    for q in frame.queue:
        _cancel(state, q)
    for part in frame.parts:
        if part.begun and not part.done and part.card is not None:
            state.combatants[frame.actor].hand.append(part.card)
            part.card = None
        for window in part.windows:
            if window.answer_card is not None and not window.resolved:
                state.combatants[window.defender].hand.append(window.answer_card)
                window.answer_card = None


def end_battle(state: Battle, result: str, now: datetime, events: Events, reason: str = "") -> None:
    for frame in state.stack:
        _cancel(state, frame)
    state.stack = []
    state.phase = ENDED
    state.ended = True
    state.ended_at = now
    state.result = result
    state.end_reason = reason
    if result == SITUATION_ENDED:
        close_situation(state, now)
    standing = sides_standing(state)
    events.append(
        E.Ended(
            result=result,
            reason=reason,
            winner=standing[0] if result == ONE_SIDE_LEFT and standing else None,
            conditions={str(cid): c.condition for cid, c in state.combatants.items()},
        )
    )


def close_situation(state: Battle, at: datetime) -> None:
    """S2: the gap passed with no combat action - the situation is over (the core writes back)."""
    state.closed = True
    state.closed_at = at


__all__ = ["BETWEEN_ROUNDS", "Events", "advance", "check_order", "check_sides", "default_order", "end_battle"]

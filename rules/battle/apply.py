"""The battle's entry points: open, apply (refuse whole or apply whole), expire, replay.

Time is an input (``now``); a battle draws nothing, so there is no chance
input. Deadlines are the answer windows of the top frame (D8) and the
situation's gap (S2).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from rules.battle import answers as A
from rules.battle import events as E
from rules.battle import stack as S
from rules.battle.commands import (
    Act,
    AnswerAttack,
    BattleCommand,
    BeginBattle,
    ConfirmAnswer,
    EndBattle,
    Immediate,
    JoinBattle,
    Leave,
    NewArsenal,
    NextTurn,
    Opportunity,
    Proceed,
    StartRound,
)
from rules.battle.flow import (
    Events,
    check_order,
    check_sides,
    close_situation,
    default_order,
    end_battle,
    end_turn,
    next_order,
    start_round,
)
from rules.battle.frames import top
from rules.battle.instant import InstantStrike, instant_strike
from rules.battle.referee import ChangeCondition, CloseSituation, change_condition, close_situation_command
from rules.battle.state import (
    ATTACK,
    BETWEEN_ROUNDS,
    ENDED,
    ENDED_BY_REFEREE,
    MOVE,
    SETUP,
    SITUATION_ENDED,
    TURNS,
    USE,
    Battle,
    BattleCard,
    BattleSettings,
    Combatant,
)
from rules.cards import CounterRule
from rules.clock import utc
from rules.clone import clone
from rules.conditions import can_fight, is_condition
from rules.errors import INPUT, RuleError, gettext_noop

MIN_COMBATANTS = 3


def open_battle(
    settings: BattleSettings,
    counters: Iterable[CounterRule],
    now: datetime,
    *,
    last_action_at: datetime | None = None,
    instant_attack_used: bool = False,
) -> Battle:
    """A new battle; one grown from a duel carries that situation's clock and IA6 flag (S2)."""
    return Battle(
        settings=settings,
        counters=tuple(counters),
        opened_at=utc(now),
        last_action_at=None if last_action_at is None else utc(last_action_at),
        instant_attack_used=instant_attack_used,
    )


def running_windows(state: Battle) -> list[tuple[datetime, Any, Any, Any]]:
    """The open answer windows with their deadlines, earliest first (only the top frame's run)."""
    frame = top(state)
    part = None if frame is None else frame.current
    if state.phase != TURNS or part is None or frame is None:
        return []
    found = [(w.deadline, frame, part, w) for w in part.windows if w.deadline is not None and not w.answered]
    return sorted(found, key=lambda item: (item[0], item[3].defender))


def gap_deadline(state: Battle) -> datetime | None:
    """S2: the situation ends after the gap with no combat action; an open attack or a bout break holds it.

    A battle that is over (BP5) leaves the situation open until the gap after its last combat action.
    """
    if state.closed:
        return None
    if state.phase == ENDED:
        last = state.last_action_at or state.ended_at
        return None if last is None else last + timedelta(seconds=state.settings.gap_s)
    if state.phase != TURNS or state.last_action_at is None or is_held(state):
        return None
    return state.last_action_at + timedelta(seconds=state.settings.gap_s)


def is_held(state: Battle) -> bool:
    """S2: a break between bouts, or an attack waiting for an answer or a result, holds the situation open.

    A negated attack (R6) waits for nothing: it holds nothing. When a hold ends, the gap is counted
    from that moment (``_apply_in_place``), as a duel's is.
    """
    if state.phase == BETWEEN_ROUNDS:
        return True
    return state.phase == TURNS and any(f.act == ATTACK and f.current is not None for f in state.stack)


def next_deadline(state: Battle) -> datetime | None:
    if state.closed:
        return None
    times = [at for at, *_ in running_windows(state)]
    gap = gap_deadline(state)
    if gap is not None:
        times.append(gap)
    return min(times, default=None)


def expire(state: Battle, now: datetime) -> tuple[Battle, Events]:
    """Apply every deadline ``now`` is past, in time order, each at its own time; idempotent."""
    now = utc(now)
    if not _due(state, now):
        # Nothing to apply (every poll and every command asks): the input itself, uncopied - the
        # deep copy of a whole battle was ~half of a step's CPU (issue 24, bench/cost.py --profile).
        return state, []
    state = clone(state)
    return state, _expire_in_place(state, now)


def _expire_in_place(state: Battle, now: datetime) -> Events:
    """``expire`` on a state the caller owns and gives up (a clone, or replay's private state)."""
    events: Events = []
    while not state.closed:
        windows = running_windows(state)
        gap = gap_deadline(state)
        if windows and now > windows[0][0]:
            _at, frame, part, window = windows[0]
            A.timeout(state, frame, part, window, events)
            state.last_action_at = max(state.last_action_at or _at, _at)
        elif gap is not None and now > gap:
            if state.ended:
                close_situation(state, gap)
                events.append(E.SituationClosed())
            else:
                end_battle(state, SITUATION_ENDED, gap, events)
        else:
            break
    return events


def _due(state: Battle, now: datetime) -> bool:
    """Whether ``expire`` has anything to apply at ``now`` (its loop's first test, without a copy)."""
    if state.closed:
        return False
    windows = running_windows(state)
    gap = gap_deadline(state)
    return bool(windows and now > windows[0][0]) or (gap is not None and now > gap)


def _check_current(state: Battle, now: datetime) -> None:
    if state.closed:
        raise RuleError("S2", gettext_noop("This combat situation has ended; a new one must be opened."))
    if state.ended:
        raise RuleError("S2", gettext_noop("This battle has ended."))
    for deadline, *_ in running_windows(state):
        if now > deadline:
            late = max(0.1, round((now - deadline).total_seconds(), 1))
            raise RuleError("D8", gettext_noop("The answer window closed %(seconds)s s ago."), seconds=late)
    gap = gap_deadline(state)
    if gap is not None and now > gap:
        raise RuleError("S2", gettext_noop("This battle has ended."))


def apply(state: Battle, command: BattleCommand, now: datetime) -> tuple[Battle, Events]:
    """One command at ``now``: the new state and its typed events, or a RuleError.

    The input is never changed: the handlers work on ``clone(state)`` (the containers copied, the
    immutable card faces, counter rules, settings and step records shared), so a refusal half-way
    through leaves nothing behind (issue 24: a whole deep copy was most of a step's cost).
    """
    new = clone(state)
    return new, _apply_in_place(new, command, utc(now))


def _apply_in_place(new: Battle, command: BattleCommand, now: datetime) -> Events:
    """``apply`` on a state the caller owns and gives up: a refusal may leave it half-changed."""
    events: Events = []
    if isinstance(command, CloseSituation):
        # Within the gap after the battle (S2): not refused as "ended", it is what closes it.
        close_situation_command(new, command, now, events)
        return events
    _check_current(new, now)
    held = is_held(new)
    match command:
        case JoinBattle():
            _join(new, command, events)
        case ChangeCondition():
            change_condition(new, command, now, events)  # not a combat action (S2)
        case _:
            _combat(new, command, now, events)
            if is_combat_action(command):
                new.last_action_at = now
    if held and not is_held(new) and new.last_action_at is not None:
        # S2: the hold (a bout break, an open step) is over - the gap starts now, not back-dated.
        new.last_action_at = max(new.last_action_at, now)
    return events


def is_combat_action(command: BattleCommand) -> bool:
    """S2: what restarts the situation's clock - an attack, an answer, an opportunity or immediate
    action, a card used, a move that provokes, the declared fight; not the referee's bookkeeping
    ("next turn", a pass, a confirm, "go on", a new round or arsenal, the end)."""
    match command:
        case BeginBattle() | AnswerAttack() | Opportunity() | Immediate() | InstantStrike():
            return True
        case Act():
            return command.act in (ATTACK, USE) or (command.act == MOVE and bool(command.engaged))
        case _:
            return False


def _combat(state: Battle, command: BattleCommand, now: datetime, events: Events) -> None:
    match command:
        case BeginBattle():
            _begin(state, command, now, events)
        case StartRound():
            if state.phase != BETWEEN_ROUNDS:
                raise RuleError("D12", gettext_noop("A new bout starts only when the last one has ended."))
            start_round(
                state, next_order(state) if command.order is None else check_order(state, command.order), now, events
            )
        case NewArsenal():
            _new_arsenal(state, command, events)
        case Leave():
            _leave(state, command, now, events)
        case Act():
            S.act(
                state,
                command.actor,
                command.act,
                command.cards,
                command.targets,
                command.engaged,
                command.trigger,
                command.mode,
                now,
                events,
            )
        case Proceed():
            S.proceed(state, command.frame, now, events)
        case Opportunity():
            S.opportunity(state, command.reactor, command.frame, command.card, now, events, adjacent=command.adjacent)
        case Immediate():
            S.immediate(
                state,
                command.reactor,
                command.frame,
                command.mode,
                command.card,
                command.target,
                command.negates,
                now,
                events,
            )
        case AnswerAttack():
            A.answer(state, command.frame, command.defender, command.card, now, events)
        case ConfirmAnswer():
            A.confirm(state, command.frame, command.defender, command.outcome, command.reason, now, events)
        case NextTurn():
            _next_turn(state, now, events)
        case InstantStrike():
            instant_strike(state, command, now, events)
        case EndBattle():
            if not command.reason.strip():
                raise RuleError("D2", gettext_noop("Say why the battle ends."))
            if state.phase == SETUP:
                raise RuleError(INPUT, gettext_noop("The battle has not begun."))
            end_battle(state, ENDED_BY_REFEREE, now, events, reason=command.reason.strip())
        case _:
            raise TypeError(f"not a battle command: {command!r}")


def _mint(state: Battle, c: Combatant, cards: Iterable[BattleCard]) -> list[str]:
    """New uids for card copies, deterministic so replay yields the same uids; the copies join ``state.cards``."""
    minted: dict[str, BattleCard] = {}
    for card in cards:
        minted[f"{c.character_id}:{card.face.card_id}:{c.next_n}"] = card
        c.next_n += 1
    state.cards = state.cards.with_items(minted)
    return list(minted)


def _join(state: Battle, cmd: JoinBattle, events: Events) -> None:
    setup = cmd.fighter
    if state.phase == ENDED:
        raise RuleError("S2", gettext_noop("This battle has ended."))
    if setup.character_id in state.combatants:
        raise RuleError(INPUT, gettext_noop("%(name)s is already in this battle."), name=setup.name)
    if not is_condition(setup.condition):
        raise RuleError(INPUT, gettext_noop("Unknown condition %(condition)s."), condition=setup.condition)
    if not can_fight(setup.condition):
        raise RuleError("D11", gettext_noop("%(name)s can no longer fight."), name=setup.name)
    if not cmd.side.strip():
        raise RuleError(INPUT, gettext_noop("Every combatant is on a side."))
    cards = cmd.cards or tuple(BattleCard(face=face) for face in setup.hand)
    if sorted(c.face.card_id for c in cards) != sorted(face.card_id for face in setup.hand):
        raise RuleError(INPUT, gettext_noop("The battle cards must be the fighter's hand."))
    combatant = Combatant(
        character_id=setup.character_id,
        name=setup.name,
        side=cmd.side.strip(),
        condition=setup.condition,
        focus_card_id=setup.focus_card_id,
    )
    combatant.hand = _mint(state, combatant, cards)
    state.combatants[combatant.character_id] = combatant
    # BP4: a newcomer takes turns from the next round (next_order puts them last);
    # one who joins by attacking strikes at once - their attack is the next command.
    if cmd.strike:
        if state.phase != TURNS:
            raise RuleError("BP4", gettext_noop("Only a running battle is joined by attacking."))
        state.striker = combatant.character_id
    events.append(
        E.Joined(
            combatant=combatant.character_id,
            name=combatant.name,
            side=combatant.side,
            condition=combatant.condition,
            cards=len(combatant.hand),
        )
    )


def _leave(state: Battle, cmd: Leave, now: datetime, events: Events) -> None:
    """D12: at a bout's end a combatant not ready to go on leaves; the battle goes on while two sides remain."""
    combatant = state.combatants.get(cmd.combatant)
    if combatant is None:
        raise RuleError(INPUT, gettext_noop("Combatant %(who)s is not in this battle."), who=cmd.combatant)
    if state.phase != BETWEEN_ROUNDS:
        raise RuleError("D12", gettext_noop("A combatant leaves the battle only at a bout's end."))
    if combatant.left:
        raise RuleError("D12", gettext_noop("%(name)s has already left the battle."), name=combatant.name)
    combatant.left = True
    state.order = [cid for cid in state.order if cid != cmd.combatant]
    events.append(E.Left(combatant=cmd.combatant))
    check_sides(state, now, events)


def _order(state: Battle, order: tuple[int, ...] | None, first: int) -> list[int]:
    return default_order(state, first) if order is None else check_order(state, order)


def _begin(state: Battle, cmd: BeginBattle, now: datetime, events: Events) -> None:
    if state.phase != SETUP:
        raise RuleError(INPUT, gettext_noop("The battle has already begun."))
    if len(state.combatants) < MIN_COMBATANTS:
        raise RuleError(INPUT, gettext_noop("A battle has at least three combatants; two fight a duel."))
    if len({c.side for c in state.combatants.values()}) < 2:
        raise RuleError(INPUT, gettext_noop("A battle needs at least two sides."))
    if cmd.declarer not in state.combatants:
        raise RuleError(INPUT, gettext_noop("Combatant %(who)s is not in this battle."), who=cmd.declarer)
    if cmd.max_rounds is not None and cmd.max_rounds < 1:
        raise RuleError("D2", gettext_noop("The maximum number of rounds is at least 1."))
    state.declarer = cmd.declarer
    state.max_rounds = cmd.max_rounds
    events.append(E.Begun(declarer=cmd.declarer, max_rounds=cmd.max_rounds))
    start_round(state, _order(state, cmd.order, cmd.declarer), now, events)


def _new_arsenal(state: Battle, cmd: NewArsenal, events: Events) -> None:
    if state.phase != BETWEEN_ROUNDS:
        if state.phase == TURNS and state.bout == 1:
            raise RuleError("AG2", gettext_noop("Arsenals cannot change before the first bout ends."))
        raise RuleError("D3", gettext_noop("Arsenals can change only at a bout's end."))
    combatant = state.combatants.get(cmd.combatant)
    if combatant is None:
        raise RuleError(INPUT, gettext_noop("Combatant %(who)s is not in this battle."), who=cmd.combatant)
    # D3: the new arsenal replaces the hand, which is set aside (kept for conservation).
    combatant.set_aside.extend(combatant.hand)
    combatant.hand = _mint(state, combatant, cmd.arsenal)
    # S2 reading: this is now the arsenal last composed, the one "restore" puts back whole.
    combatant.composed = sorted(card.face.card_id for card in cmd.arsenal)
    events.append(E.ArsenalChanged(combatant=cmd.combatant, label=cmd.label, count=len(combatant.hand)))


def _next_turn(state: Battle, now: datetime, events: Events) -> None:
    if state.phase != TURNS:
        raise RuleError(INPUT, gettext_noop("No turn is on."))
    own = [f for f in state.stack if not f.newcomer]
    if len(own) > 1 or any(f.current is not None or f.queue for f in state.stack):
        raise RuleError(INPUT, gettext_noop("Finish the action and its reactions first."))
    struck = bool(state.stack) and not own
    state.stack = []
    if struck:
        return  # BP4: after a newcomer's strike the turn goes back to whoever's it is
    end_turn(state, now, events)


def replay(opening: Battle, entries: Iterable[tuple[Any, ...]], *, whole_record: bool = False) -> Battle:
    """Apply ("command", cmd, at, draw) and ("expire", at) entries in order; a refusal means a corrupt log.

    ``opening`` is not changed: the entries are applied in place to one private clone of it, so a
    replay is linear in the log's length (a copy per entry made it quadratic). ``whole_record``:
    keep every record (the record page, the export), not only the newest the stored state keeps.
    """
    state = clone(opening)
    state.whole_record = whole_record
    for entry in entries:
        if entry[0] == "command":
            _apply_in_place(state, entry[1], utc(entry[2]))
        elif entry[0] == "expire":
            _expire_in_place(state, utc(entry[1]))
        else:
            raise ValueError(f"unknown log entry {entry!r}")
    return state

"""The action in progress: frames, their parts, and the checks of reactions (R0-R8, D6, D8).

Reading (docs/battle-rules.md): reactions form a stack. An opportunity attack
(R3) or an immediate interrupt (R6) is pushed on top of the frame it
interrupts, whose answer windows are suspended with the time they had left;
the top frame always resolves first (last in, first out). A response (R7) is
queued on the frame it answers and runs once that frame's current part is
done, in the order responses were called, before the frame's next part (R8).
The allowed-or-not checks are those of ``rules.battle.reactions``, asked about a view
of this battle.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from rules.battle import events as E
from rules.battle import reactions as R
from rules.battle.flow import Events, fit
from rules.battle.state import (
    ALLY_ATTACKED,
    ANY_TRIGGER,
    AREA,
    ATTACK,
    ATTACKED,
    ENEMY_ATTACKS,
    ENEMY_MOVES,
    INTERRUPT,
    MAIN,
    MOVE,
    NO_CARD,
    RANGED,
    RESPONSE,
    TURNS,
    USE,
    Battle,
    BattleCard,
    Frame,
    Part,
    Window,
)
from rules.errors import INPUT, RuleError, gettext_noop

_REACH_TRIGGER = {RANGED: R.RANGED_ATTACK, AREA: R.AREA_ATTACK}


# --- looking things up ---------------------------------------------------------------------------


def top(state: Battle) -> Frame | None:
    return state.stack[-1] if state.stack else None


def _in_turns(state: Battle) -> None:
    if state.phase != TURNS:
        raise RuleError(INPUT, gettext_noop("No turn is on: the battle is not between its rounds' turns."))


def _hand_card(state: Battle, cid: int, uid: str, rule: str) -> BattleCard:
    combatant = state.combatants[cid]
    if uid not in combatant.hand:
        raise RuleError(rule, gettext_noop("Card %(card)s is not in %(name)s's hand."), card=uid, name=combatant.name)
    return state.cards[uid]


def _combatant(state: Battle, cid: int) -> None:
    if cid not in state.combatants:
        raise RuleError(INPUT, gettext_noop("Combatant %(who)s is not in this battle."), who=cid)


def frame_in_stack(state: Battle, number: int) -> Frame:
    for frame in state.stack:
        if frame.number == number:
            return frame
    raise RuleError(INPUT, gettext_noop("That action is not in progress."))


def _top_frame(state: Battle, number: int) -> Frame:
    frame = top(state)
    if frame is None or frame.number != number:
        waiting = any(f.number == number for f in state.stack)
        raise RuleError(
            "R3" if waiting else INPUT,
            gettext_noop("That action waits for the reaction that interrupted it.")
            if waiting
            else gettext_noop("That action is not in progress."),
        )
    return frame


def _round_view(state: Battle, frame: Frame) -> R.BattleRound:
    """The reaction rules' view of this battle: the action they react to is ``frame``."""
    action = R.Action(
        actor=frame.actor, kind=frame.act, parts=len(frame.parts), parts_done=frame.parts_done, lost=frame.lost
    )
    return R.BattleRound(
        round=state.round,
        reactions_from_round=state.settings.reactions_from_round,
        combatants=list(state.combatants),
        turn_of=state.turn_of,
        turn_seq=state.turn_seq,
        action=action,
        opportunity_in_turn=dict(state.opportunity_in_turn),
        immediate_spent=set(state.immediate_spent),
    )


def _enemies(state: Battle, a: int, b: int) -> bool:
    return state.combatants[a].side != state.combatants[b].side


def _provocation(state: Battle, frame: Frame) -> str:
    """R1: what in this frame may draw an opportunity attack, or OTHER."""
    if frame.act == MOVE:
        return R.LEAVES_REACH
    if frame.act == ATTACK:
        part = frame.current or next((p for p in frame.parts if not p.done), None)
        if part is not None and part.card is not None:
            return _REACH_TRIGGER.get(state.cards[part.card].reach, R.OTHER)
    return R.OTHER


# --- checks shared by the commands and the referee's reaction bar -------------------------------


def check_opportunity(state: Battle, reactor: int, frame: Frame, *, adjacent: bool = False) -> None:
    """R0-R3: may ``reactor`` make an opportunity attack against ``frame`` now? Raises if not.

    R1: next to the provoker as recorded with the action (``frame.engaged``) or, for an action
    out of turn (an immediate or opportunity attack), as the referee records it now (``adjacent``).
    """
    _in_turns(state)
    _combatant(state, reactor)
    trigger = R.Trigger(
        actor=frame.actor,
        kind=_provocation(state, frame),
        adjacent=adjacent or reactor in frame.engaged,
        enemy=_enemies(state, reactor, frame.actor),
    )
    R.opportunity_action(_round_view(state, frame), reactor, trigger)
    if frame.finished or top(state) is not frame:
        # R3: it interrupts the triggering action, so that action must still be under way.
        raise RuleError("R3", gettext_noop("An opportunity action interrupts its trigger, which is already over."))
    _can_act(state, reactor)


def check_immediate(state: Battle, reactor: int, frame: Frame, mode: str, *, negates: bool = False) -> None:
    """R0, R4-R8: may ``reactor`` take an immediate ``mode`` action on ``frame`` now? Raises if not."""
    _in_turns(state)
    _combatant(state, reactor)
    moved = frame.parts_done if frame.act == MOVE else 0
    trigger = R.Trigger(actor=frame.actor, kind=R.MOVEMENT if frame.act == MOVE else R.OTHER, moved_steps=moved)
    R.immediate_action(_round_view(state, frame), reactor, mode, trigger, trigger_met=True, negates=negates)
    if mode == INTERRUPT and top(state) is not frame:
        raise RuleError("R6", gettext_noop("An interrupt acts before the triggering action finishes."))
    if mode == RESPONSE and frame.lost:
        raise RuleError("R6", gettext_noop("That action was negated by an interrupt and is lost."))
    if mode == RESPONSE and frame.actor == reactor:
        raise RuleError("R7", gettext_noop("Nobody responds to their own action."))
    _can_act(state, reactor)


def trigger_fits(state: Battle, reactor: int, frame: Frame, card: BattleCard) -> bool:
    """R4: has what ``card`` reacts to (its catalogue trigger kind) just happened in ``frame``?

    A card whose trigger the catalogue gives only in words ("the referee decides") always fits.
    """
    kind = card.trigger_kind
    if kind == ANY_TRIGGER:
        return True
    enemy = _enemies(state, reactor, frame.actor)
    if kind == ATTACKED:
        return frame.act == ATTACK and reactor in frame.targets
    if kind == ALLY_ATTACKED:
        side = state.combatants[reactor].side
        return frame.act == ATTACK and any(t != reactor and state.combatants[t].side == side for t in frame.targets)
    if kind == ENEMY_ATTACKS:
        return frame.act == ATTACK and enemy
    if kind == ENEMY_MOVES:
        return frame.act == MOVE and enemy
    return frame.act == USE and enemy  # ENEMY_USES_CARD


def _can_act(state: Battle, cid: int) -> None:
    if not fit(state, cid):
        raise RuleError("D11", gettext_noop("%(name)s can no longer fight."), name=state.combatants[cid].name)


# --- frames --------------------------------------------------------------------------------------


def _new_frame(state: Battle, actor: int, role: str, act: str, parts: list[Part], **kw: object) -> Frame:
    frame = Frame(number=state.next_frame, actor=actor, role=role, act=act, parts=parts, **kw)  # type: ignore[arg-type]
    state.next_frame += 1
    return frame


def _declared(frame: Frame) -> E.ActionDeclared:
    return E.ActionDeclared(
        frame=frame.number,
        actor=frame.actor,
        role=frame.role,
        act=frame.act,
        targets=list(frame.targets),
        engaged=list(frame.engaged),
        reacts_to=frame.reacts_to,
        trigger=frame.trigger,
    )


def _check_targets(state: Battle, actor: int, card: BattleCard, targets: tuple[int, ...] | list[int]) -> None:
    for target in targets:
        _combatant(state, target)
        if state.combatants[target].left:
            raise RuleError("D12", gettext_noop("%(name)s has left the battle."), name=state.combatants[target].name)
    if not targets or actor in targets or len(set(targets)) != len(targets):
        raise RuleError("D6", gettext_noop("An attack names its targets: other combatants, each once."))
    for target in targets:
        if not fit(state, target):
            # BP3, IA1's reading: one out of the fight is not attacked; a blow on them is a condition change.
            raise RuleError("BP3", gettext_noop("%(name)s can no longer fight."), name=state.combatants[target].name)
    if card.reach != AREA and len(targets) != 1:
        raise RuleError("D6", gettext_noop("Only an area attack names several targets."))


def begin_part(state: Battle, frame: Frame, part: Part, now: datetime, events: Events) -> None:
    """A part starts: an attack card is shown and the answer windows open (D6, D8)."""
    part.begun = True
    actor = state.combatants[frame.actor]
    if part.card is not None:
        if part.card not in actor.hand:
            raise RuleError(
                "D6", gettext_noop("Card %(card)s is not in %(name)s's hand."), card=part.card, name=actor.name
            )
        actor.hand.remove(part.card)
    if frame.act == ATTACK:
        assert part.card is not None
        deadline = now + timedelta(seconds=state.settings.answer_window_s)
        window_ms = state.settings.answer_window_s * 1000
        part.windows = [Window(defender=t, deadline=deadline, remaining_ms=window_ms) for t in frame.targets]
        events.append(
            E.AttackShown(
                frame=frame.number,
                attacker=frame.actor,
                card=part.card,
                card_id=state.cards[part.card].face.card_id,
                targets=list(frame.targets),
                deadline=deadline.isoformat(),
            )
        )
        # BP3: a target put out since the action was declared (by its first attack, a reaction) has no window.
        _lose_windows_of_the_out(state, frame, part, now, events)
        return
    if part.card is not None:
        events.append(
            E.CardUsed(
                frame=frame.number, combatant=frame.actor, card=part.card, card_id=state.cards[part.card].face.card_id
            )
        )
    # A move's first stretch and a card used in one's turn wait for the referee's "go on",
    # so that reactions can catch them; everything else happens at once.
    if frame.role == MAIN and frame.act in (MOVE, USE) and part is frame.parts[0]:
        return
    finish_part(state, frame, part, now, events)


def finish_part(state: Battle, frame: Frame, part: Part, now: datetime, events: Events) -> None:
    part.done = True
    if part.card is not None:
        # D9: played cards are discarded.
        state.combatants[frame.actor].discards.append(part.card)
    events.append(E.PartDone(frame=frame.number, part=frame.parts.index(part)))


def suspend(frame: Frame, now: datetime, by: int, events: Events) -> None:
    """R3/R6: the interrupted action waits; its answer windows keep the time they had left."""
    part = frame.current
    if part is None:
        return
    for window in part.windows:
        if window.deadline is not None and not window.answered:
            left = (window.deadline - now) // timedelta(milliseconds=1)
            window.remaining_ms = max(0, left)
            window.deadline = None
    events.append(E.WindowsSuspended(frame=frame.number, by=by))


def resume(state: Battle, frame: Frame, now: datetime, events: Events) -> None:
    if not frame.finished and not fit(state, frame.actor):
        # Reading: an action whose actor can no longer fight is lost with them.
        lose(state, frame, None, "out", events)
        return
    part = frame.current
    if part is None:
        return
    # BP3: a target the reaction put out of the fight loses the window that waited for them.
    if _lose_windows_of_the_out(state, frame, part, now, events):
        settle(state, now, events)
        return
    if not any(w.deadline is None and not w.answered for w in part.windows):
        return
    for window in part.windows:
        if window.deadline is None and not window.answered:
            window.deadline = now + timedelta(milliseconds=window.remaining_ms)
    events.append(E.WindowsResumed(frame=frame.number))


def _lose_windows_of_the_out(state: Battle, frame: Frame, part: Part, now: datetime, events: Events) -> bool:
    """BP3: close the unanswered windows of targets out of the fight (nothing lands on them); True if that ended
    the part. An answer already given stands: its result is decided as any other."""
    lost = [w for w in part.windows if not w.answered and not w.resolved and not fit(state, w.defender)]
    if not lost:
        return False
    gone = {w.defender for w in lost}
    part.windows = [w for w in part.windows if w.defender not in gone]
    for window in lost:
        events.append(E.WindowLost(frame=frame.number, defender=window.defender))
    if all(w.resolved for w in part.windows):
        finish_part(state, frame, part, now, events)
        return True
    return False


def lose(state: Battle, frame: Frame, by: int | None, why: str, events: Events) -> None:
    """R6: the action is lost - its shown card is spent, its answer windows close, unanswered."""
    part = frame.current
    if part is not None:
        if part.card is not None:
            state.combatants[frame.actor].discards.append(part.card)
        for window in part.windows:
            if window.answer_card is not None and not window.resolved:
                # Reading: an answer to an attack that never happened goes back to the hand;
                # a window already resolved (an area attack's other target) stays as it was (D9).
                state.combatants[window.defender].hand.append(window.answer_card)
        part.windows = []
        part.card = None
    frame.lost = True
    events.append(E.ActionLost(frame=frame.number, actor=frame.actor, by=by, why=why))


def settle(state: Battle, now: datetime, events: Events) -> None:
    """Start queued responses whose trigger part is done (R7, R8), in the order they were called."""
    while state.phase == TURNS and state.stack:
        frame = state.stack[-1]
        if frame.current is not None or not frame.queue:
            return
        response = frame.queue.pop(0)
        if not fit(state, response.actor):
            # Reading (D11, R7): a waiting response whose actor can no longer fight when it
            # would start is lost with them; its card was never shown and stays in the hand.
            lose(state, response, None, "out", events)
            continue
        card = response.parts[0].card
        if card is not None and card not in state.combatants[response.actor].hand:
            # Reading (R8, R5): its card was played meanwhile (an answer, another reaction): the waiting
            # response has nothing left to act with and is lost; the immediate action counts as taken.
            lose(state, response, None, NO_CARD, events)
            continue
        suspend(frame, now, response.actor, events)
        state.stack.append(response)
        begin_part(state, response, response.parts[0], now, events)

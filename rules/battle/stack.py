"""Commands that change the stack of actions: a turn's action, go on, opportunity and immediate actions.

See ``frames`` for the stack's reading (docs/battle-rules.md): interrupts and
opportunity attacks are pushed on top of what they interrupt (last in, first
out); responses wait on the action they answer and run in call order (R7, R8).
"""

from __future__ import annotations

from datetime import datetime

from rules.battle import events as E
from rules.battle.flow import Events
from rules.battle.frames import (
    _can_act,
    _check_targets,
    _combatant,
    _declared,
    _enemies,
    _hand_card,
    _in_turns,
    _new_frame,
    _provocation,
    _top_frame,
    begin_part,
    check_immediate,
    check_opportunity,
    finish_part,
    frame_in_stack,
    lose,
    resume,
    settle,
    suspend,
    top,
    trigger_fits,
)
from rules.battle.state import (
    ATTACK,
    INTERRUPT,
    MAIN,
    MOVE,
    OPPORTUNITY,
    PASS,
    READY,
    RESPONSE,
    STANDARD,
    USE,
    Battle,
    Frame,
    Part,
    Readied,
)
from rules.errors import INPUT, RuleError, gettext_noop

# --- commands ------------------------------------------------------------------------------------


def act(
    state: Battle,
    actor: int,
    kind: str,
    cards: tuple[str, ...],
    targets: tuple[int, ...],
    engaged: tuple[int, ...],
    trigger: str,
    mode: str,
    now: datetime,
    events: Events,
) -> None:
    _in_turns(state)
    newcomer = state.striker == actor and actor != state.turn_of
    if newcomer:
        # BP4: a newcomer who joined by attacking strikes at once, with an attack, between actions.
        if kind != ATTACK:
            raise RuleError("BP4", gettext_noop("A newcomer who joins by attacking strikes with an attack."))
        _can_act(state, actor)  # D11: one put out before the blow strikes none
        if any(not f.finished or f.queue for f in state.stack):
            raise RuleError(INPUT, gettext_noop("Finish the action and its reactions first."))
    elif state.turn_of != actor:
        raise RuleError(
            "D5", gettext_noop("It is %(name)s's turn."), name=state.combatants[state.turn_of or actor].name
        )
    elif state.stack and all(f.newcomer and f.finished for f in state.stack):
        state.stack = []  # BP4: a newcomer's finished strike; the turn's own action follows
    if state.stack and not newcomer:
        raise RuleError(INPUT, gettext_noop("One action a turn: this turn's action is already under way."))
    for other in engaged:
        _combatant(state, other)
    parts: list[Part]
    if kind == ATTACK:
        if not 1 <= len(cards) <= 2:
            raise RuleError("D6", gettext_noop("An attack shows one attack card (two for a double attack)."))
        for uid in cards:
            card = _hand_card(state, actor, uid, "D6")
            if not card.is_attack or card.action not in (STANDARD, OPPORTUNITY):
                raise RuleError(
                    "D6", gettext_noop("%(name)s is not an attack card for one's own turn."), name=card.face.name
                )
            _check_targets(state, actor, card, targets)
        if len(set(cards)) != len(cards):
            raise RuleError("D6", gettext_noop("Each card is shown once."))
        if len(cards) == 2 and not grants_double(state, actor):
            raise RuleError(
                "BP2", gettext_noop("Two attacks in one action only when a card or talent grants a double attack.")
            )
        parts = [Part(card=uid) for uid in cards]
    elif kind == MOVE:
        parts = [Part(), Part()]  # the first stretch out of reach (R7), then the rest
    elif kind == USE:
        if len(cards) != 1:
            raise RuleError(INPUT, gettext_noop("Choose the card to use."))
        card = _hand_card(state, actor, cards[0], INPUT)
        if card.is_attack or card.action != STANDARD:
            raise RuleError(
                INPUT, gettext_noop("%(name)s cannot be used as an action of one's own turn."), name=card.face.name
            )
        parts = [Part(card=cards[0])]
    elif kind == READY:
        if mode not in (INTERRUPT, RESPONSE) or not trigger.strip():
            raise RuleError(
                "R4", gettext_noop("A readied action names its trigger and whether it interrupts or responds.")
            )
        state.readied[actor] = Readied(mode=mode, trigger=trigger.strip())
        events.append(E.ActionReadied(combatant=actor, mode=mode, trigger=trigger.strip()))
        parts = [Part()]
    elif kind == PASS:
        parts = [Part()]
    else:
        raise RuleError(INPUT, gettext_noop("Unknown action."))
    frame = _new_frame(
        state,
        actor,
        MAIN,
        kind,
        parts,
        targets=list(targets) if kind == ATTACK else [],
        engaged=[e for e in engaged if _enemies(state, actor, e)],
        trigger=trigger.strip() if kind == READY else "",
        newcomer=newcomer,
    )
    if newcomer:
        state.striker = None
    state.stack.append(frame)
    events.append(_declared(frame))
    begin_part(state, frame, parts[0], now, events)


def grants_double(state: Battle, actor: int) -> bool:
    """BP2, R8: a card in the actor's hand (a talent, or one of the attacks) grants two attacks in one action."""
    return any(state.cards[uid].double for uid in state.combatants[actor].hand)


def proceed(state: Battle, number: int, now: datetime, events: Events) -> None:
    _in_turns(state)
    frame = _top_frame(state, number)
    part = frame.current
    if part is not None:
        if frame.act == ATTACK:
            raise RuleError("D7", gettext_noop("The attack waits for its answers and results."))
        finish_part(state, frame, part, now, events)
    elif not frame.finished:
        begin_part(state, frame, next(p for p in frame.parts if not p.begun), now, events)
    elif frame.role == MAIN:
        raise RuleError(INPUT, gettext_noop("The action is over: go on to the next turn."))
    else:
        state.stack.pop()
        events.append(E.FrameClosed(frame=frame.number, actor=frame.actor, role=frame.role))
        below = top(state)
        if below is not None:
            resume(state, below, now, events)
    settle(state, now, events)


def opportunity(
    state: Battle, reactor: int, number: int, uid: str, now: datetime, events: Events, *, adjacent: bool = False
) -> None:
    frame = frame_in_stack(state, number)
    check_opportunity(state, reactor, frame, adjacent=adjacent)
    card = _hand_card(state, reactor, uid, "R1")
    if not card.is_attack or card.action not in (STANDARD, OPPORTUNITY):
        raise RuleError("R1", gettext_noop("An opportunity action is an attack with an attack card."))
    state.opportunity_in_turn[reactor] = state.turn_seq
    reaction = _new_frame(
        state,
        reactor,
        OPPORTUNITY,
        ATTACK,
        [Part(card=uid)],
        targets=[frame.actor],
        reacts_to=frame.number,
        trigger=_provocation(state, frame),
    )
    _push(state, frame, reaction, now, events)


def immediate(
    state: Battle,
    reactor: int,
    number: int,
    mode: str,
    uid: str | None,
    target: int | None,
    negates: bool,
    now: datetime,
    events: Events,
) -> None:
    frame = frame_in_stack(state, number)
    if mode not in (INTERRUPT, RESPONSE):
        raise RuleError(INPUT, gettext_noop("An immediate action is an interrupt or a response."))
    check_immediate(state, reactor, frame, mode, negates=negates)
    card = None if uid is None else _hand_card(state, reactor, uid, "R4")
    readied = state.readied.get(reactor)
    by_readied = card is None or card.action != mode
    if by_readied and (readied is None or readied.mode != mode):
        raise RuleError(
            "R4", gettext_noop("An immediate action needs a card of that kind or an action readied for it.")
        )
    if not by_readied and card is not None and not trigger_fits(state, reactor, frame, card):
        raise RuleError(
            "R4", gettext_noop("%(card)s reacts to something else: its trigger has not occurred."), card=card.face.name
        )
    trigger = readied.trigger if by_readied and readied is not None else (card.trigger if card else "")
    act_kind, targets = USE, []
    if card is not None and card.is_attack:
        act_kind = ATTACK
        targets = [frame.actor if target is None else target]
        _check_targets(state, reactor, card, targets)
    if by_readied:
        state.readied.pop(reactor, None)
    state.immediate_spent.append(reactor)
    reaction = _new_frame(
        state,
        reactor,
        mode,
        act_kind,
        [Part(card=uid)],
        targets=targets,
        reacts_to=frame.number,
        trigger=trigger,
        readied=by_readied,
    )
    if mode == INTERRUPT:
        if negates:
            lose(state, frame, reactor, "negated", events)
        _push(state, frame, reaction, now, events)
        return
    events.append(_declared(reaction))
    if top(state) is frame and _response_cuts_in(frame):
        suspend(frame, now, reactor, events)
        state.stack.append(reaction)
        begin_part(state, reaction, reaction.parts[0], now, events)
    else:
        # R7/R8: it waits for the part under way, and for responses called before it.
        frame.queue.append(reaction)


def _response_cuts_in(frame: Frame) -> bool:
    """R8: a response called before the next part is resolved comes before it, never lost behind it.

    Reading: between parts, or once "go on" has shown the next part but none of its answers is
    decided yet, the response answers the part already done and the shown part waits (suspended).
    """
    part = frame.current
    if part is None:
        return True
    return frame.parts_done >= 1 and not any(w.resolved for w in part.windows)


def _push(state: Battle, frame: Frame, reaction: Frame, now: datetime, events: Events) -> None:
    """R3/R6: the reaction resolves first; the action it interrupts waits."""
    suspend(frame, now, reaction.actor, events)
    state.stack.append(reaction)
    events.append(_declared(reaction))
    begin_part(state, reaction, reaction.parts[0], now, events)
